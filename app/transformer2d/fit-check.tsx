'use client'

import { useState, type FormEvent } from 'react'
import { formatBytes, hubFiles, oneFileFit, readConfig, type OneFileFit } from '@/lib/transformer2d'

/** WebAssembly memory is a 32-bit address space. */
const WASM_ADDRESS_SPACE = 2 ** 32

type Check = { where: string; fit: OneFileFit } | { where: string; error: string }

/** `namespace/name` or `namespace/name@revision` (default `main`). */
function repoAndRevision(value: string): { repo: string; revision: string } {
  const at = value.indexOf('@')
  return at < 0 ? { repo: value, revision: 'main' } : { repo: value.slice(0, at), revision: value.slice(at + 1) || 'main' }
}

/**
 * Reads only a model repo's config.json (the diffusers layout's `transformer/config.json`, from this hub's
 * /resolve/ URLs as fromPretrained reads it, with the viewer's session) and says whether its weights can run in
 * this browser, before any weight file is downloaded: the browser runtimes take the weights inside one .onnx file
 * (at most 2 GiB), and on WebAssembly the model bytes and the runtime's copy of them share a 4 GiB address space.
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
      setCheck({ where, fit: oneFileFit(await readConfig(files)) })
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
