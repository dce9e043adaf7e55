'use client'

import { useState, type FormEvent } from 'react'
import { browserPrecision, formatBytes, hubFiles, readConfig, wasmFit, webGpuFit, weightNeeds, type PrecisionChoice, type RuntimeFit, type WeightNeeds } from '@/lib/transformer2d'
import { webGpuAdapter } from '@/lib/transformer2d/browser'

type Check = { where: string; needs: WeightNeeds; wasm: RuntimeFit; webgpu: { fit: RuntimeFit; precision: PrecisionChoice } | null } | { where: string; error: string }

/** `namespace/name` or `namespace/name@revision` (default `main`). */
function repoAndRevision(value: string): { repo: string; revision: string } {
  const at = value.indexOf('@')
  return at < 0 ? { repo: value, revision: 'main' } : { repo: value.slice(0, at), revision: value.slice(at + 1) || 'main' }
}

/**
 * Reads only a model repo's config.json (the diffusers layout's `transformer/config.json`, from this hub's
 * /resolve/ URLs as fromPretrained reads it, with the viewer's session) and says whether its weights can run in
 * this browser, before any weight file is downloaded: on WebAssembly the float32 weights and a forward's working
 * memory share a 4 GiB address space; on WebGPU each weight must fit the adapter's buffer limit. fromPretrained
 * makes the same check before it downloads.
 */
export function FitCheck() {
  const [repoValue, setRepoValue] = useState('open-lab/pixart-xl-2-512')
  const [subfolder, setSubfolder] = useState('transformer')
  const [check, setCheck] = useState<Check | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    const { repo, revision } = repoAndRevision(repoValue.trim())
    const where = `${repo}@${revision}${subfolder.trim() ? `/${subfolder.trim()}` : ''}`
    try {
      const files = hubFiles(repo, { hubUrl: location.origin, revision, subfolder: subfolder.trim() || undefined })
      const needs = weightNeeds(await readConfig(files))
      const adapter = await webGpuAdapter()
      // On WebGPU the weights are buffers in the precision fromPretrained would pick on this adapter.
      const precision = adapter && browserPrecision('webgpu', adapter.features)
      setCheck({ where, needs, wasm: wasmFit(needs), webgpu: adapter && precision && { fit: webGpuFit(needs, adapter.limits, precision.dtype), precision } })
    } catch (e) {
      setCheck({ where, error: e instanceof Error ? e.message : String(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="mt-10 space-y-3" aria-labelledby="fit-heading">
      <h2 id="fit-heading" className="text-lg font-semibold">
        Will a checkpoint fit in this browser?
      </h2>
      <p className="text-sm text-slate-600">Reads only the repo&apos;s config.json; no weights are downloaded.</p>
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <label className="flex flex-1 flex-col gap-1 text-sm">
          Model repo (namespace/name or namespace/name@revision)
          <input className="input" name="repo" value={repoValue} onChange={(e) => setRepoValue(e.target.value)} required spellCheck={false} autoComplete="off" />
        </label>
        <label className="flex flex-col gap-1 text-sm sm:w-40">
          Subfolder
          <input className="input" name="subfolder" value={subfolder} onChange={(e) => setSubfolder(e.target.value)} spellCheck={false} autoComplete="off" />
        </label>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Checking…' : 'Check size'}
        </button>
      </form>
      {check && (
        <div role="status" data-testid="t2d-fit" data-location={check.where} className="rounded border border-slate-200 p-3 text-sm">
          {'error' in check ? (
            <p className="text-red-700">{check.error}</p>
          ) : (
            <>
              <p>
                {formatBytes(check.needs.weightBytes)} of float32 weights (largest tensor {formatBytes(check.needs.largestTensorBytes)}).
              </p>
              <p data-testid="t2d-fit-wasm" data-fits={check.wasm.fits}>
                {check.wasm.message}
              </p>
              <p data-testid="t2d-fit-webgpu" data-fits={check.webgpu?.fit.fits ?? 'no-adapter'}>
                {check.webgpu?.fit.message ?? 'WebGPU: this browser has no WebGPU adapter.'}
              </p>
              {check.webgpu && (
                <p data-testid="t2d-fit-precision" data-dtype={check.webgpu.precision.dtype}>
                  On WebGPU it would compute in {check.webgpu.precision.dtype}. {check.webgpu.precision.reason}
                </p>
              )}
            </>
          )}
        </div>
      )}
    </section>
  )
}
