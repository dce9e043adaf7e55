import { describe, expect, it } from 'vitest'
import { formatTimeTaken } from '@/lib/moderation/checks'
import { pythonJsonError } from '@/lib/moderation/api/json-body'
import { pythonRound } from '@/lib/moderation/engines/python-round'

describe("Python's round()", () => {
  it('rounds the exact binary value half to even', () => {
    expect(pythonRound(0.0625, 3)).toBe(0.062)
    expect(pythonRound(0.0875, 3)).toBe(0.087)
    expect(pythonRound(2.675, 2)).toBe(2.67)
    expect(pythonRound(0.5, 0)).toBe(0)
    expect(pythonRound(1.5, 0)).toBe(2)
    expect(pythonRound(-0.0005, 3)).toBe(-0.001)
    expect(pythonRound(0.12345678, 4)).toBe(0.1235)
  })

  it('time_taken is str(round(seconds, 3)) + "s"', () => {
    expect(formatTimeTaken(0.0451)).toBe('0.045s')
    expect(formatTimeTaken(0)).toBe('0.0s')
    expect(formatTimeTaken(2)).toBe('2.0s')
    expect(formatTimeTaken(1.23456)).toBe('1.235s')
  })
})

describe("json.loads' error positions and messages", () => {
  it.each([
    ['{"text": }', 9, 'Expecting value'],
    ['', 0, 'Expecting value'],
    ['   ', 3, 'Expecting value'],
    ['nope', 0, 'Expecting value'],
    ['{"text": "a",}', 13, 'Expecting property name enclosed in double quotes'],
    ["{'text': 'a'}", 1, 'Expecting property name enclosed in double quotes'],
    ['{"text" "a"}', 8, "Expecting ':' delimiter"],
    ['{"text": "a" "b"}', 13, "Expecting ',' delimiter"],
    ['[1 2]', 3, "Expecting ',' delimiter"],
    ['{"text": "abc', 9, 'Unterminated string starting at'],
    ['{"text": "a\nb"}', 11, 'Invalid control character at'],
    ['{"text": "\\x"}', 10, 'Invalid \\escape'],
    ['{"a": 1} x', 9, 'Extra data'],
    ['{"a": NaN}', 6, 'Expecting value'],
    ['{"é😀": }', 7, 'Expecting value'],
  ])('%j → %i %s', (text, position, message) => {
    expect(pythonJsonError(text)).toEqual({ position, message })
  })
})
