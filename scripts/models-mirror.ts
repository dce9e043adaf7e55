/**
 * `npm run models:pull -- --into <namespace> [model ...]`: mirror models from another Hugging Face
 * compatible hub (huggingface.co, or another ModHub) into model repos on this hub, through
 * @huggingface/hub on both sides, so that one connected machine feeds an offline install.
 *
 *   HF_ENDPOINT    the hub to read from (default https://huggingface.co); HF_TOKEN its token (optional)
 *   MODHUB_URL     this hub (default http://localhost:3000); MODHUB_TOKEN a write token of it
 *
 * A model is a moderation check's name, optionally `check@revision` (its manifest's ONNX export,
 * mirrored into the transformers.js layout the moderation engines read, as `<namespace>/<model name>`) or a repo id
 * `owner/name[@revision]` (every file of that revision, as `<namespace>/<name>`). The source revision
 * is resolved to its commit first, so every file comes from one commit, which the mirror's commit
 * message names. Each downloaded file is checked against the source's digest (the LFS sha256 or the
 * git blob id) and its size before anything is uploaded; after the upload the mirror's own listing
 * must show the same digests. The mirror repo is created when missing (private unless --public).
 */
import { createHash } from 'node:crypto'
import { createRepo, downloadFile, listFiles, modelInfo, uploadFiles, type RepoDesignation } from '@huggingface/hub'
import { isNeuralCheck, MODEL_MANIFEST, type ModelEntry } from '../lib/moderation/runtime/manifest'

export type HubEndpoint = { hubUrl: string; accessToken?: string }

export type MirrorOptions = {
  from: HubEndpoint
  /** Writing needs a token of this hub that may create repos in `into` and commit to them. */
  to: HubEndpoint & { accessToken: string }
  /** The namespace (a user or an organization of this hub) the mirror repo goes into. */
  into: string
  /** A check name (manifest) or `owner/name[@revision]`. */
  model: string
  /** Create the mirror repo public (default private). */
  public?: boolean
  log?: (line: string) => void
}

export type MirrorResult = { repo: string; source: string; sourceCommit: string; commit: string | null; files: { path: string; size: number; sha256: string }[] }

export class MirrorError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MirrorError'
  }
}

type Plan = { sourceRepo: string; revision: string; name: string; files: { source: string; target: string }[] | 'all' }

const REPO = /^([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)$/

function plan(model: string): Plan {
  const at = model.indexOf('@')
  const id = at < 0 ? model : model.slice(0, at)
  const revision = at < 0 ? null : model.slice(at + 1) || 'main'
  if (isNeuralCheck(id)) {
    const entry: ModelEntry = MODEL_MANIFEST[id]
    return {
      sourceRepo: entry.source.repo,
      // The manifest pins the export's commit; `check@revision` reads another (a mirror hub's own commits differ).
      revision: revision ?? entry.source.revision,
      name: entry.id.split('/').pop()!,
      files: entry.files.map((f) => ({ source: f.source, target: f.target })),
    }
  }
  const match = REPO.exec(id)
  if (!match) throw new MirrorError(`${model}: neither a check name (${Object.keys(MODEL_MANIFEST).join(', ')}) nor a repo id owner/name[@revision]`)
  return { sourceRepo: id, revision: revision ?? 'main', name: match[2]!, files: 'all' }
}

const gitBlobId = (content: Buffer) => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex')
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex')

/** Mirrors one model into `<into>/<name>` on `to`; answers what was committed. */
export async function mirrorModel(options: MirrorOptions): Promise<MirrorResult> {
  const log = options.log ?? (() => {})
  const { sourceRepo, revision, name, files: wanted } = plan(options.model)
  const source: RepoDesignation = { type: 'model', name: sourceRepo }
  const target = `${options.into}/${name}`
  const from = { hubUrl: options.from.hubUrl, accessToken: options.from.accessToken }
  const to = { hubUrl: options.to.hubUrl, accessToken: options.to.accessToken }

  // One commit for every file, even if the branch moves while we download.
  const info = await modelInfo({ name: sourceRepo, revision, additionalFields: ['sha'], ...from }).catch((error: Error) => {
    throw new MirrorError(`${sourceRepo}@${revision} on ${from.hubUrl}: ${error.message}`)
  })
  const commit = info.sha
  if (!commit) throw new MirrorError(`${sourceRepo}@${revision} on ${from.hubUrl}: the hub did not say which commit it is`)
  const listing = new Map<string, { size: number; oid?: string; lfs?: { oid: string; size: number } }>()
  for await (const entry of listFiles({ repo: source, revision: commit, recursive: true, ...from })) {
    if (entry.type === 'file') listing.set(entry.path, entry)
  }
  const mapping = wanted === 'all' ? [...listing.keys()].map((p) => ({ source: p, target: p })) : wanted
  const missing = mapping.filter((f) => !listing.has(f.source)).map((f) => f.source)
  if (missing.length > 0) throw new MirrorError(`${sourceRepo}@${commit} on ${from.hubUrl}: missing ${missing.join(', ')}`)

  const blobs: { path: string; content: Blob }[] = []
  const files: MirrorResult['files'] = []
  for (const file of mapping) {
    const entry = listing.get(file.source)!
    const blob = await downloadFile({ repo: source, path: file.source, revision: commit, ...from })
    if (!blob) throw new MirrorError(`${sourceRepo}@${commit}: ${file.source} could not be downloaded`)
    const content = Buffer.from(await blob.arrayBuffer())
    const digest = sha256(content)
    const size = entry.lfs?.size ?? entry.size
    const matches = content.length === size && (entry.lfs ? digest === entry.lfs.oid : entry.oid === undefined || gitBlobId(content) === entry.oid)
    if (!matches) throw new MirrorError(`${sourceRepo}@${commit}: ${file.source} does not match the source's digest (got ${content.length} bytes, sha256 ${digest})`)
    blobs.push({ path: file.target, content: new Blob([content]) })
    files.push({ path: file.target, size: content.length, sha256: digest })
    log(`${file.source} -> ${target}/${file.target} (${content.length} bytes, sha256 ${digest.slice(0, 12)}…)`)
  }

  try {
    await createRepo({ repo: { type: 'model', name: target }, private: !options.public, ...to })
    log(`created ${target} on ${to.hubUrl}`)
  } catch (error) {
    // Mirroring again into the same repo adds a commit.
    if (!/already|exists|409/i.test((error as Error).message)) throw new MirrorError(`${target} on ${to.hubUrl}: ${(error as Error).message}`)
  }
  const result = await uploadFiles({
    repo: { type: 'model', name: target },
    files: blobs,
    commitTitle: `Mirror ${sourceRepo}@${commit.slice(0, 12)}`,
    commitDescription: `Mirrored from ${from.hubUrl.replace(/\/$/, '')}/${sourceRepo} at commit ${commit} by \`npm run models:pull -- --into ${options.into}\`.`,
    ...to,
  })

  // The mirror must now hold what was read: its own listing, digest by digest.
  const mirrored = new Map<string, { size: number; oid?: string; lfs?: { oid: string; size: number } }>()
  for await (const entry of listFiles({ repo: { type: 'model', name: target }, recursive: true, ...to })) mirrored.set(entry.path, entry)
  for (const file of files) {
    const entry = mirrored.get(file.path)
    const ok = entry && (entry.lfs ? entry.lfs.oid === file.sha256 && entry.lfs.size === file.size : entry.size === file.size)
    if (!ok) throw new MirrorError(`${target} on ${to.hubUrl}: ${file.path} is not what was uploaded`)
  }
  return { repo: target, source: `${sourceRepo}@${revision}`, sourceCommit: commit, commit: result?.commit.oid ?? null, files }
}
