// Random bytes for the hot paths (token values, row ids), taken from a pool that is refilled
// 4 KiB at a time from the operating system's CSPRNG, as Node's own randomUUID does. A token
// exchange needs a few hundred bytes in five pieces, and each crypto.randomBytes call costs far
// more than its bytes (under Next it also passes through Next's wrapper of node:crypto): about 4%
// of the exchange's CPU (bench/oauth/RESULTS.md). Every byte is handed out once; a refill takes a
// new buffer, so bytes already handed out are never overwritten.
import { randomFillSync } from 'node:crypto'

const POOL_BYTES = 4096

let pool = Buffer.alloc(0)
let taken = 0

/** `count` fresh random bytes (count up to 4096; larger requests get their own buffer). */
export function randomBytesPooled(count: number): Buffer {
  if (count > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(count))
  if (taken + count > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES))
    taken = 0
  }
  const bytes = pool.subarray(taken, taken + count)
  taken += count
  return bytes
}
