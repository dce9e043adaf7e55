// User codes (RFC 8628 6.1): 8 characters from 20 consonants, shown XXXX-XXXX. No vowels (no words
// spelled by accident) and no look-alikes; entry ignores case, dashes and spaces.
import { randomInt } from 'node:crypto'

export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'
const LENGTH = 8

export function newUserCode(): string {
  let code = ''
  for (let i = 0; i < LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]
  return code
}

/** The canonical 8 characters of what a person typed, or null when it cannot be a code. */
export function normalizeUserCode(entered: string): string | null {
  const code = entered.toUpperCase().replace(/[\s-]+/g, '')
  if (code.length !== LENGTH) return null
  for (const ch of code) if (!USER_CODE_ALPHABET.includes(ch)) return null
  return code
}

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`
}
