import { describe, expect, it } from 'vitest'
import { findInvisibleCharacters } from '@/lib/moderation/engines/invisible-text'

const DEFAULT = ['Cf', 'Co', 'Cn', 'So', 'Sc']
const find = (text: string, bannedCategories = DEFAULT) => findInvisibleCharacters({ text, bannedCategories })

describe('invisible text (Python unicodedata semantics)', () => {
  it('reports nothing when every character is ASCII, even banned ones', () => {
    expect(find('price $5 \u007f')).toEqual([])
  })

  it('reports every banned character in order, with duplicates, once the text has a non-ASCII character', () => {
    expect(find('Price $5 — ok 😀 \u200b\u200b')).toEqual(['$', '😀', '\u200b', '\u200b'])
  })

  it('uses general categories of code points: Cf, Co, Cn, Cs, So, Sc', () => {
    expect(find('\u200d\u202e\ufeff\u{e0041}', ['Cf'])).toEqual(['\u200d', '\u202e', '\ufeff', '\u{e0041}'])
    expect(find('é\ue000\u{f0000}', ['Co'])).toEqual(['\ue000', '\u{f0000}'])
    expect(find('é\u0378\u{2fffe}', ['Cn'])).toEqual(['\u0378', '\u{2fffe}'])
    expect(find('é\ud800x', ['Cs'])).toEqual(['\ud800'])
    expect(find('©€', ['So', 'Sc'])).toEqual(['©', '€'])
  })

  it('a variation selector is Mn, so an emoji sequence reports only its So and Cf parts', () => {
    expect(find('❤\ufe0f👩\u200d💻')).toEqual(['❤', '👩', '\u200d', '💻'])
  })

  it('codes that are not general categories match nothing; an empty list bans nothing', () => {
    expect(find('é\u200b', ['C', 'Xx', 'cf'])).toEqual([])
    expect(find('é\u200b', [])).toEqual([])
  })
})
