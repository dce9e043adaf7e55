/**
 * The browser's weight store: each weight file streams once from the network into the Cache API, with progress, and
 * is read from there tensor by tensor (a Blob over the cached body: Chromium keeps it on disk, so a 1.2 GB checkpoint
 * is never in the page's memory as file bytes, only as the float32 weights the model keeps). Entries are keyed by
 * URL and ETag, so a changed file is a new download and its older copy is dropped.
 */
import type { RandomAccessFile } from './checkpoint'
import { Transformer2DError } from './errors'
import type { StoredFile, WeightStore } from './hub'

export interface DownloadProgress {
  /** The file's name, e.g. `diffusion_pytorch_model.fp16-00001-of-00003.safetensors`. */
  name: string
  loaded: number
  total: number
  /** Read from the cache (no download), or downloaded. */
  source: 'cache' | 'network'
  done: boolean
}

export interface WeightCacheOptions {
  /** Cache API cache name (default `transformer2d-weights`); null keeps nothing (each load downloads again). */
  cacheName?: string | null
  onProgress?: (progress: DownloadProgress) => void
}

export const WEIGHT_CACHE_NAME = 'transformer2d-weights'

async function openCache(name: string | null): Promise<Cache | null> {
  if (name === null) return null
  // The Cache API exists only in secure contexts (https, localhost); elsewhere files are downloaded each time.
  if (typeof caches === 'undefined') return null
  try {
    return await caches.open(name)
  } catch {
    return null
  }
}

function cacheKey(file: StoredFile): string {
  const url = new URL(file.url, globalThis.location?.href)
  url.searchParams.set('etag', file.etag)
  return url.href
}

/** The body, counted: progress at most every 0.5% of the file (and at the end), so a page re-renders a few hundred times. */
function counted(body: ReadableStream<Uint8Array>, file: StoredFile, onProgress?: (p: DownloadProgress) => void): ReadableStream<Uint8Array> {
  let loaded = 0
  let reported = 0
  const step = Math.max(1, Math.floor(file.size / 200))
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        loaded += chunk.byteLength
        if (loaded - reported >= step) {
          reported = loaded
          onProgress?.({ name: file.name, loaded, total: file.size, source: 'network', done: false })
        }
        controller.enqueue(chunk)
      },
      flush() {
        onProgress?.({ name: file.name, loaded, total: file.size, source: 'network', done: true })
      },
    }),
  )
}

function blobFile(blob: Blob): RandomAccessFile {
  return {
    size: blob.size,
    read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
    close: async () => undefined,
  }
}

async function dropOlderCopies(cache: Cache, key: string): Promise<void> {
  const base = new URL(key)
  base.searchParams.delete('etag')
  for (const request of await cache.keys()) {
    const other = new URL(request.url)
    other.searchParams.delete('etag')
    if (request.url !== key && other.href === base.href) await cache.delete(request)
  }
}

export function weightCache(options: WeightCacheOptions = {}): WeightStore {
  const cacheName = options.cacheName === undefined ? WEIGHT_CACHE_NAME : options.cacheName
  const { onProgress } = options
  return {
    async open(file, download) {
      const cache = await openCache(cacheName)
      const key = cacheKey(file)
      const hit = await cache?.match(key)
      if (hit) {
        const blob = await hit.blob()
        // A cached copy of another size is a broken entry (an interrupted write): download it again.
        if (blob.size === file.size) {
          onProgress?.({ name: file.name, loaded: blob.size, total: file.size, source: 'cache', done: true })
          return blobFile(blob)
        }
        await cache!.delete(key)
      }
      const fetchBody = async () => {
        const response = await download()
        if (!response.body) throw new Transformer2DError('checkpoint', `${file.url}: the response has no body.`)
        return counted(response.body, file, onProgress)
      }
      let blob: Blob | null = null
      if (cache) {
        try {
          await cache.put(key, new Response(await fetchBody(), { headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(file.size) } }))
          blob = (await (await cache.match(key))?.blob()) ?? null
          await dropOlderCopies(cache, key)
        } catch (error) {
          // Over the storage quota (or storage unavailable): the file is read from a download kept in memory instead.
          if (error instanceof Transformer2DError) throw error
          await cache.delete(key).catch(() => undefined)
          blob = null
        }
      }
      blob ??= await new Response(await fetchBody()).blob()
      if (blob.size !== file.size) {
        throw new Transformer2DError('checkpoint', `${file.url}: downloaded ${blob.size} bytes, but the file is ${file.size} bytes; it changed or the download broke off.`)
      }
      return blobFile(blob)
    },
  }
}

/** Empties the weight cache. */
export async function clearWeightCache(cacheName = WEIGHT_CACHE_NAME): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(cacheName)
}
