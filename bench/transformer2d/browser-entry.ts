/**
 * The browser bench's page script (bundled by browser.ts with esbuild): loads a generated checkpoint from the bench's
 * static server through the browser entry point's `fromPretrained` (fit check, weight files streamed into the Cache
 * API, weights fed as graph inputs on WASM) and times the forwards.
 */
import { Transformer2DModel, webRuntime, type GpuWeightStats } from '@/lib/transformer2d/browser'
import { forwardArgs, type Workload } from './workloads'

export interface BrowserRun {
  device: string
  /** WebGPU: the adapter's vendor and architecture (SwiftShader is Chromium's software adapter). */
  adapter: string | null
  dtype: string
  gpuWeights: GpuWeightStats
  loadSeconds: number
  forwardSeconds: number[]
  downloads: { name: string; bytes: number; source: string }[]
  dims: number[]
  finite: boolean
}

declare global {
  interface Window {
    t2dBench(w: Workload, forwards: number, options: { device: 'wasm' | 'webgpu'; gpuWeights: boolean }): Promise<BrowserRun>
    t2dLog: (message: string) => void
  }
}

window.t2dBench = async (w, forwards, { device, gpuWeights }) => {
  const downloads = new Map<string, { name: string; bytes: number; source: string }>()
  const started = performance.now()
  const runtime = await webRuntime({ device, gpuWeights })
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<{ info?: { vendor?: string; architecture?: string } } | null> } }).gpu
  const info = device === 'webgpu' ? (await gpu?.requestAdapter())?.info : null
  const model = await Transformer2DModel.fromPretrained(`/model/${w.name}`, {
    variant: w.checkpoint?.variant,
    runtime,
    onProgress: (p) => {
      if (p.done) {
        downloads.set(p.name, { name: p.name, bytes: p.total, source: p.source })
        window.t2dLog(`${p.name}: ${p.source}, ${p.total} bytes`)
      }
    },
  })
  const loadSeconds = (performance.now() - started) / 1000
  window.t2dLog(`loaded in ${loadSeconds.toFixed(1)} s`)
  const args = forwardArgs(w, model.config)
  const forwardSeconds: number[] = []
  let sample = null
  for (let i = 0; i < forwards; i++) {
    const t = performance.now()
    sample = (await model.forward({ ...args, return_dict: true })).sample
    forwardSeconds.push((performance.now() - t) / 1000)
    window.t2dLog(`forward ${i + 1}/${forwards}: ${forwardSeconds[i].toFixed(1)} s`)
  }
  await model.dispose()
  return {
    device: model.runtime.device,
    adapter: info ? `${info.vendor} ${info.architecture}` : null,
    dtype: model.dtype,
    gpuWeights: { ...runtime.gpuWeights },
    loadSeconds,
    forwardSeconds,
    downloads: [...downloads.values()],
    dims: sample ? [...sample.dims] : [],
    finite: sample ? sample.data.every(Number.isFinite) : true,
  }
}
