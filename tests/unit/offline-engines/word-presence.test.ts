/**
 * The word-list prefilter of the prompt-injection features (lib/moderation/offline/word-presence.ts) must never say
 * "cannot occur" where the list's case-insensitive expression matches: it only skips expressions, so an unsound key
 * would change the engines' answers (the respelled swear words of deobfuscate.ts are looked up by the same keys).
 */
import { describe, expect, it } from 'vitest'
import { INJECTION_LANGUAGES, wordPattern, writtenWithSpaces } from '@/lib/moderation/offline/injection-languages'
import { letterKey, wordKey, wordListPresence } from '@/lib/moderation/offline/word-presence'

const listsOf = (language: (typeof INJECTION_LANGUAGES)[number]) => Object.values(language).filter(Array.isArray) as string[][]

describe('word presence', () => {
  it('gives every code point that case-insensitive matching takes for a letter of the lists that letter\'s key', () => {
    // One string of every code point (less surrogates), scanned once per letter of the lists.
    const codePoints: string[] = []
    for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) codePoints.push(String.fromCodePoint(cp))
    const everything = codePoints.join('\n')
    // The lists' letters, and every ASCII letter (the masked swear words of deobfuscate.ts are looked up by key too).
    const words = [...INJECTION_LANGUAGES.flatMap((l) => listsOf(l).flat()), 'abcdefghijklmnopqrstuvwxyz']
    const letters = new Set(words.flatMap((word) => [...word].filter((c) => /[\p{L}\p{M}]/u.test(c))))
    expect(letters.size).toBeGreaterThan(300)
    const unsound: string[] = []
    for (const letter of letters) {
      const pattern = new RegExp(letter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu')
      // A code point taken for the letter must have its key, and be a letter or mark itself (a word's run ends where the text's does).
      for (const [found] of everything.matchAll(pattern)) if (letterKey(found) !== letterKey(letter) || !/[\p{L}\p{M}]/u.test(found)) unsound.push(`${letter} ~ ${found}`)
    }
    expect(unsound).toEqual([])
  })

  it('keys a run the same whether it is plain ASCII or not', () => {
    expect(wordKey('STOP')).toBe('stop')
    expect(wordKey('\u017ftop')).toBe('stop') // long s
    expect(wordKey('\u212aI')).toBe('ki') // Kelvin sign
    expect(wordKey('ΟΔΗΓΊΕΣ')).toBe(wordKey('οδηγίες'))
    expect(wordKey('ΟΔΗΓΊΕΣ')).toBe(wordKey('οδηγίεσ'))
    expect(wordKey('STRAẞE')).toBe(wordKey('straße'))
    // Letters that case folding joins though their upper cases differ (no one-letter upper case).
    expect(wordKey('πρωτε\u1fd3νη')).toBe(wordKey('πρωτε\u0390νη'))
    expect(wordKey('\u1fe3')).toBe(wordKey('\u03b0'))
    expect(wordKey('\ufb05op')).toBe(wordKey('\ufb06op'))
    expect(wordListPresence(['πρωτεΐνη'], true)('ΠΡΩΤΕ\u1FD3ΝΗ')).toBe(true)
  })

  it('lets through every text where a list\'s expression matches, and skips texts without its words', () => {
    const separators = [' ', ', ', '\n', ' (', '" ', '. ', '-', '/']
    const cases = [(w: string) => w, (w: string) => w.toUpperCase(), (w: string) => w[0]!.toUpperCase() + w.slice(1)]
    let matched = 0
    let skipped = 0
    for (const language of INJECTION_LANGUAGES) {
      const spaced = writtenWithSpaces(language)
      for (const list of listsOf(language)) {
        // The list's own expression, as the features build it.
        const pattern = wordPattern(language, list)
        const mayOccur = wordListPresence(list, spaced)
        list.forEach((word, i) => {
          const written = cases[i % cases.length]!(word.replace(/\*$/, 'en'))
          const text = `Einleitung${separators[i % separators.length]}${written}${separators[(i + 3) % separators.length]}Schluss`
          if (pattern.test(text)) {
            matched++
            expect(mayOccur(text), `${language.code}: ${text}`).toBe(true)
          }
        })
        const without = 'Plain words of no list 12345 here.'
        if (spaced && !pattern.test(without) && !mayOccur(without)) skipped++
      }
    }
    // All but a few Turkish words in capitals ("KURALLARINI": the expressions do not take "I" for "ı").
    expect(matched).toBeGreaterThan(2950)
    expect(skipped).toBeGreaterThan(300)
  })

  it('never lets a stem or a word part of a longer word stand for the word', () => {
    const overrides = wordListPresence(['ignora', 'olvídate de', 'nutzer*'], true)
    expect(overrides('por favor ignora todo')).toBe(true)
    expect(overrides('OLVÍDATE de eso')).toBe(true)
    expect(overrides('alle Nutzern')).toBe(true)
    expect(overrides('ignorante y olvidadizo')).toBe(false)
    // Where the script has no spaces, any text may hold a word.
    expect(wordListPresence(['忽略'], false)('nothing here')).toBe(true)
  })

  it('answers for a list made after a text was last read', () => {
    const text = 'bitte ignoriere alles'
    expect(wordListPresence(['bitte'], true)(text)).toBe(true)
    // The text is the one just read; the new list must still be looked up in it.
    expect(wordListPresence(['ignoriere'], true)(text)).toBe(true)
    expect(wordListPresence(['vergiss'], true)(text)).toBe(false)
  })
})
