/**
 * What text a regular expression cannot match without: read from its source, a set of literal strings one of which
 * every match contains (or nothing known). The English phrase patterns of the prompt-injection features are long
 * alternations tried at every position of every text ("\b(?:grant|give|add|…)\b[^.!?\n]{0,40}?…"), and most texts hold
 * none of the words a pattern starts from; a few substring searches tell so first, and only a text that holds one is
 * given to the expression. The answer is the expression's in every case: the prefilter only ever lets more texts
 * through.
 *
 * Sound because (1) the strings are read only from literal printable ASCII characters that every match must contain,
 * in order and side by side (any other character, a character class, a wildcard, any escape but an escaped
 * punctuation mark, a backreference, a lookaround and an optional part each end a run and contribute nothing of their
 * own; a part repeated at least once contributes what it requires), and (2) the text and the strings are compared by
 * the keys of word-presence.ts, under which every character that case-insensitive matching ('iu') takes for a printable
 * ASCII character falls (tested against every code point). Only expressions with the 'u' flag and without 'v', 'g'
 * and 'y' are read (their syntax is the one parsed here, and they keep no state between calls); others get no
 * requirement.
 */
import { wordKey } from './word-presence'

/** One of these strings (keys, see `textKey`) is in every match; `null` when nothing is known. */
export type RequiredText = ReadonlySet<string> | null

type Node =
  | { kind: 'char'; char: string }
  | { kind: 'other' }
  | { kind: 'group'; branches: Node[][] }
  | { kind: 'repeat'; node: Node; min: number }

class SourceReader {
  private at = 0
  constructor(private readonly source: string) {}

  alternation(): Node[][] {
    const branches = [this.sequence()]
    while (this.source[this.at] === '|') {
      this.at++
      branches.push(this.sequence())
    }
    return branches
  }

  private sequence(): Node[] {
    const items: Node[] = []
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom()
      items.push(this.quantified(atom))
    }
    return items
  }

  private atom(): Node {
    const c = this.source[this.at++]!
    if (c === '(') {
      // A lookaround consumes nothing; its text is not required where the match is (nor counted here).
      const lookaround = /^\?(?:=|!|<=|<!)/.exec(this.source.slice(this.at))
      if (lookaround) {
        this.at += lookaround[0].length
        this.alternation()
        this.expect(')')
        return { kind: 'other' }
      }
      const opening = /^\?(?::|<[A-Za-z_$][\w$]*>)/.exec(this.source.slice(this.at))
      if (opening) this.at += opening[0].length
      else if (this.source[this.at] === '?') throw new Error(`unsupported group at ${this.at} in ${this.source}`)
      const branches = this.alternation()
      this.expect(')')
      return { kind: 'group', branches }
    }
    if (c === '[') {
      while (this.at < this.source.length && this.source[this.at] !== ']') this.at += this.source[this.at] === '\\' ? 2 : 1
      this.expect(']')
      return { kind: 'other' }
    }
    if (c === '\\') return this.escape()
    if (c === '.' || c === '^' || c === '$') return { kind: 'other' }
    return { kind: 'char', char: c }
  }

  private escape(): Node {
    const c = this.source[this.at++]!
    if (c === 'p' || c === 'P') {
      if (this.source[this.at] === '{') this.at = this.past('}')
      return { kind: 'other' }
    }
    if (c === 'k') {
      this.at = this.past('>')
      return { kind: 'other' }
    }
    if (c === 'u' || c === 'x' || c === 'c' || /[0-9bBdDsSwWfnrtv]/.test(c)) {
      // Escaped code points, control characters and backreferences: read past, required as nothing.
      if (c === 'u') this.at = this.source[this.at] === '{' ? this.past('}') : this.at + 4
      else if (c === 'x') this.at += 2
      else if (c === 'c') this.at += 1
      else if (/[1-9]/.test(c)) while (/[0-9]/.test(this.source[this.at] ?? '')) this.at++
      return { kind: 'other' }
    }
    return { kind: 'char', char: c }
  }

  private quantified(atom: Node): Node {
    const rest = this.source.slice(this.at)
    const quantifier = /^(?:([?*+])|\{(\d+)(?:,(\d*))?\})\??/.exec(rest)
    if (!quantifier) return atom
    this.at += quantifier[0].length
    const min = quantifier[1] === '+' ? 1 : quantifier[1] ? 0 : Number(quantifier[2])
    return { kind: 'repeat', node: atom, min }
  }

  /** Where the source goes on after the next `c`. */
  private past(c: string): number {
    const at = this.source.indexOf(c, this.at)
    if (at === -1) throw new Error(`expected ${c} after ${this.at} in ${this.source}`)
    return at + 1
  }

  private expect(c: string) {
    if (this.source[this.at] !== c) throw new Error(`expected ${c} at ${this.at} in ${this.source}`)
    this.at++
  }

  done(): boolean {
    return this.at === this.source.length
  }
}

const ASCII_PRINTABLE = /^[\x20-\x7e]$/

/** Of two requirements, the more selective: longer shortest string, then fewer strings. */
function better(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  const shortest = (set: ReadonlySet<string>) => Math.min(...[...set].map((s) => s.length))
  const [inA, inB] = [shortest(a), shortest(b)]
  return inB > inA || (inB === inA && b.size < a.size) ? b : a
}

function required(branches: Node[][]): RequiredText {
  const sets: string[] = []
  for (const branch of branches) {
    const found = requiredOfSequence(branch)
    if (found === null) return null
    sets.push(...found)
  }
  return new Set(sets)
}

function requiredOfSequence(items: Node[]): RequiredText {
  let best: ReadonlySet<string> | null = null
  let run = ''
  const take = (found: ReadonlySet<string> | null) => {
    if (found !== null && found.size > 0) best = best === null ? found : better(best, found)
  }
  const endRun = () => {
    if (run.length > 0) take(new Set([run]))
    run = ''
  }
  for (const item of items) {
    if (item.kind === 'char' && ASCII_PRINTABLE.test(item.char)) {
      run += item.char.toLowerCase()
      continue
    }
    endRun()
    if (item.kind === 'group') take(required(item.branches))
    else if (item.kind === 'repeat' && item.min >= 1) take(item.node.kind === 'group' ? required(item.node.branches) : requiredOfSequence([item.node]))
  }
  endRun()
  return best
}

/** The literal strings one of which every match of `pattern` contains, as keys; `null` when none can be told. */
export function requiredText(pattern: RegExp): RequiredText {
  if (!pattern.unicode || /[vgy]/.test(pattern.flags)) return null
  const reader = new SourceReader(pattern.source)
  const branches = reader.alternation()
  if (!reader.done()) throw new Error(`unread source at the end of ${pattern.source}`)
  return required(branches)
}

let lastText: string | undefined
let lastKey = ''

/** The text by the keys of word-presence.ts, character by character; the last text's is kept (every pattern asks in turn). */
export function textKey(text: string): string {
  if (text !== lastText) {
    lastKey = wordKey(text)
    lastText = text
  }
  return lastKey
}

/**
 * Every expression `prefiltered` has been given a requirement for (the tests hold each to its expression): the
 * modules' own expressions, made once when they load.
 */
const PREFILTERED = new Set<RegExp>()
export const prefilteredPatterns = (): RegExp[] => [...PREFILTERED]

/** `pattern`, tried only on texts that hold one of the strings it requires. */
export function prefiltered(pattern: RegExp): { test(text: string): boolean; exec(text: string): RegExpExecArray | null } {
  const strings = requiredText(pattern)
  if (strings === null) return pattern
  PREFILTERED.add(pattern)
  const list = [...strings]
  const mayMatch = (text: string) => {
    const key = textKey(text)
    return list.some((s) => key.includes(s))
  }
  return {
    test: (text) => mayMatch(text) && pattern.test(text),
    exec: (text) => (mayMatch(text) ? pattern.exec(text) : null),
  }
}
