// Random secrets, their stored hashes, and constant-time comparison. Bearer tokens and client
// secrets are high-entropy, so a plain SHA-256 is the right stored form (a slow KDF is for passwords).
import { createHash, timingSafeEqual } from 'node:crypto'
import { randomBytesPooled } from '@/lib/random'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A random string over [A-Za-z0-9] without modulo bias. */
export function randomToken(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytesPooled(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62] // 248 = 4 * 62: keeps the distribution uniform
      if (out.length === length) break
    }
  }
  return out
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex')
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest()
  const right = createHash('sha256').update(b, 'utf8').digest()
  return timingSafeEqual(left, right)
}
