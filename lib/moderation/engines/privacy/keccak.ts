/**
 * Keccak-256 as Ethereum uses it (the original Keccak padding, 0x01, not SHA3-256's 0x06): the hash EIP-55 takes of
 * an address to choose which of its letters are capitals. Node's OpenSSL 3.0 has SHA3 but no Keccak, and an address is
 * 40 characters, so a plain implementation of Keccak-f[1600] over 64-bit lanes held as BigInt is fast enough.
 */

const MASK = (1n << 64n) - 1n
/** The 24 rounds' constants (FIPS 202, 3.2.5). */
const ROUND_CONSTANTS = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n, 0x000000000000808bn,
  0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n, 0x000000000000008an, 0x0000000000000088n,
  0x0000000080008009n, 0x000000008000000an, 0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n,
  0x8000000000008003n, 0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
]
/** Rotation of lane x + 5y in the rho step. */
const ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]

const rotateLeft = (lane: bigint, by: number) => (by === 0 ? lane : ((lane << BigInt(by)) | (lane >> BigInt(64 - by))) & MASK)

function permute(state: bigint[]): void {
  for (const roundConstant of ROUND_CONSTANTS) {
    // theta
    const columns = [0, 1, 2, 3, 4].map((x) => state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20])
    for (let x = 0; x < 5; x++) {
      const d = columns[(x + 4) % 5] ^ rotateLeft(columns[(x + 1) % 5], 1)
      for (let y = 0; y < 25; y += 5) state[x + y] ^= d
    }
    // rho and pi
    const moved = new Array<bigint>(25)
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) moved[y + 5 * ((2 * x + 3 * y) % 5)] = rotateLeft(state[x + 5 * y], ROTATIONS[x + 5 * y])
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) state[x + y] = moved[x + y] ^ (~moved[((x + 1) % 5) + y] & MASK & moved[((x + 2) % 5) + y])
    }
    // iota
    state[0] ^= roundConstant
  }
}

/** A Keccak sponge with a 256-bit output: `paddingByte` 0x01 is Keccak-256, 0x06 is SHA3-256. */
export function keccakSponge256(message: Uint8Array, paddingByte = 0x01): Uint8Array {
  const rate = 136
  const padded = new Uint8Array(Math.ceil((message.length + 1) / rate) * rate)
  padded.set(message)
  padded[message.length] ^= paddingByte
  padded[padded.length - 1] ^= 0x80
  const state = new Array<bigint>(25).fill(0n)
  for (let block = 0; block < padded.length; block += rate) {
    for (let lane = 0; lane < rate / 8; lane++) {
      let value = 0n
      for (let byte = 7; byte >= 0; byte--) value = (value << 8n) | BigInt(padded[block + lane * 8 + byte])
      state[lane] ^= value
    }
    permute(state)
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((state[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn)
  return out
}

export const keccak256 = (message: Uint8Array) => keccakSponge256(message, 0x01)
