/**
 * A diffusers checkpoint in a Hub repository (this hub, or any Hugging Face-compatible one), read
 * over HTTP from its `/resolve/` URLs: `fromPretrained('namespace/name', { hubUrl, revision, subfolder,
 * variant, accessToken })` in Node and the browser. fetch only, so both entry points share it; the
 * checkpoint layer picks the files (single, sharded with its index, variants) as for a folder.
 */
import type { CheckpointFiles, RandomAccessFile } from './checkpoint'
import { Transformer2DError } from './errors'

export interface HubLoadOptions {
  /** The hub's origin (default https://huggingface.co, as diffusers). */
  hubUrl?: string
  /** A branch, tag or commit (default `main`). */
  revision?: string
  /** The model's folder inside the repo, e.g. `transformer` in a pipeline repo. */
  subfolder?: string
  /** A token that may read the repo (private and gated repos). */
  accessToken?: string
}

/** One weight file to keep: where it is, its name for progress, and what identifies its content (the hub's ETag). */
export interface StoredFile {
  url: string
  name: string
  etag: string
  size: number
}

/**
 * Keeps downloaded weight files (in the browser, the Cache API: `weight-cache.ts`): `open` answers the file's bytes
 * by range from the kept copy, downloading it once (with `download`) when none is kept.
 */
export interface WeightStore {
  open(file: StoredFile, download: () => Promise<Response>): Promise<RandomAccessFile>
}

/** Weight files up to this size are fetched in one request and read from memory; larger ones in ranges. */
const WHOLE_FILE_BYTES = 256 * 1024 ** 2

const REPO_ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/

/** Whether `name` reads as a Hub repo id (`namespace/name`) rather than a path or URL. */
export function isRepoId(name: string): boolean {
  return REPO_ID.test(name)
}

/**
 * Files of `repoId` at `revision`, read from the hub with the token if given. With a `store`, weight files are
 * downloaded whole into it once (keyed by their ETag, the LFS sha256) and read from there; without one, large files
 * are read in HTTP ranges, tensor by tensor.
 */
export function hubFiles(repoId: string, options: HubLoadOptions = {}, store?: WeightStore): CheckpointFiles {
  if (!isRepoId(repoId)) throw new Transformer2DError('checkpoint', `"${repoId}" is not a repo id (namespace/name).`)
  const hubUrl = (options.hubUrl ?? 'https://huggingface.co').replace(/\/+$/, '')
  const revision = encodeURIComponent(options.revision ?? 'main')
  const folder = options.subfolder ? `${options.subfolder.replace(/^\/+|\/+$/g, '')}/` : ''
  const base = `${hubUrl}/${repoId}/resolve/${revision}/${folder}`
  const location = `${repoId}@${options.revision ?? 'main'}${folder ? `/${folder.slice(0, -1)}` : ''}`
  const headers: Record<string, string> = options.accessToken ? { Authorization: `Bearer ${options.accessToken}` } : {}

  async function get(name: string, range?: { start: number; length: number }): Promise<Response | null> {
    const response = await fetch(`${base}${name}`, {
      headers: range ? { ...headers, Range: `bytes=${range.start}-${range.start + range.length - 1}` } : headers,
    })
    // The Hub answers a missing file (or revision) with 404 and an X-Error-Code; a missing file is absent, as on disk.
    if (response.status === 404 && response.headers.get('X-Error-Code') === 'EntryNotFound') return null
    if (!response.ok) {
      const body = (await response.text().catch(() => '')).slice(0, 300)
      // The hub's {"error": "…"} said in words, not as JSON (a page shows this message as it is).
      let detail = body
      try {
        const parsed = JSON.parse(body) as { error?: unknown }
        if (typeof parsed.error === 'string') detail = parsed.error
      } catch {
        // Not JSON: its text, as it came.
      }
      const why =
        response.status === 401 || response.status === 403
          ? 'no read access: the repo is private or gated (sign in, or pass an accessToken, as someone who may read it)'
          : response.status === 404
            ? 'the repo or revision does not exist, or you may not read it'
            : `HTTP ${response.status}`
      throw new Transformer2DError('checkpoint', `${location}: ${name}: ${why}${detail ? ` (${detail})` : ''}.`)
    }
    return response
  }

  return {
    location,
    async readBytes(name) {
      const response = await get(name)
      return response && new Uint8Array(await response.arrayBuffer())
    },
    // Large weight files are read in ranges, as from a file on disk: only the tensors the graph needs travel.
    async open(name): Promise<RandomAccessFile | null> {
      const head = await get(name, { start: 0, length: 1 })
      if (!head) return null
      await head.arrayBuffer()
      const size = Number(head.headers.get('Content-Range')?.split('/')[1] ?? head.headers.get('Content-Length'))
      if (!Number.isFinite(size)) throw new Transformer2DError('checkpoint', `${location}: ${name}: the hub did not say the file's size.`)
      if (store) {
        // Without an ETag the commit names the content: a file at one commit never changes.
        const etag = head.headers.get('ETag') ?? `${head.headers.get('X-Repo-Commit') ?? options.revision ?? 'main'}:${name}`
        return store.open({ url: `${base}${name}`, name, etag, size }, async () => (await get(name))!)
      }
      if (size <= WHOLE_FILE_BYTES) {
        const whole = new Uint8Array(await (await get(name))!.arrayBuffer())
        return { size: whole.length, read: async (offset, length) => whole.slice(offset, offset + length), close: async () => undefined }
      }
      return {
        size,
        async read(offset, length) {
          if (length === 0) return new Uint8Array(0)
          const response = await get(name, { start: offset, length })
          const bytes = new Uint8Array(await response!.arrayBuffer())
          if (bytes.length !== length) {
            throw new Transformer2DError('checkpoint', `${location}: ${name}: asked for ${length} bytes at ${offset}, got ${bytes.length}; the file changed while loading.`)
          }
          return bytes
        },
        close: async () => undefined,
      }
    },
  }
}
