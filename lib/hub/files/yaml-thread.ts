// YAML for model cards, read on a worker thread with a time limit. The `yaml` package is far from
// linear on hostile text (a review found 4 KB entries of nested flows taking 70-170 ms each, and
// 64 KB shapes taking seconds), and a card is read on requests (repo info, listings, the repo
// page), so it must never hold the event loop: the thread reads a card's entries and answers, and a
// read past READ_TIMEOUT_MS is abandoned (the thread is ended, pure JavaScript is safe to end) and
// counts as unreadable. Source text with `eval: true`, as lib/transformer2d/runtime/session-worker.ts
// explains (Turbopack rewrites `new Worker(path)`); `yaml` is required from this file's own path.
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { processState } from '@/lib/config/process-state'

const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads')
const { createRequire } = require('node:module')
const YAML = createRequire(workerData.requireFrom)('yaml')
parentPort.on('message', ({ id, sources }) => {
  const values = sources.map((source) => {
    try {
      // The core schema: YAML 1.2's types only (no dates, no !!binary), so every value is JSON's.
      return { value: YAML.parse(source, { schema: 'core', maxAliasCount: 100, logLevel: 'error', uniqueKeys: false }) }
    } catch {
      return null
    }
  })
  parentPort.postMessage({ id, values })
})
`

/** A card's read, all its entries together; one thread reads one card at a time. */
const READ_TIMEOUT_MS = 250

type Reply = { id: number; values: ({ value: unknown } | null)[] }
type Thread = { worker: Worker; pending: Map<number, (values: Reply['values']) => void> }

// One read at a time: the time limit measures a read's own time on the thread, never its wait behind others.
const state = processState('yamlThread', () => ({ thread: null as Thread | null, nextId: 0, queue: Promise.resolve() as Promise<unknown> }))

function thread(): Thread {
  if (state.thread) return state.thread
  const worker = new Worker(SCRIPT, { eval: true, workerData: { requireFrom: fileURLToPath(import.meta.url) } })
  const started: Thread = { worker, pending: new Map() }
  worker.unref()
  worker.on('message', (reply: Reply) => {
    const resolve = started.pending.get(reply.id)
    started.pending.delete(reply.id)
    resolve?.(reply.values)
    if (started.pending.size === 0) worker.unref()
  })
  // Ended by a timeout, or died: every read it still held is unreadable; the next read starts another.
  const ended = () => {
    if (state.thread === started) state.thread = null
    for (const resolve of started.pending.values()) resolve([])
    started.pending.clear()
  }
  worker.on('error', ended)
  worker.on('exit', ended)
  state.thread = started
  return started
}

/**
 * Each source parsed as YAML (null where YAML cannot read it); all null when the read took longer
 * than `timeoutMs`: the thread is then ended, and the next read starts another.
 */
export async function parseYamlSources(sources: string[], timeoutMs = READ_TIMEOUT_MS): Promise<({ value: unknown } | null)[]> {
  if (sources.length === 0) return []
  const read = state.queue.then(() => readOnThread(sources, timeoutMs))
  state.queue = read.catch(() => undefined)
  return read
}

async function readOnThread(sources: string[], timeoutMs: number): Promise<({ value: unknown } | null)[]> {
  const reader = thread()
  const id = state.nextId++
  const values = await new Promise<Reply['values']>((resolve) => {
    const timer = setTimeout(() => {
      if (state.thread === reader) state.thread = null
      void reader.worker.terminate()
    }, timeoutMs)
    reader.pending.set(id, (answer) => {
      clearTimeout(timer)
      resolve(answer)
    })
    reader.worker.ref()
    reader.worker.postMessage({ id, sources })
  })
  return sources.map((_, i) => values[i] ?? null)
}
