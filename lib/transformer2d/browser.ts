/** Browser entry point: Transformer2DModel over fetch and onnxruntime-web (WebGPU, else WASM). */
import type { CheckpointFiles, CheckpointOptions } from './checkpoint'
import { hubFiles, type HubLoadOptions } from './hub'
import { Transformer2DModelBase, type ModelOptions } from './model'
import { webRuntime, type WebRuntimeOptions } from './runtime/web'

export function urlFiles(baseUrl: string): CheckpointFiles {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`
  return {
    location: baseUrl,
    async readBytes(name) {
      const response = await fetch(`${base}${name}`)
      if (response.status === 404) return null
      if (!response.ok) throw new Error(`GET ${base}${name}: HTTP ${response.status}`)
      return new Uint8Array(await response.arrayBuffer())
    },
  }
}

export type BrowserLoadOptions = ModelOptions & CheckpointOptions & WebRuntimeOptions & HubLoadOptions

export class Transformer2DModel extends Transformer2DModelBase {
  /**
   * Loads a diffusers model: with `hubUrl`, `nameOrUrl` is a repo id on that hub (`revision`, `subfolder`,
   * `accessToken`); otherwise a folder served at that URL (config.json + safetensors).
   */
  static async fromPretrained(nameOrUrl: string, options: BrowserLoadOptions = {}): Promise<Transformer2DModel> {
    const files = options.hubUrl !== undefined ? hubFiles(nameOrUrl, options) : urlFiles(nameOrUrl)
    return Transformer2DModel.fromFiles(files, await webRuntime(options), options)
  }

  /** Loads an .onnx file written by `exportOnnx` (or `npm run t2d:export`) from `url`. */
  static async fromOnnxUrl(url: string, options: ModelOptions & WebRuntimeOptions = {}): Promise<Transformer2DModel> {
    const response = await fetch(url)
    if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`)
    return Transformer2DModel.fromOnnx(new Uint8Array(await response.arrayBuffer()), await webRuntime(options), options)
  }
}

export { webRuntime } from './runtime/web'
export * from './index'
