import { describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import { looksBinary, lfsPatterns } from '@/lib/hub/files/preupload'

describe('preupload: binary samples', () => {
  it('calls text text, even when the 512-byte cut splits a character', () => {
    expect(looksBinary(Buffer.from('# Model card\n\nPlain ASCII, tabs\tand newlines.\n'))).toBe(false)
    const euro = Buffer.from('prix: 5 €, naïve café, 日本語, 🙂'.repeat(20))
    for (let cut = euro.length - 4; cut <= euro.length; cut++) expect(looksBinary(euro.subarray(0, cut))).toBe(false)
    expect(looksBinary(Buffer.alloc(0))).toBe(false)
  })

  it('calls NUL bytes, invalid UTF-8 and random bytes binary', () => {
    expect(looksBinary(Buffer.from('text\0more'))).toBe(true)
    expect(looksBinary(Buffer.from('caf\xe9 au lait', 'latin1'))).toBe(true)
    // A lone lead byte in the middle is not a cut character.
    expect(looksBinary(Buffer.concat([Buffer.from('ab'), Buffer.from([0xe2]), Buffer.from('cd')]))).toBe(true)
    let withoutNul = 0
    for (let i = 0; i < 300; i++) {
      const sample = randomBytes(512)
      if (!sample.includes(0)) withoutNul++
      expect(looksBinary(sample)).toBe(true)
    }
    expect(withoutNul).toBeGreaterThan(0) // the case NUL alone gets wrong did occur
  })

  it('reads filter=lfs patterns as git does', () => {
    const [bin, nested] = lfsPatterns('*.bin filter=lfs diff=lfs merge=lfs -text\n# comment\nweights/** filter=lfs\n*.md text')
    expect(bin!.test('a/b/model.bin')).toBe(true)
    expect(bin!.test('model.bin.txt')).toBe(false)
    expect(nested!.test('weights/x/y.pt')).toBe(true)
    expect(nested!.test('weights/top.pt')).toBe(true)
    expect(nested!.test('other/weights/x.pt')).toBe(false)
    const [anyDepth] = lfsPatterns('**/ckpt/*.pt filter=lfs')
    expect(['ckpt/a.pt', 'x/y/ckpt/a.pt'].map((p) => anyDepth!.test(p))).toEqual([true, true])
    expect(anyDepth!.test('ckpt/sub/a.pt')).toBe(false)
    expect(lfsPatterns('*.md text')).toEqual([])
  })
})
