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

  it('keeps components/ from importing app/ (pages pass server actions down as props)', () => {
    expect(importsOf('components').filter(({ target }) => target.startsWith('app/'))).toEqual([])
  })

  it('keeps pages, actions, route handlers and components away from the database (they ask lib/)', () => {
    const direct = [...importsOf('app'), ...importsOf('components')].filter(({ target }) => target === 'lib/db' || target.startsWith('lib/db/') || target.startsWith('lib/generated'))
    expect(direct).toEqual([])
  })

  it('keeps lib/ from importing app/ and components/', () => {
    const upward = importsOf('lib').filter(({ target }) => target.startsWith('app/') || target.startsWith('components/'))
    expect(upward).toEqual([])
  })
})

/** Resolves an import of `from` to a project file, or null for a package. */
function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? path.join(path.dirname(from), spec) : null
  if (base === null) return null
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.normalize(candidate)
  }
  return null
}

/**
 * Every project file a browser module pulls into its bundle: type-only imports never reach a
 * bundle, and server actions ('use server') are called over the network, so neither is followed.
 */
function bundleClosure(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[entry, [entry]]])
  const queue = [entry]
  while (queue.length) {
    const file = queue.shift()!
    const source = fs.readFileSync(file, 'utf8')
    if (file !== entry && /^['"]use server['"]/m.test(source)) continue
    for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      const target = resolveImport(file, m[1]!)
      if (target && !seen.has(target)) {
        seen.set(target, [...seen.get(file)!, target])
        queue.push(target)
      }
    }
  }
  return seen
}

describe('browser code', () => {
  const clientEntries = ['app', 'components', 'lib'].flatMap(sourceFiles).filter((f) => /^['"]use client['"]/m.test(fs.readFileSync(f, 'utf8')))

  it('is found (the check below has something to check)', () => {
    expect(clientEntries.length).toBeGreaterThan(0)
  })

  it('never pulls in a server-only module (the database, Node built-ins, the server runtimes)', () => {
    const serverOnly = /(^|\n)\s*import[^\n]*['"](node:[a-z_/]+|fs|path|crypto|onnxruntime-node|next-auth|@\/lib\/db|@\/lib\/generated\/[^'"]*)['"]/
    const leaks: string[] = []
    for (const entry of clientEntries) {
      for (const [file, chain] of bundleClosure(entry)) {
        const source = fs.readFileSync(file, 'utf8')
        if (/^['"]use server['"]/m.test(source)) continue
        if (serverOnly.test(source)) leaks.push(chain.join(' -> '))
      }
    }
    expect(leaks).toEqual([])
  })
})

/** A route handler reading the web body of its request itself. */
const DIRECT_BODY_READ = /\b(?:request|req)\s*\.\s*(?:json|text|formData|arrayBuffer|blob|body)\b/

describe('request bodies', () => {
  // npm start's fast path (scripts/front.ts) hands route handlers a Request whose body is the
  // connection's own stream, attached for lib/http/body to read: a handler reading the web body
  // itself would find none there, where next start gives it one.
  it('are read only through lib/http/body', () => {
    const readers = ['app', 'lib']
      .flatMap(sourceFiles)
      .filter((file) => file !== path.join('lib', 'http', 'body.ts'))
      .filter((file) => !/^['"]use client['"]/m.test(fs.readFileSync(file, 'utf8')))
      .filter((file) => DIRECT_BODY_READ.test(fs.readFileSync(file, 'utf8')))
    expect(readers).toEqual([])
  })

  it('the rule above catches the direct reads it is for', () => {
    for (const read of ['await request.json()', 'await req.formData()', 'request.body?.getReader()', 'await request .text()']) expect(DIRECT_BODY_READ.test(read)).toBe(true)
    expect(DIRECT_BODY_READ.test('await readBoundedText(request, max)')).toBe(false)
  })
})

/** The methods a route file exports by name: declarations, destructured and re-exported names. */
function exportedMethods(source: string): string[] {
  const names = [...source.matchAll(/^export\s+(?:const|async function|function)\s+([A-Z]+)\b/gm)].map((m) => m[1]!)
  for (const m of source.matchAll(/^export\s+(?:const\s+)?\{([^}]*)\}/gm)) names.push(...m[1]!.split(',').map((n) => n.trim()).filter(Boolean))
  return names.filter((name) => /^[A-Z]+$/.test(name))
}

describe('route handlers', () => {
  // Next answers a method a route does not export with a bare 405 (no body, no Allow header) and
  // lists every exported method in its automatic OPTIONS: each route exports every method, the ones
  // it does not serve from refuseOtherMethods (lib/http/methods.ts), which names the served ones.
  const routes = sourceFiles('app').filter((file) => path.basename(file) === 'route.ts')

  it('are found (the checks below have something to check)', () => {
    expect(routes.length).toBeGreaterThan(30)
  })

  it('export every method, served or refused (HEAD comes from GET)', () => {
    const lacking = routes.flatMap((file) => {
      const methods = new Set(exportedMethods(fs.readFileSync(file, 'utf8')))
      const wanted = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', ...(methods.has('GET') ? [] : ['HEAD'])]
      return wanted.filter((method) => !methods.has(method)).map((method) => `${file}: ${method}`)
    })
    expect(lacking).toEqual([])
  })

  it('refuse exactly the methods they do not serve, so Allow names the served ones', () => {
    const wrong = routes.flatMap((file) => {
      const source = fs.readFileSync(file, 'utf8')
      const call = source.match(/^export const \{([^}]*)\} = refuseOtherMethods\(\[([^\]]*)\]/m)
      if (!call) return []
      const refused = call[1]!.split(',').map((n) => n.trim())
      const served = call[2]!.split(',').map((n) => n.trim().replace(/'/g, ''))
      const declared = exportedMethods(source).filter((name) => !refused.includes(name))
      const problems = []
      if (declared.sort().join() !== [...served].sort().join()) problems.push(`${file}: serves ${declared} but declares ${served}`)
      if (refused.some((name) => served.includes(name))) problems.push(`${file}: refuses a method it serves`)
      if (served.includes('GET') && refused.includes('HEAD')) problems.push(`${file}: refuses HEAD, which Next answers from GET`)
      return problems
    })
    expect(wrong).toEqual([])
  })
})
