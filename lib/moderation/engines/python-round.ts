/**
 * Python's `round(value, digits)`: rounds the exact binary value half to even. The toolkit's
 * answers (VADER scores, `time_taken`) are produced this way, and `toFixed` rounds ties up.
 */
export function pythonRound(value: number, digits: number): number {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return value
  // toFixed(100) is the exact decimal expansion of any double this code sees.
  const [whole, fraction] = Math.abs(value).toFixed(100).split('.')
  const kept = BigInt(whole + fraction.slice(0, digits))
  const rest = fraction.slice(digits).replace(/0+$/, '')
  const roundsUp = rest > '5' || (rest === '5' && kept % 2n === 1n)
  const rounded = (roundsUp ? kept + 1n : kept).toString().padStart(digits + 1, '0')
  const text = digits > 0 ? `${rounded.slice(0, -digits)}.${rounded.slice(-digits)}` : rounded
  const magnitude = Number(text)
  return value < 0 ? -magnitude : magnitude
}
