// Password hashing with scrypt (memory-hard; in node:crypto, so nothing native to install).
// Stored form: scrypt$<log2 N>$<r>$<p>$<salt b64>$<hash b64>, so parameters can be raised later
// without breaking existing hashes.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto'

const LOG_N = 15 // N = 32768, r = 8: 32 MiB and ~50-100 ms per hash on this class of machine
const R = 8
const P = 1
const KEY_LENGTH = 32

function scrypt(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scrypt(password, salt, LOG_N, R, P)
  return ['scrypt', LOG_N, R, P, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** A hash of a random password: lets sign-in spend the same time when the user does not exist. */
let decoy: Promise<string> | undefined
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'))
  return decoy
}
