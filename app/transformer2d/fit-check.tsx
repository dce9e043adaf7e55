'use client'

import { useState, type FormEvent } from 'react'
import { formatBytes, oneFileFit, type OneFileFit } from '@/lib/transformer2d'

/** WebAssembly memory is a 32-bit address space. */
const WASM_ADDRESS_SPACE = 2 ** 32

type Check = { folder: string; fit: OneFileFit } | { folder: string; error: string }

/**
 * Reads only a model folder's config.json and says whether its weights can run in this browser, before any weight
 * file is downloaded: the browser runtimes take the weights inside one .onnx file (at most 2 GiB), and on
 * WebAssembly the model bytes and the runtime's copy of them share a 4 GiB address space.
 */
export function FitCheck() {
  const [folder, setFolder] = useState('/models/transformer2d/pixart-xl-2-512')
  const [check, setCheck] = useState<Check | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    const base = folder.replace(/\/+$/, '')
    try {
      const response = await fetch(`${base}/config.json`)
      if (!response.ok) throw new Error(`GET ${base}/config.json: HTTP ${response.status}`)
      setCheck({ folder: base, fit: oneFileFit(await response.json()) })
    } catch (e) {
      setCheck({ folder: base, error: e instanceof Error ? e.message : String(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="mt-10 space-y-3" aria-labelledby="fit-heading">
      <h2 id="fit-heading" className="text-lg font-semibold">
        Will a checkpoint fit in this browser?
      </h2>
      <p className="text-sm text-slate-600">Reads only the folder&apos;s config.json; no weights are downloaded.</p>
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <label className="flex flex-1 flex-col gap-1 text-sm">
          Diffusers model folder URL
          <input className="input" name="folder" value={folder} onChange={(e) => setFolder(e.target.value)} required />
        </label>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Checking…' : 'Check size'}
        </button>
      </form>
      {check && (
        <div role="status" data-testid="t2d-fit" className="rounded border border-slate-200 p-3 text-sm">
          {'error' in check ? (
            <p className="text-red-700">{check.error}</p>
          ) : check.fit.fits ? (
            <p>
              Fits: {formatBytes(check.fit.weightBytes)} of float32 weights, within the {formatBytes(check.fit.limitBytes)} one .onnx file can carry.
              {2 * check.fit.weightBytes > WASM_ADDRESS_SPACE && ' On WebAssembly it needs about twice that within a 4.29 GB address space, so use WebGPU.'}
            </p>
          ) : (
            <p>
              Does not fit: its float32 weights take {formatBytes(check.fit.weightBytes)}, and the browser runtimes hold at most{' '}
              {formatBytes(check.fit.limitBytes)} (one .onnx file). It runs on the server (onnxruntime-node), where there is no such limit.
            </p>
          )}
        </div>
      )}
    </section>
  )
}
