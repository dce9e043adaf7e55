// lib/db/filters: the LIKE patterns that match a text literally, whatever the case of its ASCII
// letters (the statements themselves run on both databases in tests/integration/listings/search.test.ts).
import { describe, expect, it } from 'vitest'
import { foldAsciiCase, isOneOf, likePattern, textMatches } from '@/lib/db/filters'
import { sql, type Sql } from '@/lib/db/statements'

/** A fragment's text with its values in place, as `?`, and the values, to read what it says. */
function flatten(fragment: Sql): { text: string; values: unknown[] } {
  const values: unknown[] = []
  let text = fragment.strings[0]!
  fragment.values.forEach((value, i) => {
    if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
      const inner = flatten(value)
      text += inner.text
      values.push(...inner.values)
    } else {
      text += '?'
      values.push(value)
    }
    text += fragment.strings[i + 1]!
  })
  return { text, values }
}

describe('likePattern', () => {
  it('escapes "%", "_" and the escape character "!", so each stands for itself', () => {
    expect(likePattern('100%', 'contains')).toBe('%100!%%')
    expect(likePattern('cc_', 'contains')).toBe('%cc!_%')
    expect(likePattern('a!b', 'contains')).toBe('%a!!b%')
    expect(likePattern('%_!', 'startsWith')).toBe('!%!_!!%')
    expect(likePattern('org', 'endsWith')).toBe('%org')
    expect(likePattern('', 'startsWith')).toBe('%')
  })

  it('folds ASCII letters to lower case and leaves every other character as it is', () => {
    expect(likePattern('Toxicity-Tiny', 'contains')).toBe('%toxicity-tiny%')
    expect(foldAsciiCase('ÉTÉ Ab\\Z')).toBe('ÉtÉ ab\\z')
    // The Kelvin sign, which JavaScript's toLowerCase() would turn into "k".
    expect(foldAsciiCase('\u212A')).toBe('\u212A')
  })
})

describe('textMatches', () => {
  it('compares the lowered column with the pattern, escape character named', () => {
    const { text, values } = flatten(textMatches(sql`"name"`, 'CC_', 'contains'))
    expect(text).toMatch(/^lower\("name"( COLLATE "C")?\) LIKE \? ESCAPE '!'$/)
    expect(values).toEqual(['%cc!_%'])
  })

  it('matches nothing for a text with a NUL character', () => {
    expect(flatten(textMatches(sql`"name"`, 'a\0', 'contains'))).toEqual({ text: '1 = 0', values: [] })
  })
})

describe('isOneOf', () => {
  it('binds the list as one JSON value, so the text is one whatever its length', () => {
    const one = flatten(isOneOf(sql`"namespace"`, ['a']))
    const three = flatten(isOneOf(sql`"namespace"`, ['a', 'b', 'c\0']))
    expect(one.text).toBe(three.text)
    expect(three.values).toEqual(['["a","b"]'])
    expect(flatten(isOneOf(sql`"namespace"`, [])).text).toBe('1 = 0')
  })
})
