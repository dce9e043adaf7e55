/** Browser entry point: Transformer2DModel over fetch and onnxruntime-web (WebGPU, else WASM). */
import type { CheckpointFiles, CheckpointOptions, RandomAccessFile } from './checkpoint'
import { hubFiles, type HubLoadOptions, type WeightStore } from './hub'
import { Transformer2DModelBase, type ModelOptions } from './model'
import type { InferenceRuntime } from './runtime/types'
import { webRuntime, type WebRuntimeOptions } from './runtime/web'
import { weightCache, type DownloadProgress } from './weight-cache'

/**
 * A folder served at `baseUrl` (config.json + safetensors). With a `store`, weight files go through it (downloaded
 * once, read by range); the server's ETag (else Last-Modified) identifies a file's content.
 */
export function urlFiles(baseUrl: string, store?: WeightStore): CheckpointFiles {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`
  const files: CheckpointFiles = {
    location: baseUrl,
    async readBytes(name) {
      const response = await fetch(`${base}${name}`)
      if (response.status === 404) return null
      if (!response.ok) throw new Error(`GET ${base}${name}: HTTP ${response.status}`)
      return new Uint8Array(await response.arrayBuffer())
    },
  }
  if (store) {
    files.open = async (name): Promise<RandomAccessFile | null> => {
      const url = `${base}${name}`
      const head = await fetch(url, { method: 'HEAD' })
      if (head.status === 404) return null
      if (!head.ok) throw new Error(`HEAD ${url}: HTTP ${head.status}`)
      const size = Number(head.headers.get('Content-Length'))
      const etag = head.headers.get('ETag') ?? `${head.headers.get('Last-Modified') ?? 'unversioned'}:${size}`
      return store.open({ url, name, etag, size }, async () => {
        const response = await fetch(url)
        if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`)
        return response
      })
    }
  }
  return files
}

export interface BrowserWeightOptions {
  /** Keep weight files in the Cache API and read them from there next time (default true). */
  cache?: boolean
  /** Download progress of each weight file (also called once for a file read from the cache). */
  onProgress?: (progress: DownloadProgress) => void
}

export type BrowserLoadOptions = ModelOptions &
  CheckpointOptions &
  WebRuntimeOptions &
  HubLoadOptions &
  BrowserWeightOptions & {
    /** A runtime from `webRuntime` (to read its device, precision and `gpuWeights` counters); default: one made from these options. */
    runtime?: InferenceRuntime
  }

export class Transformer2DModel extends Transformer2DModelBase {
  /**
   * Loads a diffusers model: with `hubUrl`, `nameOrUrl` is a repo id on that hub (`revision`, `subfolder`,
   * `accessToken`); otherwise a folder served at that URL (config.json + safetensors). The weights are checked
   * against the device (WebAssembly's 4 GiB, the WebGPU adapter's buffer limit) after config.json and before any
   * weight file is downloaded; weight files stream into the Cache API with `onProgress` and are read from there. On
   * WebGPU the model computes in float16 where the adapter has shader-f16 (`browserPrecision`), else float32.
   */
  static async fromPretrained(nameOrUrl: string, options: BrowserLoadOptions = {}): Promise<Transformer2DModel> {
    const store = weightCache({ onProgress: options.onProgress, cacheName: options.cache === false ? null : undefined })
    const files = options.hubUrl !== undefined ? hubFiles(nameOrUrl, options, store) : urlFiles(nameOrUrl, store)
    return Transformer2DModel.fromFiles(files, options.runtime ?? (await webRuntime(options)), options)
  }

  /** Loads an .onnx file written by `exportOnnx` (or `npm run t2d:export`) from `url`. */
  static async fromOnnxUrl(url: string, options: ModelOptions & WebRuntimeOptions = {}): Promise<Transformer2DModel> {
    const response = await fetch(url)
    if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`)
    return Transformer2DModel.fromOnnx(new Uint8Array(await response.arrayBuffer()), await webRuntime(options), options)
  }
}

export { webRuntime, webGpuAdapter, type GpuWeightStats, type WebRuntimeOptions } from './runtime/web'
export { clearWeightCache, weightCache, WEIGHT_CACHE_NAME, type DownloadProgress, type WeightCacheOptions } from './weight-cache'
export * from './index'
