// Address classification: every special-use range is refused, IPv6 forms that carry an IPv4
// address are judged by that address, and ordinary public addresses pass.
import { describe, expect, it } from 'vitest'
import { classifyAddress } from '@/lib/net/addresses'

const refused: [string, string][] = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this-network'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.254', 'shared'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'ietf-protocol'],
  ['192.0.2.10', 'documentation'],
  ['192.88.99.1', 'reserved'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.251', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::127.0.0.1', 'loopback'],
  ['::a00:1', 'private'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'link-local'],
  ['64:ff9b:1::1', 'nat64-local'],
  ['100::1', 'discard'],
  ['2001:db8::1', 'documentation'],
  ['2001::1', 'ietf-protocol'],
  ['2001:2::1', 'ietf-protocol'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'reserved'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['4000::1', 'reserved'],
  ['localhost', 'not-an-address'],
  ['1.2.3', 'not-an-address'],
  ['', 'not-an-address'],
]

const allowed = ['1.1.1.1', '8.8.8.8', '93.184.216.34', '100.63.255.255', '100.128.0.0', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '2a00:1450:4001:81a::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']

describe('classifyAddress', () => {
  for (const [address, kind] of refused) it(`${address || '(empty)'} is ${kind}`, () => expect(classifyAddress(address)).toBe(kind))
  for (const address of allowed) it(`${address} is public`, () => expect(classifyAddress(address)).toBe('public'))
})
