// The import rules of the code's shape (README, Architecture): checked on the source text, so a
// change that breaks one fails here with the files that do.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

type Import = { file: string; target: string }

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return file === path.join('lib', 'generated') ? [] : sourceFiles(file)
    return /\.(ts|tsx)$/.test(entry.name) ? [file] : []
  })
}

function importsOf(dir: string): Import[] {
  return sourceFiles(dir).flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'@\/([^']+)'/g)].map((m) => ({ file, target: m[1]! })),
  )
}

/** lib/oauth/grants/x.ts -> oauth; lib/ratelimit.ts -> ratelimit */
const libArea = (p: string) => p.split('/')[1]!.replace(/\.tsx?$/, '')

describe('the import graph', () => {
  it('has no two areas of lib/ importing each other', () => {
    const edges = new Map<string, Set<string>>()
    for (const { file, target } of importsOf('lib')) {
      if (!target.startsWith('lib/')) continue
      const from = libArea(file)
      const to = libArea(target)
      if (from === to || to === 'generated') continue
      if (!edges.has(from)) edges.set(from, new Set())
      edges.get(from)!.add(to)
    }
    const mutual = [...edges].flatMap(([from, tos]) => [...tos].filter((to) => edges.get(to)?.has(from) && from < to).map((to) => `${from} <-> ${to}`))
    expect(mutual).toEqual([])
  })

  it('keeps lib/ from importing app/ and components/', () => {
    const upward = importsOf('lib').filter(({ target }) => target.startsWith('app/') || target.startsWith('components/'))
    expect(upward).toEqual([])
  })
})
