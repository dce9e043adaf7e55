// Which IP addresses an outbound fetch may connect to. Everything in the IANA special-purpose
// registries (RFC 6890 and successors) is refused: private, loopback, link-local, shared (CGNAT),
// multicast, documentation, benchmarking, reserved. IPv6 forms that carry an IPv4 address
// (mapped, compatible, NAT64, 6to4) are judged by the IPv4 address they carry.
import { isIP } from 'node:net'

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'this-network'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'ietf-protocol'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unique-local'
  | 'site-local'
  | 'discard'
  | 'nat64-local'
  | 'not-an-address'

type V4Range = [base: string, prefix: number, kind: AddressClass]

// Most specific first where ranges nest (255.255.255.255 inside 240/4).
const V4_SPECIAL: readonly V4Range[] = [
  ['255.255.255.255', 32, 'broadcast'],
  ['0.0.0.0', 32, 'unspecified'],
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'ietf-protocol'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.31.196.0', 24, 'ietf-protocol'], // AS112-v4
  ['192.52.193.0', 24, 'ietf-protocol'], // AMT
  ['192.88.99.0', 24, 'reserved'], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'ietf-protocol'], // AS112 direct delegation
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
]

function v4ToInt(address: string): number {
  return address.split('.').reduce((acc, part) => acc * 256 + Number(part), 0)
}

const V4_TABLE = V4_SPECIAL.map(([base, prefix, kind]) => ({ base: v4ToInt(base), prefix, kind }))

function classifyV4Int(value: number): AddressClass {
  for (const { base, prefix, kind } of V4_TABLE) {
    const size = 2 ** (32 - prefix)
    if (value >= base && value < base + size) return kind
  }
  return 'public'
}

/** The 16 bytes of an IPv6 address (zone index dropped), or null when it does not parse. */
function v6Bytes(address: string): Uint8Array | null {
  let text = address.replace(/%.*$/, '')
  const bytes = new Uint8Array(16)
  // A dotted IPv4 tail (::ffff:1.2.3.4) stands for the last two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  let tail: number[] = []
  if (dotted) {
    if (isIP(dotted[2]!) !== 4) return null
    const v = v4ToInt(dotted[2]!)
    tail = [(v >>> 16) & 0xffff, v & 0xffff]
    text = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1)
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'))
  const head = groupsOf(halves[0]!)
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : []
  const parse = (g: string) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)
  const headValues = head.map(parse)
  const restValues = [...rest.map(parse), ...tail]
  const missing = 8 - headValues.length - restValues.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const groups = [...headValues, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...restValues]
  if (groups.some((g) => Number.isNaN(g))) return null
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8
    bytes[i * 2 + 1] = g & 0xff
  })
  return bytes
}

function startsWith(bytes: Uint8Array, prefixBytes: number[], prefixBits: number): boolean {
  for (let bit = 0; bit < prefixBits; bit++) {
    const byte = bit >> 3
    const mask = 0x80 >> (bit & 7)
    if ((bytes[byte]! & mask) !== ((prefixBytes[byte] ?? 0) & mask)) return false
  }
  return true
}

const v4At = (bytes: Uint8Array, offset: number) =>
  ((bytes[offset]! << 24) >>> 0) + (bytes[offset + 1]! << 16) + (bytes[offset + 2]! << 8) + bytes[offset + 3]!

type V6Range = [prefixBytes: number[], prefixBits: number, kind: AddressClass | ((bytes: Uint8Array) => AddressClass)]

const embeddedAtEnd = (bytes: Uint8Array) => classifyV4Int(v4At(bytes, 12))

const V6_SPECIAL: readonly V6Range[] = [
  [[0xff], 8, 'multicast'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96, embeddedAtEnd], // IPv4-mapped
  [[0, 0x64, 0xff, 0x9b], 96, embeddedAtEnd], // NAT64 well-known prefix
  [[0, 0x64, 0xff, 0x9b, 0, 1], 48, 'nat64-local'],
  [[0x01, 0, 0, 0, 0, 0, 0, 0], 64, 'discard'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'],
  [[0x20, 0x01, 0x00], 23, 'ietf-protocol'], // Teredo, benchmarking, ORCHID, AS112, ...
  [[0x20, 0x02], 16, (bytes) => classifyV4Int(v4At(bytes, 2))], // 6to4 carries an IPv4 address
  [[0x3f, 0xff, 0x00], 20, 'documentation'],
  [[0x5f, 0x00], 16, 'reserved'], // SRv6 SIDs
  [[0xfc], 7, 'unique-local'],
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'site-local'],
]

function classifyV6(bytes: Uint8Array): AddressClass {
  if (bytes.every((b) => b === 0)) return 'unspecified'
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback'
  // The deprecated IPv4-compatible form ::a.b.c.d.
  if (bytes.slice(0, 12).every((b) => b === 0)) return embeddedAtEnd(bytes)
  for (const [prefixBytes, bits, kind] of V6_SPECIAL) {
    if (startsWith(bytes, prefixBytes, bits)) return typeof kind === 'function' ? kind(bytes) : kind
  }
  // Only 2000::/3 is allocated as global unicast; everything else is reserved.
  return startsWith(bytes, [0x20], 3) ? 'public' : 'reserved'
}

/** What kind of address this is; 'public' is the only class an outbound fetch may reach. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const family = isIP(bare.replace(/%.*$/, ''))
  if (family === 4) return classifyV4Int(v4ToInt(bare))
  if (family === 6) {
    const bytes = v6Bytes(bare)
    return bytes ? classifyV6(bytes) : 'not-an-address'
  }
  return 'not-an-address'
}
