/**
 * transformers.js configured for this hub, as it would be for the Hugging Face Hub: models load
 * with its own loader (`AutoConfig`, `AutoTokenizer`, `AutoModel`.from_pretrained) from
 * `env.remoteHost` (the hub's origin) + `env.remotePathTemplate`, into its Cache API cache (the
 * playground's, MODEL_CACHE_NAME), with its progress events, on its own onnxruntime-web.
 *
 * Two things are set up differently from its defaults, because of @huggingface/transformers 4.3.1:
 * - Every request is pinned to the commit by the template itself (`{model}/resolve/<commit>/`), not
 *   by `revision`: `AutoTokenizer.from_pretrained(id, { revision })` first probes
 *   `tokenizer_config.json` with no options, that is at `main` (get_tokenizer_files.js). The
 *   template is one global, so loads take turns (`pinned`).
 * - Its onnxruntime-web build (a newer one than the playground's own, which runs the offline
 *   graphs) would fetch its WebAssembly runtime from jsDelivr: the hub serves that exact version
 *   under /ort/<version>/ (scripts/copy-ort.mjs), fetched here with progress and the Cache API, and
 *   handed to onnxruntime as `wasmBinary` and a blob URL for its JavaScript glue.
 */
import type * as Transformers from '@huggingface/transformers'
import type { BrowserCatalog } from './catalog'
import { fetchModelFile, MODEL_CACHE_NAME, type ProgressListener } from './model-files'

export type TransformersLibrary = typeof Transformers
type Runtime = NonNullable<BrowserCatalog['transformersRuntime']>

let library: Promise<TransformersLibrary> | null = null

/** The load in progress (loads take turns): its cancellation and the URLs it fetched from the network. */
let current: { signal: AbortSignal; network: Set<string> } | null = null

/** transformers.js's requests, with the current load's cancellation; a request that is not a Range probe reads a file from the network. */
const hubFetch: typeof fetch = (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href)
  const headers = new Headers(init?.headers)
  if (current && !headers.has('Range')) current.network.add(url.pathname)
  return fetch(input, { ...init, signal: current?.signal ?? init?.signal })
}

/** Loads and configures transformers.js once; its WebAssembly runtime is downloaded (or read from the cache) with progress. */
export function loadTransformers(runtime: Runtime, signal: AbortSignal, onProgress: ProgressListener): Promise<TransformersLibrary> {
  library ??= (async () => {
    const [transformers, wasm, glue] = await Promise.all([
      import('@huggingface/transformers'),
      fetchModelFile(runtime.wasm, signal, onProgress),
      fetchModelFile(runtime.mjs, signal, onProgress),
    ])
    const { env } = transformers
    env.allowLocalModels = false
    env.allowRemoteModels = true
    env.remoteHost = location.origin
    env.useBrowserCache = true
    env.cacheKey = MODEL_CACHE_NAME
    env.fetch = hubFetch
    // The runtime is already here: transformers.js must neither fetch it (useWasmCache) nor point onnxruntime at a CDN.
    env.useWasmCache = false
    const wasmEnv = env.backends.onnx.wasm!
    // The page is not cross-origin isolated, so WebAssembly threads are unavailable anyway.
    wasmEnv.numThreads = 1
    wasmEnv.wasmBinary = wasm
    wasmEnv.wasmPaths = { wasm: new URL(runtime.wasm.url, location.href).href, mjs: URL.createObjectURL(new Blob([glue.slice().buffer], { type: 'text/javascript' })) }
    env.backends.onnx.logLevel = 'error'
    return transformers
  })()
  // A cancelled or failed load is retried from the start next time.
  library.catch(() => {
    library = null
  })
  return library
}

let turn: Promise<unknown> = Promise.resolve()

/** The pinned template for `commit`: transformers.js's `{model}/resolve/{revision}/` with the commit in place of the revision. */
export function pinnedTemplate(commit: string): string {
  return `{model}/resolve/${commit}/`
}

/**
 * Runs `load` with transformers.js's requests pinned to `commit` and cancelled by `signal`, after
 * the loads before it (the template is global). `network`: the paths it fetched from the network.
 */
export function pinned<T>(transformers: TransformersLibrary, commit: string, signal: AbortSignal, load: (network: Set<string>) => Promise<T>): Promise<T> {
  const run = async () => {
    signal.throwIfAborted()
    const network = new Set<string>()
    current = { signal, network }
    transformers.env.remotePathTemplate = pinnedTemplate(commit)
    try {
      return await load(network)
    } finally {
      current = null
    }
  }
  const result = turn.then(run, run)
  turn = result.catch(() => undefined)
  return result
}
