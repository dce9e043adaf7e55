// Text people read: names, titles and descriptions that users, organizations and apps give themselves.
import { z } from 'zod'

/**
 * Characters a name, title or description people read may not hold: control characters (a line
 * break only where `lines` allows it) and the marks that reorder text (U+202A-U+202E, U+2066-U+2069),
 * with which an app could show itself on the consent page under a name that reads differently
 * from the one it has.
 */
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u
const LINE_BREAKS = /[\n\r\t]/u

/** A name, title or description shown to people: trimmed, at most `max` characters, without hidden characters. */
export function displayText(max: number, options: { required?: boolean; lines?: boolean } = {}) {
  let text = z.string().trim()
  if (options.required) text = text.min(1, 'must not be empty')
  return text
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !HIDDEN.test(value) && (options.lines || !LINE_BREAKS.test(value)), 'must not contain control characters or marks that reverse the text')
}
