'use client'

import Link from 'next/link'
import { useEffect, useMemo, useRef, useState } from 'react'
import { FileProgressList } from '@/components/playground/file-progress'
import { CheckAnswer } from '@/components/playground/result-views'
import { PLAYGROUND_CHECKS, type BrowserCatalog, type CheckPath, type NeuralModelFiles } from '@/lib/moderation/browser/catalog'
import { compareAnswers } from '@/lib/moderation/browser/compare'
import { clearModelCache, type FileProgress } from '@/lib/moderation/browser/model-files'
import { webGpuAdapter, type BrowserDevice } from '@/lib/moderation/browser/onnx'
import { BrowserModerationRunner, type CheckOutcome } from '@/lib/moderation/browser/runner'
import { pickModelAction, playgroundTokenAction } from './actions'
import { EXAMPLES } from './examples'

type Mode = 'browser' | 'server' | 'compare'
type DeviceChoice = 'auto' | BrowserDevice
type Side = 'browser' | 'server'
type CheckRun = { request: Record<string, unknown>; browser?: CheckOutcome | 'pending'; server?: CheckOutcome | 'pending' }
type Phase = 'idle' | 'loading' | 'running' | 'cancelled' | 'failed'

const API_BASE = '/rai/v1/raimoderationmodels'
const DEVICE_NAMES: Record<string, string> = { webgpu: 'WebGPU', wasm: 'WASM', javascript: 'JavaScript', server: 'server' }
const DEFAULT_LABELS = 'Terrorism, Explosives'

function requestFor(path: CheckPath, text: string, text2: string, labels: string[], topicModel: string): Record<string, unknown> {
  switch (path) {
    case 'restrictedtopicmodel':
      return { text, labels, model: topicModel }
    case 'multi_q_net_embedding':
      return { text: text2 ? [text, text2] : [text] }
    case 'multi-qa-mpnet-model_similarity':
      return { text1: text, text2 }
    default:
      return { text }
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}

/** The API's 503/422 detail as one line. */
function detailMessage(detail: unknown): string {
  if (typeof detail === 'string') return detail
  if (Array.isArray(detail)) return detail.map((d: { msg?: string; loc?: unknown[] }) => `${(d.loc ?? []).join('.')}: ${d.msg}`).join('; ')
  return JSON.stringify(detail)
}

/** `model`: the repo picked for this check (`namespace/name@revision`), sent as the API's `?model=`. */
async function callServer(path: CheckPath, request: Record<string, unknown>, token: string, model?: string): Promise<{ outcome: CheckOutcome; unauthorized: boolean }> {
  const outcome = await callServerOnce(path, request, token, model)
  return { outcome, unauthorized: outcome.status === 'error' && outcome.message.startsWith('HTTP 401') }
}

async function callServerOnce(path: CheckPath, request: Record<string, unknown>, token: string, model?: string): Promise<CheckOutcome> {
  const started = performance.now()
  const query = model ? `?model=${encodeURIComponent(model)}` : ''
  const response = await fetch(`${API_BASE}/${path}${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(request),
  })
  const milliseconds = performance.now() - started
  const body: unknown = await response.json().catch(() => null)
  if (response.ok) return { status: 'ok', body, engine: response.headers.get('X-Moderation-Engine') ?? 'unknown', device: 'server', milliseconds }
  const message = detailMessage((body as { detail?: unknown } | null)?.detail ?? response.statusText)
  if (response.status === 503 && /not installed/.test(message)) {
    return { status: 'unavailable', message, install: /npm run models:pull \w+/.exec(message)?.[0] ?? null }
  }
  return { status: 'error', message: `HTTP ${response.status}: ${message}` }
}

/** The engine's own time from the body (`time_taken` or `modelcalltime`), as the API reports it. */
function engineTime(body: unknown): string | null {
  const timing = Array.isArray(body) ? body[body.length - 1] : body
  if (!timing || typeof timing !== 'object') return null
  const record = timing as Record<string, unknown>
  if (typeof record.time_taken === 'string') return record.time_taken
  if (typeof record.modelcalltime === 'number') return `${record.modelcalltime}s`
  return null
}

function OutcomeView({ path, outcome, request, side }: { path: CheckPath; outcome: CheckOutcome | 'pending' | undefined; request: Record<string, unknown>; side: Side }) {
  if (!outcome) return null
  if (outcome === 'pending') {
    return <div data-testid={`${side}-pending`} className="h-24 animate-pulse rounded bg-slate-100" aria-label="Running" />
  }
  if (outcome.status === 'unavailable') {
    return (
      <div data-testid={`${side}-unavailable`} className="rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        <p className="font-medium">Not available {side === 'browser' ? 'in this browser' : 'on the server'}.</p>
        <p>{outcome.message}</p>
        {outcome.install && <p className="mt-1">Install it with <code className="rounded bg-white px-1">{outcome.install}</code></p>}
      </div>
    )
  }
  if (outcome.status === 'error') {
    return <p data-testid={`${side}-error`} className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">{outcome.message}</p>
  }
  return (
    <div data-testid={`${side}-answer`} data-engine={outcome.engine} data-device={outcome.device} data-milliseconds={outcome.milliseconds} className="space-y-2">
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
        <span>engine <code className="text-slate-800">{outcome.engine}</code></span>
        <span>device <strong data-testid={`${side}-device`} className="text-slate-800">{DEVICE_NAMES[outcome.device] ?? outcome.device}</strong></span>
        <span>check {engineTime(outcome.body)}</span>
        <span>{side === 'server' ? 'round trip' : 'total'} {outcome.milliseconds.toFixed(1)} ms</span>
      </p>
      {outcome.note && <p data-testid={`${side}-note`} className="text-xs text-amber-800">{outcome.note}</p>}
      <CheckAnswer path={path} body={outcome.body} request={request} />
      <details>
        <summary className="cursor-pointer text-xs font-medium text-slate-600">Raw JSON</summary>
        <pre tabIndex={0} data-testid={`${side}-json`} className="mt-1 max-h-64 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100">{JSON.stringify(outcome.body, null, 2)}</pre>
      </details>
    </div>
  )
}

function Difference({ browser, server }: { browser: CheckRun['browser']; server: CheckRun['server'] }) {
  if (!browser || !server || browser === 'pending' || server === 'pending') return null
  if (browser.status !== 'ok' || server.status !== 'ok') {
    return <p data-testid="difference" data-agree="n/a" className="text-sm text-slate-600">Nothing to compare: one side has no answer.</p>
  }
  const difference = compareAnswers(browser.body, server.body)
  return (
    <p data-testid="difference" data-agree={String(difference.agree)} data-max-diff={difference.maxAbsDifference} className={`rounded px-3 py-2 text-sm ${difference.agree ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-900'}`}>
      {difference.agree ? 'Browser and server agree' : 'Browser and server differ'}: largest numeric difference {difference.maxAbsDifference.toExponential(2)}
      {difference.mismatches.length > 0 && `; ${difference.mismatches.slice(0, 3).join('; ')}`}
    </p>
  )
}

export function Playground({ catalog, signedIn }: { catalog: BrowserCatalog; signedIn: boolean }) {
  const runner = useMemo(() => new BrowserModerationRunner(catalog), [catalog])
  const [text, setText] = useState(EXAMPLES[2].text)
  const [text2, setText2] = useState(EXAMPLES[EXAMPLES.length - 1].text2!)
  const [labels, setLabels] = useState(DEFAULT_LABELS)
  const [topicModel, setTopicModel] = useState('default')
  const [selected, setSelected] = useState<Set<CheckPath>>(() => new Set(PLAYGROUND_CHECKS.map((c) => c.path)))
  const [mode, setMode] = useState<Mode>('browser')
  const [deviceChoice, setDeviceChoice] = useState<DeviceChoice>('auto')
  const [adapter, setAdapter] = useState<string | null | undefined>(undefined)
  const [phase, setPhase] = useState<Phase>('idle')
  const [message, setMessage] = useState('')
  const [files, setFiles] = useState<Record<string, FileProgress>>({})
  const [runs, setRuns] = useState<Partial<Record<CheckPath, CheckRun>>>({})
  // The repo picker: per check, the model repo the user chose instead of the hub's, what they typed, and why a choice was refused.
  const [picks, setPicks] = useState<Partial<Record<CheckPath, NeuralModelFiles>>>({})
  const [pickDrafts, setPickDrafts] = useState<Partial<Record<CheckPath, string>>>({})
  const [pickErrors, setPickErrors] = useState<Partial<Record<CheckPath, string>>>({})
  const [picking, setPicking] = useState<CheckPath | null>(null)
  const abort = useRef<AbortController | null>(null)
  const token = useRef<string | null>(null)

  // Whether WebGPU is there is only known in the browser, after hydration.
  useEffect(() => void webGpuAdapter().then(setAdapter), [])

  const topicLabels = labels.split(',').map((l) => l.trim()).filter(Boolean)
  const checks = PLAYGROUND_CHECKS.filter((c) => selected.has(c.path))
  const busy = phase === 'loading' || phase === 'running'
  // Checked once here, against the server's own limit, rather than by every check after Run.
  const maxTextLength = catalog.limits.maxTextLength
  const textProblem = text.trim() === ''
    ? 'Enter some text to check.'
    : text.length > maxTextLength
      ? `The text is ${(text.length - maxTextLength).toLocaleString('en')} character${text.length - maxTextLength === 1 ? '' : 's'} over the limit of ${maxTextLength.toLocaleString('en')}.`
      : null
  const mayRun = !busy && checks.length > 0 && textProblem === null
  /** Which engine answers the topic check with each classifier (the same files serve the server and the browser). */
  const topicEngine = (model: string) => {
    const plan = runner.plan('restrictedtopicmodel', { text, labels: topicLabels, model })
    return plan.available ? plan.engine : 'no engine installed'
  }

  async function pickModel(path: CheckPath) {
    const value = (pickDrafts[path] ?? '').trim()
    setPicking(path)
    try {
      const result = await pickModelAction(path, value)
      if ('error' in result) {
        // A refused repo is not run: the check goes back to the hub's model, and the message says why.
        setPickErrors((previous) => ({ ...previous, [path]: result.error }))
        setPicks((previous) => ({ ...previous, [path]: undefined }))
        return
      }
      setPickErrors((previous) => ({ ...previous, [path]: undefined }))
      setPicks((previous) => ({ ...previous, [path]: result.files }))
    } catch {
      setPickErrors((previous) => ({ ...previous, [path]: 'The hub did not answer; try again.' }))
    } finally {
      setPicking(null)
    }
  }

  function resetPick(path: CheckPath) {
    setPicks((previous) => ({ ...previous, [path]: undefined }))
    setPickErrors((previous) => ({ ...previous, [path]: undefined }))
  }

  function update(path: CheckPath, side: Side, outcome: CheckOutcome | 'pending') {
    setRuns((previous) => ({ ...previous, [path]: { ...previous[path]!, [side]: outcome } }))
  }

  async function serverToken(): Promise<string> {
    if (token.current) return token.current
    const result = await playgroundTokenAction()
    if (!result.token) throw new Error(result.error ?? 'Could not get a token.')
    token.current = result.token
    return result.token
  }

  async function runOnServer(requests: [CheckPath, Record<string, unknown>][]) {
    for (const [path, request] of requests) {
      const picked = picks[path]
      const model = picked ? `${picked.id}@${picked.revision}` : undefined
      let answer = await callServer(path, request, await serverToken(), model)
      if (answer.unauthorized) {
        // The one-hour token ran out: get a fresh one once.
        token.current = null
        answer = await callServer(path, request, await serverToken(), model)
      }
      update(path, 'server', answer.outcome)
    }
  }

  async function runInBrowser(requests: [CheckPath, Record<string, unknown>][], signal: AbortSignal) {
    const device: BrowserDevice = deviceChoice === 'auto' ? (adapter ? 'webgpu' : 'wasm') : deviceChoice
    // Checks that need no model answer at once; the others after their files are loaded.
    const needsModel = ([path, request]: [CheckPath, Record<string, unknown>]) => {
      const plan = runner.plan(path, request, picks[path])
      return plan.available && plan.kind !== 'exact'
    }
    const answer = async (batch: [CheckPath, Record<string, unknown>][]) => {
      for (const [path, request] of batch) {
        signal.throwIfAborted()
        update(path, 'browser', await runner.answer(path, request, device, picks[path]))
      }
    }
    await answer(requests.filter((r) => !needsModel(r)))
    const withModels = requests.filter(needsModel)
    if (withModels.length === 0) return
    setPhase('loading')
    await runner.prepare(
      withModels.map(([path]) => path),
      Object.fromEntries(withModels),
      { device, signal, onProgress: (progress) => setFiles((previous) => ({ ...previous, [progress.url]: progress })) },
      picks,
    )
    setPhase('running')
    await answer(withModels)
  }

  async function run() {
    const requests = checks.map((c) => [c.path, requestFor(c.path, text, text2, topicLabels, topicModel)] as [CheckPath, Record<string, unknown>])
    const sides: Side[] = mode === 'compare' ? ['browser', 'server'] : [mode]
    setRuns(Object.fromEntries(requests.map(([path, request]) => [path, { request, ...Object.fromEntries(sides.map((s) => [s, 'pending'])) }])))
    setMessage('')
    const controller = new AbortController()
    abort.current = controller
    setPhase(sides.includes('browser') ? 'loading' : 'running')
    try {
      await Promise.all([
        sides.includes('browser') ? runInBrowser(requests, controller.signal) : null,
        sides.includes('server') ? runOnServer(requests) : null,
      ])
      setPhase('idle')
    } catch (error) {
      if (isAbort(error)) {
        setPhase('cancelled')
        setMessage('Cancelled. Files already downloaded stay cached.')
      } else {
        setPhase('failed')
        setMessage(error instanceof Error ? error.message : String(error))
      }
      setRuns((previous) => Object.fromEntries(Object.entries(previous).map(([path, r]) => [path, {
        ...r!,
        ...(r!.browser === 'pending' ? { browser: undefined } : {}),
        ...(r!.server === 'pending' ? { server: undefined } : {}),
      }])))
    } finally {
      abort.current = null
    }
  }

  const fileList = Object.values(files)
  const columns = mode === 'compare' ? 'md:grid-cols-2' : ''

  return (
    <div className="space-y-6">
      {catalog.unreadable.length > 0 && (
        <div data-testid="unreadable-repos" className="rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-medium">Some of the hub's model repos cannot be loaded in this browser{signedIn ? '' : ' (sign in to use private repos you can read)'}:</p>
          <ul className="list-disc pl-5">
            {catalog.unreadable.map((reason) => <li key={reason}>{reason}</li>)}
          </ul>
        </div>
      )}
      <form
        className="card grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
        onSubmit={(event) => {
          event.preventDefault()
          if (mayRun) void run()
        }}
      >
        <div className="space-y-3">
          <div>
            <label className="label" htmlFor="playground-text">Text to check</label>
            <textarea
              id="playground-text"
              className="input min-h-32 font-mono"
              aria-describedby="playground-text-count playground-text-help"
              aria-invalid={textProblem !== null && text !== ''}
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) event.currentTarget.form?.requestSubmit()
              }}
            />
            <p className="mt-1 flex flex-wrap justify-between gap-x-3 text-xs text-slate-500">
              <span id="playground-text-help">Ctrl+Enter runs the checks.</span>
              <span id="playground-text-count" data-testid="text-count" className={`tabular-nums ${text.length > maxTextLength ? 'font-semibold text-red-700' : ''}`}>
                {text.length.toLocaleString('en')} / {maxTextLength.toLocaleString('en')} characters
              </span>
            </p>
            {textProblem && <p role="alert" data-testid="text-problem" className="mt-1 text-sm text-red-700">{textProblem}</p>}
          </div>
          <div>
            <span className="label">Examples</span>
            <div className="flex flex-wrap gap-2">
              {EXAMPLES.map((example) => (
                <button
                  key={example.label}
                  type="button"
                  className="btn-secondary px-2.5 py-1 text-xs"
                  onClick={() => {
                    setText(example.text)
                    if (example.text2) setText2(example.text2)
                  }}
                >
                  {example.label}
                </button>
              ))}
            </div>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <div>
              <label className="label" htmlFor="playground-text2">Second text (similarity)</label>
              <input id="playground-text2" className="input" value={text2} onChange={(event) => setText2(event.target.value)} />
            </div>
            <div>
              <label className="label" htmlFor="playground-labels">Topic labels (comma separated)</label>
              <input id="playground-labels" className="input" aria-describedby="playground-labels-hint" value={labels} onChange={(event) => setLabels(event.target.value)} />
              <p id="playground-labels-hint" className="mt-1 text-xs text-slate-500">
                Any topics. Offline, 30 common ones (and other names for them, such as “guns” or “medical advice”) come with their vocabularies; other labels are matched by their own words.
              </p>
            </div>
          </div>
          <div>
            <label className="label" htmlFor="playground-topic-model">Topic classifier</label>
            <select id="playground-topic-model" className="input" value={topicModel} onChange={(event) => setTopicModel(event.target.value)}>
              <option value="default">{`default · answered by ${topicEngine('default')}`}</option>
              <option value="nliMini">{`nliMini · answered by ${topicEngine('nliMini')}`}</option>
            </select>
          </div>
        </div>

        <div className="space-y-4">
          <fieldset>
            <legend className="label">Checks</legend>
            <ul className="space-y-1">
              {PLAYGROUND_CHECKS.map((check) => {
                const picked = picks[check.path]
                const plan = runner.plan(check.path, requestFor(check.path, text, text2, topicLabels, topicModel), picked)
                const pickError = pickErrors[check.path]
                return (
                  <li key={check.path} data-testid={`check-${check.path}`}>
                    <label className="flex items-start gap-2 text-sm">
                      <input
                        type="checkbox"
                        className="mt-1"
                        aria-label={check.title}
                        aria-describedby={`plan-${check.path}`}
                        checked={selected.has(check.path)}
                        onChange={(event) => {
                          const next = new Set(selected)
                          if (event.target.checked) next.add(check.path)
                          else next.delete(check.path)
                          setSelected(next)
                        }}
                      />
                      <span className="min-w-0">
                        {check.title}
                        <span id={`plan-${check.path}`} data-testid={`plan-${check.path}`} className="block break-words text-xs text-slate-500">
                          browser: {plan.available ? plan.engine : 'not available'}
                          {plan.available && plan.files && <> · commit <code>{plan.files.commit.slice(0, 7)}</code>{picked && ' (your pick, also on the server)'}</>}
                        </span>
                      </span>
                    </label>
                    {check.runsModel && (
                      <details className="ml-6 text-xs" open={picked !== undefined || pickError !== undefined}>
                        <summary className="cursor-pointer text-brand-700">{picked ? `Model: ${picked.id}@${picked.revision}` : 'Use another model repo'}</summary>
                        <div className="mt-1 space-y-1">
                          <label className="block text-slate-600" htmlFor={`pick-${check.path}`}>{`Model repo for ${check.title} (namespace/name or namespace/name@revision)`}</label>
                          <div className="flex gap-1">
                            <input
                              id={`pick-${check.path}`}
                              className="input min-w-0 flex-1 px-2 py-1 text-xs"
                              placeholder="namespace/name@main"
                              spellCheck={false}
                              autoComplete="off"
                              aria-invalid={pickError !== undefined}
                              aria-describedby={pickError ? `pick-error-${check.path}` : undefined}
                              value={pickDrafts[check.path] ?? ''}
                              onChange={(event) => setPickDrafts((previous) => ({ ...previous, [check.path]: event.target.value }))}
                              onKeyDown={(event) => {
                                // Enter here picks the repo; it must not submit the form (which runs the checks).
                                if (event.key === 'Enter') {
                                  event.preventDefault()
                                  void pickModel(check.path)
                                }
                              }}
                            />
                            <button type="button" className="btn-secondary px-2 py-1 text-xs" disabled={picking !== null || busy || !(pickDrafts[check.path] ?? '').trim()} onClick={() => void pickModel(check.path)}>
                              {picking === check.path ? 'Checking…' : 'Use'}
                            </button>
                          </div>
                          {picked && (
                            <button type="button" className="text-brand-700 underline" disabled={busy} onClick={() => resetPick(check.path)}>{"Back to the hub's model"}</button>
                          )}
                          {pickError && <p id={`pick-error-${check.path}`} role="alert" data-testid={`pick-error-${check.path}`} className="text-red-700">{pickError}</p>}
                        </div>
                      </details>
                    )}
                  </li>
                )
              })}
            </ul>
            <p className="mt-2 flex gap-3 text-xs">
              <button type="button" className="text-brand-700 underline" onClick={() => setSelected(new Set(PLAYGROUND_CHECKS.map((c) => c.path)))}>All</button>
              <button type="button" className="text-brand-700 underline" onClick={() => setSelected(new Set())}>None</button>
            </p>
          </fieldset>
          <fieldset>
            <legend className="label">Run</legend>
            {(['browser', 'server', 'compare'] as const).map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input type="radio" name="mode" value={value} checked={mode === value} disabled={value !== 'browser' && !signedIn} onChange={() => setMode(value)} />
                {value === 'browser' ? 'In this browser' : value === 'server' ? 'On the server' : 'Side by side: browser and server'}
              </label>
            ))}
            {!signedIn && (
              <p className="mt-1 text-xs text-slate-500"><Link className="text-brand-700 underline" href="/login?next=/playground">Sign in</Link> to run checks on the server.</p>
            )}
          </fieldset>
          <div>
            <label className="label" htmlFor="playground-device">Browser device</label>
            <select id="playground-device" className="input" value={deviceChoice} onChange={(event) => setDeviceChoice(event.target.value as DeviceChoice)}>
              <option value="auto">Automatic (WebGPU, else WASM)</option>
              <option value="webgpu" disabled={!adapter}>WebGPU</option>
              <option value="wasm">WASM</option>
            </select>
            <p data-testid="webgpu-adapter" className="mt-1 min-h-4 text-xs text-slate-500">
              {adapter === undefined ? 'Looking for a WebGPU adapter…' : adapter ? `WebGPU adapter: ${adapter}` : 'No WebGPU adapter: models run on WebAssembly.'}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary" disabled={!mayRun}>Run checks</button>
            <button type="button" className="btn-secondary" disabled={!busy} onClick={() => abort.current?.abort()}>Cancel</button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void clearModelCache().then(() => setFiles({}))}>Clear model cache</button>
          </div>
        </div>
      </form>

      <section className="card space-y-2" aria-labelledby="loading-heading">
        <h2 id="loading-heading" className="flex items-center justify-between text-sm font-semibold">
          Model files
          <span role="status" data-testid="phase" data-phase={phase} className="text-xs font-normal text-slate-600">
            {phase === 'loading' ? 'Loading models…' : phase === 'running' ? 'Running…' : phase === 'idle' ? 'Ready' : message}
          </span>
        </h2>
        {/* A fixed height: rows appearing while models load must not push the results down. */}
        <div className="h-32 overflow-y-auto">
          <FileProgressList files={fileList} />
        </div>
      </section>

      <section aria-label="Results" className="space-y-4">
        {checks.map((check) => {
          const result = runs[check.path]
          return (
            <article key={check.path} data-testid={`result-${check.path}`} className="card min-h-28 space-y-3">
              <h2 className="text-base font-semibold">{check.title} <code className="ml-1 text-xs font-normal text-slate-500">{check.path}</code></h2>
              {!result ? (
                <p className="text-sm text-slate-500">Not run yet.</p>
              ) : (
                <>
                  <div className={`grid gap-4 ${columns}`}>
                    {(['browser', 'server'] as const).filter((side) => side in result).map((side) => (
                      <div key={side} data-testid={`${side}-side`} className="min-w-0 space-y-1">
                        {mode === 'compare' && <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{side}</h3>}
                        <OutcomeView path={check.path} outcome={result[side]} request={result.request} side={side} />
                      </div>
                    ))}
                  </div>
                  <Difference browser={result.browser} server={result.server} />
                </>
              )}
            </article>
          )
        })}
      </section>
    </div>
  )
}
