'use client'

import { useEffect, useRef, useState } from 'react'
import type { CheckpointFiles, FloatTensor, ForwardArgs, TensorLike } from '@/lib/transformer2d'
import { Transformer2DModel, webRuntime } from '@/lib/transformer2d/browser'
import { demoInputs } from './demo-inputs'
import { classMap, sampleToImage } from './render'

/** The demo models under public/models/transformer2d/ and the input size each runs at. */
const DEMOS = {
  continuous: { folder: '/models/transformer2d/continuous', size: 32, label: 'Continuous (latent image in, image out)' },
  discrete: { folder: '/models/transformer2d/discrete', size: 16, label: 'Discrete (VQ latent pixels in, class log-probabilities out)' },
} as const
type DemoName = keyof typeof DEMOS

interface RunResult {
  device: string
  loadMs: number
  forwardMs: number
  dims: readonly number[]
}

/** A tensor passed in from a test process: raw little-endian bytes, base64. */
export interface SerializedTensor {
  type: 'float32' | 'int64' | 'bool'
  dims: number[]
  base64: string
}

export interface ReplayRequest {
  config: Record<string, unknown>
  /** The checkpoint as safetensors bytes, base64. */
  weights: string
  args: Record<string, SerializedTensor | Record<string, SerializedTensor> | number | boolean>
}

declare global {
  interface Window {
    /** Runs a model given by config + weights on WASM; used by the end-to-end test to replay golden cases. */
    transformer2dReplay?: (request: ReplayRequest) => Promise<{ dims: number[]; data: number[] }>
  }
}

function bytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
}

function tensor(t: SerializedTensor): TensorLike {
  const raw = bytes(t.base64).buffer
  const data = t.type === 'float32' ? new Float32Array(raw) : t.type === 'int64' ? new BigInt64Array(raw) : new Uint8Array(raw)
  return { data, dims: t.dims, type: t.type }
}

function isTensor(value: unknown): value is SerializedTensor {
  return typeof value === 'object' && value !== null && 'base64' in value
}

async function replay(request: ReplayRequest): Promise<{ dims: number[]; data: number[] }> {
  const files: CheckpointFiles = {
    location: 'replay',
    readBytes: async (name) =>
      name === 'config.json' ? new TextEncoder().encode(JSON.stringify(request.config)) : name === 'diffusion_pytorch_model.safetensors' ? bytes(request.weights) : null,
  }
  const model = await Transformer2DModel.fromFiles(files, await webRuntime({ device: 'wasm' }))
  const args = Object.fromEntries(
    Object.entries(request.args).map(([key, value]) => [
      key,
      isTensor(value) ? tensor(value) : typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tensor(v)])) : value,
    ]),
  ) as unknown as ForwardArgs
  const result = await model.forward({ ...args, return_dict: false })
  await model.dispose()
  return { dims: [...result[0].dims], data: Array.from(result[0].data) }
}

export function Transformer2DDemo() {
  const [demo, setDemo] = useState<DemoName>('continuous')
  const [status, setStatus] = useState<'idle' | 'running' | 'done' | 'error'>('idle')
  const [error, setError] = useState<string | null>(null)
  const [result, setResult] = useState<RunResult | null>(null)
  const canvas = useRef<HTMLCanvasElement>(null)

  useEffect(() => {
    window.transformer2dReplay = replay
    return () => {
      delete window.transformer2dReplay
    }
  }, [])

  async function run() {
    setStatus('running')
    setError(null)
    setResult(null)
    try {
      const { folder, size } = DEMOS[demo]
      const loadStart = performance.now()
      const model = await Transformer2DModel.fromPretrained(folder)
      const loadMs = performance.now() - loadStart
      const forwardStart = performance.now()
      const output = await model.forward({ ...demoInputs(model.config, size), return_dict: true })
      const forwardMs = performance.now() - forwardStart
      const sample: FloatTensor = output.sample
      const image = model.resolved.mode === 'vectorized' ? classMap(sample, size) : sampleToImage(sample)
      const target = canvas.current!
      target.width = image.width
      target.height = image.height
      target.getContext('2d')!.putImageData(image, 0, 0)
      setResult({ device: model.runtime.device, loadMs, forwardMs, dims: sample.dims })
      await model.dispose()
      setStatus('done')
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
      setStatus('error')
    }
  }

  return (
    <section className="mt-6 space-y-4" aria-label="Demo">
      <fieldset className="flex flex-wrap gap-4">
        <legend className="sr-only">Model</legend>
        {(Object.keys(DEMOS) as DemoName[]).map((name) => (
          <label key={name} className="flex items-center gap-2 text-sm">
            <input type="radio" name="demo" value={name} checked={demo === name} onChange={() => setDemo(name)} />
            {DEMOS[name].label}
          </label>
        ))}
      </fieldset>
      <button type="button" className="btn-primary" onClick={run} disabled={status === 'running'}>
        {status === 'running' ? 'Running…' : 'Run forward'}
      </button>
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
      <canvas
        ref={canvas}
        aria-label={result ? `${demo === 'discrete' ? 'Class map' : 'Output image'} of the forward pass` : 'Output appears here'}
        className="h-64 w-64 rounded border border-slate-200"
        style={{ imageRendering: 'pixelated' }}
      />
      {result && (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="t2d-result">
          <dt className="text-slate-500">Device</dt>
          <dd data-testid="t2d-device">{result.device}</dd>
          <dt className="text-slate-500">Load + graph build</dt>
          <dd>{result.loadMs.toFixed(0)} ms</dd>
          <dt className="text-slate-500">Forward</dt>
          <dd data-testid="t2d-forward-ms">{result.forwardMs.toFixed(1)} ms</dd>
          <dt className="text-slate-500">Output shape</dt>
          <dd data-testid="t2d-dims">[{result.dims.join(', ')}]</dd>
        </dl>
      )}
    </section>
  )
}
