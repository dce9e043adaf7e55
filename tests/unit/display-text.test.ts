import { describe, expect, it } from 'vitest'
import { displayText } from '@/lib/display-text'

describe('displayText: names, titles and descriptions people read', () => {
  const name = displayText(20, { required: true })
  const description = displayText(200, { lines: true })

  it('takes ordinary text in any script, trimmed', () => {
    expect(name.parse('  Acme Réseau 東京 🚀 ')).toBe('Acme Réseau 東京 🚀')
    expect(description.parse('First line\r\nsecond\tline')).toBe('First line\r\nsecond\tline')
  })

  it('refuses control characters and the marks that reverse text, and line breaks in a one-line name', () => {
    for (const bad of ['a\u0000b', 'Evil\u202eppA', 'x\u2066y\u2069', 'bell\u0007', 'esc\u001b[31m', 'c1\u0085', 'two\nlines']) {
      const result = name.safeParse(bad)
      expect(result.success, JSON.stringify(bad)).toBe(false)
    }
    expect(description.safeParse('ok\u202e').success).toBe(false)
  })

  it('keeps the length and emptiness rules', () => {
    expect(name.safeParse('   ').success).toBe(false)
    expect(name.safeParse('x'.repeat(21)).success).toBe(false)
    expect(displayText(5).parse('')).toBe('')
  })
})
