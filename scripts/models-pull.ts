/**
 * `npm run models:pull [check ...]`: download the moderation models of the manifest from a
 * Hugging Face compatible hub into MODELS_DIR, in the layout transformers.js reads.
 *
 *   HF_ENDPOINT  hub base URL (default https://huggingface.co); files come from
 *                {endpoint}/{repo}/resolve/{revision}/{path}
 *   HF_TOKEN     optional bearer token (never sent on to another host after a redirect)
 *   MODELS_DIR   destination (default data/models, the server's default too)
 *
 * With `--into <namespace>` it mirrors the models into repos on this hub instead (scripts/models-mirror.ts).
 *
 * Downloads go to `<file>.part` and resume from there with a Range request after an
 * interruption. Each file is checked against the manifest's sha256 (or, when the manifest has
 * none, against the hub's LFS digest `X-Linked-Etag`) before it replaces the target; a
 * mismatch deletes the partial file so the next run starts clean.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { mirrorModel } from './models-mirror'
import { isNeuralCheck, MODEL_MANIFEST, NEURAL_CHECKS, type ManifestFile, type ModelEntry, type NeuralCheck } from '../lib/moderation/runtime/manifest'
import { setting } from '../lib/config/settings'

export interface PullOptions {
  checks: NeuralCheck[]
  endpoint: string
  token?: string
  modelsDir: string
  manifest?: Record<NeuralCheck, ModelEntry>
  /** Where progress goes; bars are redrawn in place only on a TTY. */
  progress?: NodeJS.WritableStream | null
}

export interface PulledFile {
  target: string
  size: number
  sha256: string
  verifiedAgainst: 'manifest' | 'hub' | 'none'
  resumedFrom: number
}

export class ChecksumMismatchError extends Error {
  constructor(readonly file: string, readonly expected: string, readonly actual: string) {
    super(`sha256 mismatch for ${file}: expected ${expected}, got ${actual}; the partial download was removed`)
    this.name = 'ChecksumMismatchError'
  }
}

const MAX_REDIRECTS = 5

interface HubResponse {
  response: Response
  /** The LFS object's sha256 and size as the hub announces them on the resolve response. */
  linkedSha256?: string
  linkedSize?: number
}

/** GET following redirects by hand, to read the hub's X-Linked-* headers on the first hop. */
async function hubGet(url: string, headers: Record<string, string>): Promise<HubResponse> {
  let current = new URL(url)
  const origin = current.origin
  let linkedSha256: string | undefined
  let linkedSize: number | undefined
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const sendHeaders = { ...headers }
    if (current.origin !== origin) delete sendHeaders.authorization
    const response = await fetch(current, { headers: sendHeaders, redirect: 'manual' }).catch((error: unknown) => {
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
      throw new Error(`GET ${current.href}: ${reason}`, { cause: error })
    })
    const etag = response.headers.get('x-linked-etag')
    if (etag) linkedSha256 ??= etag.replace(/^W\//, '').replace(/"/g, '')
    const size = response.headers.get('x-linked-size')
    if (size) linkedSize ??= Number(size)
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel()
      current = new URL(location, current)
      continue
    }
    return { response, linkedSha256, linkedSize }
  }
  throw new Error(`too many redirects for ${url}`)
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`
  return `${(n / 1024 ** 3).toFixed(2)} GB`
}

class ProgressBar {
  private lastDraw = 0
  private readonly started = performance.now()
  private readonly tty: boolean

  constructor(private readonly out: NodeJS.WritableStream | null, private readonly label: string, private readonly total: number | null, private readonly resumedFrom: number) {
    this.tty = Boolean(out && (out as NodeJS.WriteStream).isTTY)
  }

  update(done: number, final = false): void {
    if (!this.out) return
    const now = performance.now()
    if (!final && (!this.tty || now - this.lastDraw < 100)) return
    this.lastDraw = now
    const seconds = Math.max((now - this.started) / 1000, 1e-3)
    const speed = `${formatBytes(Math.round((done - this.resumedFrom) / seconds))}/s`
    const width = 24
    const filled = this.total ? Math.min(width, Math.round((done / this.total) * width)) : 0
    const bar = this.total ? `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ` : ''
    const amount = this.total ? `${formatBytes(done)}/${formatBytes(this.total)}` : formatBytes(done)
    const line = `${this.label} ${bar}${amount} ${speed}`
    this.out.write(this.tty ? `\r\x1b[2K${line}${final ? '\n' : ''}` : `${line}\n`)
  }
}

interface PullRecord {
  id: string
  revision: string
  source: { repo: string; revision: string }
  pulledAt: string
  files: PulledFile[]
}

const RECORD_FILE = '.modhub-pull.json'

function previousPull(folder: string, entry: ModelEntry): PullRecord | null {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(folder, RECORD_FILE), 'utf8')) as PullRecord
    return record.source.repo === entry.source.repo && record.source.revision === entry.source.revision ? record : null
  } catch {
    return null
  }
}

async function pullFile(entry: ModelEntry, file: ManifestFile, options: PullOptions): Promise<PulledFile> {
  const folder = path.join(options.modelsDir, ...entry.id.split('/'))
  const target = path.join(folder, file.target)
  const partial = `${target}.part`
  fs.mkdirSync(path.dirname(target), { recursive: true })

  // Already here and intact: pinned by the manifest, or recorded by an earlier pull of this revision.
  const recorded = previousPull(folder, entry)?.files.find((f) => f.target === file.target)
  const known = file.sha256 ?? recorded?.sha256
  if (known && fs.existsSync(target) && (await sha256File(target)) === known) {
    const verifiedAgainst = file.sha256 ? 'manifest' : (recorded?.verifiedAgainst ?? 'none')
    return { target: file.target, size: fs.statSync(target).size, sha256: known, verifiedAgainst, resumedFrom: 0 }
  }

  const url = `${options.endpoint.replace(/\/+$/, '')}/${entry.source.repo}/resolve/${encodeURIComponent(entry.source.revision)}/${file.source
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  const have = fs.existsSync(partial) ? fs.statSync(partial).size : 0
  if (have > 0) headers.range = `bytes=${have}-`

  const { response, linkedSha256, linkedSize } = await hubGet(url, headers)
  let resumedFrom = 0
  if (response.status === 416) {
    // The partial file already holds every byte; it is verified below like any other.
    await response.body?.cancel()
    resumedFrom = have
  } else {
    if (!response.ok || !response.body) throw new Error(`GET ${url}: HTTP ${response.status}`)
    resumedFrom = response.status === 206 ? have : 0
    const length = Number(response.headers.get('content-length') ?? NaN)
    const total = file.size ?? linkedSize ?? (Number.isFinite(length) ? resumedFrom + length : null)
    const bar = new ProgressBar(options.progress ?? null, `${entry.check} ${file.target}`, total, resumedFrom)
    const out = fs.createWriteStream(partial, { flags: resumedFrom > 0 ? 'a' : 'w' })
    let done = resumedFrom
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
        done += chunk.byteLength
        bar.update(done)
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
    }
    bar.update(done, true)
  }

  const sha256 = await sha256File(partial)
  const expected = file.sha256 ?? linkedSha256
  if (expected && expected !== sha256) {
    fs.rmSync(partial, { force: true })
    throw new ChecksumMismatchError(`${entry.source.repo}/${file.source}`, expected, sha256)
  }
  const size = fs.statSync(partial).size
  if (file.size !== undefined && size !== file.size) {
    fs.rmSync(partial, { force: true })
    throw new Error(`size mismatch for ${entry.source.repo}/${file.source}: expected ${file.size}, got ${size}`)
  }
  fs.renameSync(partial, target)
  return { target: file.target, size, sha256, verifiedAgainst: file.sha256 ? 'manifest' : linkedSha256 ? 'hub' : 'none', resumedFrom }
}

/** Pulls every file of each requested check; returns what landed where, per check. */
export async function pullModels(options: PullOptions): Promise<Record<string, PulledFile[]>> {
  const manifest = options.manifest ?? MODEL_MANIFEST
  const results: Record<string, PulledFile[]> = {}
  for (const check of options.checks) {
    const entry = manifest[check]
    const files: PulledFile[] = []
    for (const file of entry.files) files.push(await pullFile(entry, file, options))
    const folder = path.join(options.modelsDir, ...entry.id.split('/'))
    const record: PullRecord = { id: entry.id, revision: entry.revision, source: entry.source, pulledAt: new Date().toISOString(), files }
    fs.writeFileSync(path.join(folder, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`)
    results[check] = files
  }
  return results
}

/** `--into <namespace> [--public] model ...`: mirror into repos on this hub (scripts/models-mirror.ts). */
async function mirrorMain(argv: string[]): Promise<void> {
  const at = argv.indexOf('--into')
  const into = argv[at + 1]
  const models = argv.filter((a, i) => i !== at && i !== at + 1 && a !== '--public')
  if (!into || into.startsWith('--') || models.length === 0) {
    console.error('usage: npm run models:pull -- --into <namespace> [--public] <check | owner/name[@revision]> ...')
    process.exit(2)
  }
  const accessToken = process.env.MODHUB_TOKEN
  if (!accessToken) {
    console.error('MODHUB_TOKEN must hold a write token of this hub (Settings → Access tokens)')
    process.exit(2)
  }
  const to = { hubUrl: process.env.MODHUB_URL || 'http://localhost:3000', accessToken }
  const from = { hubUrl: process.env.HF_ENDPOINT || 'https://huggingface.co', accessToken: process.env.HF_TOKEN || undefined }
  for (const model of models) {
    const result = await mirrorModel({ from, to, into, model, public: argv.includes('--public'), log: (line) => console.error(line) })
    console.log(`${result.source} (${result.sourceCommit}) -> ${to.hubUrl}/${result.repo} (commit ${result.commit})`)
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--into')) return mirrorMain(argv)
  const unknown = argv.filter((a) => !isNeuralCheck(a))
  if (unknown.length > 0) {
    console.error(`unknown check(s): ${unknown.join(', ')}; known: ${NEURAL_CHECKS.join(', ')}`)
    process.exit(2)
  }
  const checks = argv.length > 0 ? (argv as NeuralCheck[]) : [...NEURAL_CHECKS]
  const modelsDir = path.resolve(setting('MODELS_DIR'))
  const results = await pullModels({
    checks,
    endpoint: process.env.HF_ENDPOINT || 'https://huggingface.co',
    token: process.env.HF_TOKEN || undefined,
    modelsDir,
    progress: process.stderr,
  })
  for (const [check, files] of Object.entries(results)) {
    const unverified = files.filter((f) => f.verifiedAgainst === 'none').map((f) => f.target)
    console.log(`${check}: ${MODEL_MANIFEST[check as NeuralCheck].id} -> ${modelsDir}` + (unverified.length ? ` (no digest to check for ${unverified.join(', ')})` : ''))
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
