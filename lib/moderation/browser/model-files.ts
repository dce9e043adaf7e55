/**
 * Downloads the files a check needs (the offline engines' graphs and JSON files, the two
 * onnxruntime-web WebAssembly runtimes; the neural models' files go through transformers.js's
 * loader into the same Cache API cache, see transformers.ts) from the hub itself, with per-file progress, cancellation and the Cache API: a file already in the
 * cache is read from there, so a reload needs no model request at all. A model file's URL names
 * its repo's commit (/<repo>/resolve/<commit>/<path>) and the runtime binary's carries a version,
 * so a changed file is a new cache entry.
 */

/** A file the browser may fetch, as the server lists it. */
export type ModelFile = {
  /** Same-origin URL, including its `?v=` version. */
  url: string
  /** Shown in the progress list, e.g. "prompt-injection.onnx". */
  name: string
  /** Bytes, as the server saw them; the progress total when the response has no length. */
  size: number
}

export type FileProgress = {
  url: string
  name: string
  loaded: number
  total: number
  /** Bytes per second over the download so far; 0 for a cached file. */
  bytesPerSecond: number
  source: 'network' | 'cache'
  done: boolean
}

export type ProgressListener = (progress: FileProgress) => void

export const MODEL_CACHE_NAME = 'modhub-models-v1'

/** The URL without its version: older versions of the same file are dropped when a new one is stored. */
function unversioned(url: string): string {
  const parsed = new URL(url, location.href)
  parsed.searchParams.delete('v')
  return parsed.href
}

async function openCache(): Promise<Cache | null> {
  // The Cache API exists only in secure contexts (https, localhost); elsewhere files are simply fetched.
  if (typeof caches === 'undefined') return null
  try {
    return await caches.open(MODEL_CACHE_NAME)
  } catch {
    return null
  }
}

async function readWithProgress(response: Response, file: ModelFile, signal: AbortSignal, onProgress: ProgressListener): Promise<Uint8Array> {
  const total = Number(response.headers.get('Content-Length')) || file.size
  const reader = response.body!.getReader()
  const chunks: Uint8Array[] = []
  let loaded = 0
  const started = performance.now()
  const report = (done: boolean) => {
    const seconds = (performance.now() - started) / 1000
    onProgress({ url: file.url, name: file.name, loaded, total, bytesPerSecond: seconds > 0 ? loaded / seconds : 0, source: 'network', done })
  }
  const abort = () => void reader.cancel().catch(() => undefined)
  signal.addEventListener('abort', abort, { once: true })
  try {
    for (;;) {
      const { done, value } = await reader.read()
      signal.throwIfAborted()
      if (done) break
      chunks.push(value)
      loaded += value.byteLength
      report(false)
    }
  } finally {
    signal.removeEventListener('abort', abort)
  }
  const bytes = new Uint8Array(loaded)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  report(true)
  return bytes
}

async function store(cache: Cache, file: ModelFile, bytes: Uint8Array, contentType: string | null): Promise<void> {
  const base = unversioned(file.url)
  for (const request of await cache.keys()) {
    if (request.url !== new URL(file.url, location.href).href && unversioned(request.url) === base) await cache.delete(request)
  }
  const headers = { 'Content-Type': contentType ?? 'application/octet-stream', 'Content-Length': String(bytes.byteLength) }
  await cache.put(file.url, new Response(bytes.slice().buffer, { headers }))
}

/** The file's bytes from the cache, else from the hub (then cached). Rejects with an AbortError when `signal` fires. */
export async function fetchModelFile(file: ModelFile, signal: AbortSignal, onProgress: ProgressListener): Promise<Uint8Array> {
  signal.throwIfAborted()
  const cache = await openCache()
  const cached = await cache?.match(file.url)
  if (cached) {
    const bytes = new Uint8Array(await cached.arrayBuffer())
    onProgress({ url: file.url, name: file.name, loaded: bytes.byteLength, total: bytes.byteLength, bytesPerSecond: 0, source: 'cache', done: true })
    return bytes
  }
  // The Cache API is this file's cache; the HTTP cache would only keep a second copy.
  const response = await fetch(file.url, { signal, cache: 'no-store' })
  if (!response.ok || !response.body) throw new Error(`${file.name}: HTTP ${response.status}`)
  const bytes = await readWithProgress(response, file, signal, onProgress)
  if (cache) await store(cache, file, bytes, response.headers.get('Content-Type')).catch(() => undefined)
  return bytes
}

export async function fetchModelJson<T>(file: ModelFile, signal: AbortSignal, onProgress: ProgressListener): Promise<T> {
  return JSON.parse(new TextDecoder().decode(await fetchModelFile(file, signal, onProgress))) as T
}

/** Empties the model cache (the page's "clear cache" button and the caching test). */
export async function clearModelCache(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(MODEL_CACHE_NAME)
}
