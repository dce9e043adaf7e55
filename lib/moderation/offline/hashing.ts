/**
 * Feature hashing shared by training, the server and the browser: 32-bit FNV-1a over UTF-16
 * code units, so every platform maps a string to the same bucket without a vocabulary.
 */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/** A bucket in [1, 2^bits): bucket 0 is reserved for the bias feature of every linear graph. */
export function hashBucket(feature: string, bits: number): number {
  const size = 2 ** bits
  return 1 + (fnv1a(feature) % (size - 1))
}
