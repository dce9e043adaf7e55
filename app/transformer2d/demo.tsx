'use client'

import { useEffect, useRef, useState } from 'react'
import type { FloatTensor, ForwardArgs, TensorLike, Transformer2DConfig } from '@/lib/transformer2d'
import { formatBytes } from '@/lib/transformer2d'
import { Transformer2DModel, webRuntime, type DownloadProgress } from '@/lib/transformer2d/browser'
import { demoInputs } from './demo-inputs'
import { classMap, sampleToImage } from './render'
import { replayApi } from './replay'

/** The demo models: repos on this hub (seeded, diffusers layout under `transformer/`) and the input size each runs at. */
const DEMOS = {
  continuous: { repo: 'open-lab/tiny-transformer2d', size: 32, label: 'Continuous (latent image in, image out)' },
  discrete: { repo: 'open-lab/tiny-transformer2d-discrete', size: 16, label: 'Discrete (VQ latent pixels in, class log-probabilities out)' },
} as const
type DemoName = keyof typeof DEMOS
type Mode = 'browser' | 'server' | 'compare'
const MODES: Record<Mode, string> = { browser: 'Run in this browser', server: 'On the server', compare: 'Side by side' }
const SUBFOLDER = 'transformer'
const REVISION = 'main'

interface RunResult {
  device: string
  /** The browser's precision and why (the runtime's choice: float16 only on WebGPU with shader-f16). */
  precision?: { dtype: string; reason: string }
  /** WebGPU: weights uploaded once into GPU buffers at load. */
  gpuWeights?: { buffers: number; bytes: number }
  loadMs: number
  forwardMs: number
  dims: readonly number[]
  sample: FloatTensor
}

/** The forward arguments as the server route reads them: `{ dtype, shape, data }` per tensor. */
function jsonInputs(args: ForwardArgs): Record<string, unknown> {
  const json = (t: TensorLike) => ({
    dtype: t.data instanceof BigInt64Array ? 'int64' : 'float32',
    shape: [...t.dims],
    data: Array.from(t.data as ArrayLike<number | bigint>, Number),
  })
  const inputs: Record<string, unknown> = { hidden_states: json(args.hidden_states) }
  if (args.encoder_hidden_states) inputs.encoder_hidden_states = json(args.encoder_hidden_states)
  if (typeof args.timestep === 'number') inputs.timestep = args.timestep
  return inputs
}

/** The demo in this browser: the repo's files over the hub's /resolve/ URLs (the session cookie goes along, for private repos). */
async function runInBrowser(repo: string, size: number, onProgress: (p: DownloadProgress) => void): Promise<RunResult> {
  const loadStart = performance.now()
  const runtime = await webRuntime()
  const model = await Transformer2DModel.fromPretrained(repo, { hubUrl: location.origin, revision: REVISION, subfolder: SUBFOLDER, onProgress, runtime })
  const loadMs = performance.now() - loadStart
  try {
    const forwardStart = performance.now()
    const output = await model.forward({ ...demoInputs(model.config, size), return_dict: true })
    return {
      device: runtime.device,
      precision: { dtype: model.dtype, reason: runtime.precision!.reason },
      gpuWeights: runtime.gpuWeights.uploads ? { buffers: runtime.gpuWeights.uploads, bytes: runtime.gpuWeights.uploadedBytes } : undefined,
      loadMs,
      forwardMs: performance.now() - forwardStart,
      dims: output.sample.dims,
      sample: output.sample,
    }
  } finally {
    await model.dispose()
  }
}

/** The same inputs through POST /api/transformer2d/{repo} (signed in: the route needs a session or a token). */
async function runOnServer(repo: string, size: number): Promise<RunResult> {
  const configResponse = await fetch(`/${repo}/resolve/${REVISION}/${SUBFOLDER}/config.json`)
  if (!configResponse.ok) throw new Error(`${repo}: config.json answered HTTP ${configResponse.status}`)
  const config = (await configResponse.json()) as Transformer2DConfig
  const started = performance.now()
  const response = await fetch(`/api/transformer2d/${repo}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ revision: REVISION, subfolder: SUBFOLDER, inputs: jsonInputs(demoInputs(config, size)) }),
  })
  const body = (await response.json().catch(() => null)) as { error?: string; sample?: { shape: number[]; data: number[] } } | null
  if (!response.ok || !body?.sample) throw new Error(`The server answered HTTP ${response.status}: ${body?.error ?? 'no sample'}`)
  const sample = { data: Float32Array.from(body.sample.data), dims: body.sample.shape, type: 'float32' } as FloatTensor
  return { device: 'server', loadMs: 0, forwardMs: performance.now() - started, dims: body.sample.shape, sample }
}

function maxAbsDiff(a: FloatTensor, b: FloatTensor): number {
  if (a.data.length !== b.data.length) return Number.POSITIVE_INFINITY
  let max = 0
  for (let i = 0; i < a.data.length; i++) max = Math.max(max, Math.abs(a.data[i]! - b.data[i]!))
  return max
}

/** One bar per weight file: downloading (bytes so far), or read from the Cache API. */
function Downloads({ files }: { files: DownloadProgress[] }) {
  return (
    <ul className="space-y-1 text-sm" aria-label="Weight files">
      {files.map((f) => (
        <li key={f.name} className="flex flex-wrap items-center gap-2" data-testid="t2d-download" data-source={f.source} data-done={f.done}>
          <progress className="h-2 w-40" max={f.total} value={f.loaded} aria-label={`${f.name} download`} />
          <code className="break-all">{f.name}</code>
          <span className="text-slate-500">
            {f.source === 'cache' ? `${formatBytes(f.total)}, from this browser's cache` : `${formatBytes(f.loaded)} of ${formatBytes(f.total)}${f.done ? ', downloaded and cached' : ''}`}
          </span>
        </li>
      ))}
    </ul>
  )
}

function Output({ side, result, demo }: { side: 'browser' | 'server'; result: RunResult; demo: DemoName }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    const image = demo === 'discrete' ? classMap(result.sample, DEMOS[demo].size) : sampleToImage(result.sample)
    const target = canvas.current!
    target.width = image.width
    target.height = image.height
    target.getContext('2d')!.putImageData(image, 0, 0)
  }, [result, demo])
  // The browser's figures keep the test ids the single-run page always had.
  const id = (name: string) => (side === 'browser' ? `t2d-${name}` : `t2d-server-${name}`)
  return (
    <div className="space-y-2" data-testid={`t2d-${side}`}>
      <h2 className="text-sm font-medium text-slate-700">{side === 'browser' ? 'In this browser' : 'On the server'}</h2>
      <canvas
        ref={canvas}
        role="img"
        aria-label={`${demo === 'discrete' ? 'Class map' : 'Output image'} of the forward pass ${side === 'browser' ? 'in this browser' : 'on the server'}`}
        className="h-64 w-64 rounded border border-slate-200"
        style={{ imageRendering: 'pixelated' }}
      />
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid={id('result')}>
        <dt className="text-slate-500">Device</dt>
        <dd data-testid={id('device')}>{result.device}</dd>
        {side === 'browser' && (
          <>
            <dt className="text-slate-500">Load + graph build</dt>
            <dd>{result.loadMs.toFixed(0)} ms</dd>
          </>
        )}
        {result.precision && (
          <>
            <dt className="text-slate-500">Precision</dt>
            <dd data-testid="t2d-precision" data-dtype={result.precision.dtype}>
              {result.precision.dtype}: {result.precision.reason}
            </dd>
          </>
        )}
        {result.gpuWeights && (
          <>
            <dt className="text-slate-500">Weights on the GPU</dt>
            <dd data-testid="t2d-gpu-weights">
              {result.gpuWeights.buffers} buffers, {formatBytes(result.gpuWeights.bytes)}, uploaded once at load
            </dd>
          </>
        )}
        <dt className="text-slate-500">{side === 'browser' ? 'Forward' : 'Round trip'}</dt>
        <dd data-testid={id('forward-ms')}>{result.forwardMs.toFixed(1)} ms</dd>
        <dt className="text-slate-500">Output shape</dt>
        <dd data-testid={id('dims')}>[{result.dims.join(', ')}]</dd>
      </dl>
    </div>
  )
}

/** `signedIn`: the server runs (POST /api/transformer2d) need an account; signed out, only the browser runs. */
export function Transformer2DDemo({ signedIn }: { signedIn: boolean }) {
  const [demo, setDemo] = useState<DemoName>('continuous')
  const [mode, setMode] = useState<Mode>('browser')
  const [status, setStatus] = useState<'idle' | 'running' | 'done' | 'error'>('idle')
  const [error, setError] = useState<string | null>(null)
  const [results, setResults] = useState<{ browser?: RunResult; server?: RunResult }>({})
  const [downloads, setDownloads] = useState<Record<string, DownloadProgress>>({})

  useEffect(() => {
    window.transformer2dReplay = replayApi()
    return () => {
      delete window.transformer2dReplay
    }
  }, [])

  async function run() {
    // The button stays focusable while it runs (aria-disabled: a disabled one drops the focus to
    // <body>); a second press meanwhile is ignored.
    if (status === 'running') return
    setStatus('running')
    setError(null)
    setResults({})
    setDownloads({})
    const { repo, size } = DEMOS[demo]
    const onProgress = (p: DownloadProgress) => setDownloads((d) => ({ ...d, [p.name]: p }))
    try {
      const [browser, server] = await Promise.all([
        mode !== 'server' ? runInBrowser(repo, size, onProgress) : undefined,
        mode !== 'browser' ? runOnServer(repo, size) : undefined,
      ])
      setResults({ browser, server })
      setStatus('done')
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
      setStatus('error')
    }
  }

  const { browser, server } = results
  const difference = browser && server ? maxAbsDiff(browser.sample, server.sample) : null
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
      <p className="text-sm text-slate-600">
        From repo <a className="text-brand-700 underline" href={`/${DEMOS[demo].repo}`}><code>{DEMOS[demo].repo}</code></a> at{' '}
        <code>{REVISION}</code>, folder <code>{SUBFOLDER}/</code>.
      </p>
      <fieldset className="flex flex-wrap gap-4">
        <legend className="sr-only">Where to run</legend>
        {(Object.keys(MODES) as Mode[]).map((name) => (
          <label key={name} className={`flex items-center gap-2 text-sm ${!signedIn && name !== 'browser' ? 'text-slate-400' : ''}`}>
            <input type="radio" name="mode" value={name} checked={mode === name} disabled={!signedIn && name !== 'browser'} onChange={() => setMode(name)} />
            {MODES[name]}
          </label>
        ))}
        {!signedIn && (
          <p className="w-full text-xs text-slate-500">
            <a className="text-brand-700 underline" href="/login?next=/transformer2d">Sign in</a> to run it on the server too.
          </p>
        )}
      </fieldset>
      <button type="button" className="btn-primary aria-disabled:cursor-wait aria-disabled:opacity-60" onClick={run} aria-disabled={status === 'running' || undefined}>
        {status === 'running' ? 'Running…' : 'Run forward'}
      </button>
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
      {Object.keys(downloads).length > 0 && <Downloads files={Object.values(downloads)} />}
      {difference !== null && (
        <p className="text-sm" data-testid="t2d-difference" data-max-abs-diff={difference}>
          Largest difference between the browser and the server: <strong>{difference.toExponential(2)}</strong> (max |browser − server| over{' '}
          {browser!.sample.data.length.toLocaleString('en')} values)
        </p>
      )}
      <div className="grid gap-6 sm:grid-cols-2">
        {browser && <Output side="browser" result={browser} demo={demo} />}
        {server && <Output side="server" result={server} demo={demo} />}
      </div>
      {!browser && !server && <div className="flex h-64 w-64 items-center justify-center rounded border border-slate-200 text-sm text-slate-500">Output appears here</div>}
    </section>
  )
}
