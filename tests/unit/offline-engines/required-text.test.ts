/**
 * The literal prefilter of the prompt-injection phrase patterns (lib/moderation/offline/required-text.ts) may only
 * let more texts through than an expression matches: a text an expression matches that the prefilter turned away
 * would change a feature, and so the engine's answer.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { normalizeObfuscation } from '@/lib/moderation/offline/deobfuscate'
import { STRUCTURE_FEATURES } from '@/lib/moderation/offline/prompt-injection'
import { prefiltered, prefilteredPatterns, requiredText } from '@/lib/moderation/offline/required-text'
import { letterKey } from '@/lib/moderation/offline/word-presence'

const required = (pattern: RegExp) => {
  const found = requiredText(pattern)
  return found === null ? null : [...found].sort()
}

describe('required text', () => {
  it('reads the literal strings every match holds, and nothing from optional or zero-width parts', () => {
    expect(required(/\b(?:grant|give|add)\b[^.!?\n]{0,40}?\b(?:access|permissions?)\b/iu)).toEqual(['access', 'permission'])
    expect(required(/\bDAN\b/u)).toEqual(['dan'])
    expect(required(/e-?mails?/iu)).toEqual(['mail'])
    expect(required(/(?:ab|cd)?ef/iu)).toEqual(['ef'])
    expect(required(/x{2,3}yz/u)).toEqual(['yz'])
    expect(required(/(?:foo)+!/u)).toEqual(['foo'])
    // A branch that requires nothing makes the whole requirement nothing.
    expect(required(/abc|\d+/u)).toBeNull()
    expect(required(/(?:abc)?|def/u)).toBeNull()
    // Lookarounds, classes, escapes and backreferences end a run and add nothing.
    expect(required(/ab(?=cdef)g/u)).toEqual(['ab'])
    expect(required(/(?<q>["'])quote\k<q>/u)).toEqual(['quote'])
    expect(required(/(x)yy\1zz/u)).toEqual(['yy'])
    expect(required(/a\u00e9b\sc\.d/u)).toEqual(['c.d'])
    expect(required(/[a-z]+@[a-z]+\.com/u)).toEqual(['.com'])
    // A literal letter outside ASCII ends a run too.
    expect(required(new RegExp('café au lait', 'iu'))).toEqual([' au lait'])
    // Backreferences of two digits are read whole.
    expect(required(/(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10zz/u)).toEqual(['zz'])
    // Expressions of other syntax or with state between calls get no requirement.
    expect(required(/abc/i)).toBeNull()
    expect(required(/abc/gu)).toBeNull()
    expect(required(/abc/uy)).toBeNull()
  })

  it('keys every code point that case-insensitive matching takes for a printable ASCII character as that character', () => {
    const codePoints: string[] = []
    for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) codePoints.push(String.fromCodePoint(cp))
    const everything = codePoints.join('')
    const unsound: string[] = []
    for (let code = 0x20; code <= 0x7e; code++) {
      const character = String.fromCharCode(code)
      const pattern = new RegExp(`[${'\\]^-'.includes(character) ? '\\' : ''}${character}]`, 'giu')
      for (const [found] of everything.matchAll(pattern)) if (letterKey(found) !== character.toLowerCase()) unsound.push(`${character} ~ U+${found.codePointAt(0)!.toString(16)}`)
    }
    expect(unsound).toEqual([])
  })

  it('never turns away a text that an expression matches, whatever its case or look-alike letters', () => {
    const prefilter = prefiltered(/\bdo not (?:tell|inform) the user\b/iu)
    for (const text of ['Do NOT tell the user', 'do not inform THE USER', 'do not tell the u\u017fer', 'DO NOT TELL THE USER!']) {
      expect(/\bdo not (?:tell|inform) the user\b/iu.test(text)).toBe(prefilter.test(text))
    }
    expect(prefiltered(/\bwor\u212a\b/iu).test('WORK')).toBe(true)
    expect(prefilter.test('nothing of the kind')).toBe(false)
  })

  it('lets through every text of the evaluation sets that a feature pattern matches, in capitals and with look-alike letters too', () => {
    const texts: string[] = []
    // The prompt-injection sets: the texts these patterns were written to match, and their benign twins.
    for (const file of fs.readdirSync('tests/eval').filter((f) => f.startsWith('prompt-injection') && f.endsWith('.jsonl'))) {
      for (const line of fs.readFileSync(path.join('tests/eval', file), 'utf8').split('\n').filter(Boolean)) {
        const row = JSON.parse(line) as { text?: unknown }
        if (typeof row.text === 'string') texts.push(row.text)
      }
    }
    // As written, as the features read them (obfuscation undone), in capitals, and with look-alike letters.
    const variants = texts.flatMap((t) => [t, normalizeObfuscation(t), t.toUpperCase(), t.replace(/s/g, '\u017f').replace(/k/g, '\u212a')])
    expect(STRUCTURE_FEATURES.length).toBeGreaterThan(30)
    const patterns = prefilteredPatterns()
    expect(patterns.length).toBeGreaterThan(40)
    let matched = 0
    const turnedAway: string[] = []
    for (const pattern of patterns) {
      const prefilter = prefiltered(pattern)
      for (const text of variants) {
        if (!pattern.test(text)) continue
        matched++
        if (!prefilter.test(text)) turnedAway.push(`${pattern.source.slice(0, 60)} :: ${text.slice(0, 80)}`)
      }
    }
    expect(turnedAway).toEqual([])
    expect(matched).toBeGreaterThan(2000)
  })
})
