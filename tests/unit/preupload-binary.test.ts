import { describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import { looksBinary } from '@/lib/hub/files/preupload'
import { defaultGitAttributes, lfsRules, MatchBudget, MatchBudgetExceeded, routedToLfs } from '@/lib/hub/files/gitattributes'

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
    const lfs = (attributes: string, path: string) => routedToLfs(lfsRules(attributes), path, new MatchBudget(1e6))
    const bin = '*.bin filter=lfs diff=lfs merge=lfs -text\n# comment\n*.md text'
    expect(lfs(bin, 'a/b/model.bin')).toBe(true)
    expect(lfs(bin, 'model.bin.txt')).toBe(false)
    expect(lfs(bin, 'notes.md')).toBe(false)
    const nested = 'weights/** filter=lfs'
    expect(['weights/x/y.pt', 'weights/top.pt', 'other/weights/x.pt', 'weights'].map((p) => lfs(nested, p))).toEqual([true, true, false, false])
    const anyDepth = '**/ckpt/*.pt filter=lfs'
    expect(['ckpt/a.pt', 'x/y/ckpt/a.pt', 'ckpt/sub/a.pt'].map((p) => lfs(anyDepth, p))).toEqual([true, true, false])
    // Anchored by a slash; `?` is one character within a folder; `*` never crosses a folder.
    expect(['model.pt', 'sub/model.pt'].map((p) => lfs('/model.pt filter=lfs', p))).toEqual([true, false])
    expect(['a1.pt', 'a12.pt', 'a/.pt'].map((p) => lfs('a?.pt filter=lfs', p))).toEqual([true, false, false])
    expect(['data/x.csv', 'data/sub/x.csv'].map((p) => lfs('data/*.csv filter=lfs', p))).toEqual([true, false])
    expect(lfsRules('*.md text')).toEqual([])
    // Classes and escapes, as git's wildmatch reads them; a [ never closed is itself.
    expect(['m.bin', 'm.BIN', 'm.Bin', 'm.pin'].map((p) => lfs('*.[Bb][Ii][Nn] filter=lfs', p))).toEqual([true, true, true, false])
    expect(['v1.pt', 'v9.pt', 'vx.pt', 'v.pt'].map((p) => lfs('v[0-9].pt filter=lfs', p))).toEqual([true, true, false, false])
    expect(['a.x', 'b.x', '1.x'].map((p) => lfs('[!a0-9].x filter=lfs', p))).toEqual([false, true, false])
    expect(['a*b', 'axb', '[x', 'ax'].map((p) => lfs('a\\*b filter=lfs\n[x filter=lfs', p))).toEqual([true, false, true, false])
    expect(['].x', 'a.x'].map((p) => lfs('[]].x filter=lfs', p))).toEqual([true, false])
    // The last line that matches decides, as in git: a later -filter (or !filter, or another filter) takes a path out.
    const unset = '*.bin filter=lfs diff=lfs merge=lfs -text\nsmall.bin -filter\nsub/*.bin !filter\ndocs/*.bin filter=text\ndocs/big.bin filter=lfs'
    expect(['a.bin', 'x/small.bin', 'sub/a.bin', 'docs/a.bin', 'docs/big.bin'].map((p) => lfs(unset, p))).toEqual([true, false, false, false, true])
  })

  it('the Hub\'s default .gitattributes routes weights, archives and TensorBoard events; a dataset\'s media too', () => {
    const lfs = (type: 'model' | 'dataset', path: string) => routedToLfs(lfsRules(defaultGitAttributes(type)), path, new MatchBudget(1e6))
    expect(['model.safetensors', 'onnx/model.onnx', 'runs/events.out.tfevents.1.host', 'saved_model/variables/v.data', 'x.tar.gz', 'config.json', 'README.md'].map((p) => lfs('model', p)))
      .toEqual([true, true, true, true, true, false, false])
    expect(['img/a.png', 'a.mp3', 'train.parquet', 'a.csv'].map((p) => [lfs('model', p), lfs('dataset', p)])).toEqual([[false, true], [false, true], [true, true], [false, false]])
  })

  it('matching costs at most the pattern\'s length times the path\'s (no backtracking blow-up), and a request\'s matching is capped', () => {
    // As a regular expression ([^/]* per star) this pattern took 25 s on a path of 120 a's.
    const hostile = lfsRules(`${'*a'.repeat(40)}*b filter=lfs`)
    const path = 'a'.repeat(1000)
    const budget = new MatchBudget(1e9)
    expect(routedToLfs(hostile, path, budget)).toBe(false)
    expect(1e9 - budget.remaining).toBeLessThanOrEqual(81 * 1000)
    // Folders: every cell of the (pattern segment, path part) table is charged, so a long run of `**` costs what it
    // walks (it had walked 50 s uncharged, and 10,000 of them overflowed the stack: a 500).
    const folders = Array.from({ length: 200 }, () => 'a').join('/')
    const deep = lfsRules(`${'**/a/'.repeat(3000)}x filter=lfs`)
    const charged = new MatchBudget(1e12)
    expect(routedToLfs(deep, folders, charged)).toBe(false)
    expect(1e12 - charged.remaining).toBeGreaterThanOrEqual(6001 * 201)
    expect(() => routedToLfs(deep, folders, new MatchBudget(1_000_000))).toThrow(MatchBudgetExceeded)
    const collapsed = lfsRules(`${'**/'.repeat(10_000)}x filter=lfs`)
    expect(collapsed[0]!.segments).toEqual(['**', 'x'])
    const budget2 = new MatchBudget(1e9)
    expect(routedToLfs(collapsed, `${folders}/x`, budget2)).toBe(true)
    expect(1e9 - budget2.remaining).toBeLessThanOrEqual(3 * (200 + 2))
    const long = lfsRules(`${'**/a/'.repeat(10_000)}x filter=lfs`)
    expect(() => routedToLfs(long, 'a/'.repeat(400) + 'x', new MatchBudget(1e12))).not.toThrow()
    expect(() => routedToLfs(hostile, path, new MatchBudget(1000))).toThrow(MatchBudgetExceeded)
    // A class is charged its size on every comparison: a class of 60,000 members against a long name costs what it walks.
    const wide = lfsRules(`*[${'a'.repeat(60_000)}]b filter=lfs`)
    const wideBudget = new MatchBudget(1e12)
    expect(routedToLfs(wide, 'a'.repeat(200), wideBudget)).toBe(false)
    expect(1e12 - wideBudget.remaining).toBeGreaterThanOrEqual(200 * 60_000)
  })
})
