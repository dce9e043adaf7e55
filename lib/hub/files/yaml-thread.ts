// YAML for model cards, read on a worker thread with a time limit. The `yaml` package is far from
// linear on hostile text (a review found 4 KB entries of nested flows taking 70-170 ms each, and
// 64 KB shapes taking seconds), and a card is read on requests (repo info, listings, the repo
// page), so it must never hold the event loop: the thread reads a card's entries and answers, and a
// read past READ_TIMEOUT_MS is abandoned (the thread is ended, pure JavaScript is safe to end) and
// counts as unreadable.
import { processState } from '@/lib/config/process-state'
import { RequestThread } from '@/lib/threads/request-thread'

const SCRIPT = `
const YAML = projectRequire('yaml')
serve((sources) =>
  sources.map((source) => {
    try {
      // The core schema: YAML 1.2's types only (no dates, no !!binary), so every value is JSON's.
      return { value: YAML.parse(source, { schema: 'core', maxAliasCount: 100, logLevel: 'error', uniqueKeys: false }) }
    } catch {
      return null
    }
  }),
)
`

/** A card's read, all its entries together; one thread reads one card at a time. */
const READ_TIMEOUT_MS = 250

type Values = ({ value: unknown } | null)[]
/** A thread, and its first answer: the thread has started and loaded `yaml` (tens of milliseconds, more on a busy machine). */
type Reader = { thread: RequestThread<Values>; ready: Promise<unknown> }

// One read at a time: the time limit measures a read's own time on the thread, never its wait behind others or the
// thread's start.
const state = processState('yamlThread', () => ({ reader: null as Reader | null, queue: Promise.resolve() as Promise<unknown> }))

function reader(): Reader {
  if (state.reader) return state.reader
  const thread: RequestThread<Values> = new RequestThread(SCRIPT, {
    name: 'The YAML worker thread',
    // Ended by a timeout, or died: the next read starts another.
    onExit: () => {
      if (state.reader?.thread === thread) state.reader = null
    },
  })
  state.reader = { thread, ready: thread.request([]) }
  return state.reader
}

/**
 * Each source parsed as YAML (null where YAML cannot read it); all null when the read took longer
 * than `timeoutMs`: the thread is then ended, and the next read starts another.
 */
export async function parseYamlSources(sources: string[], timeoutMs = READ_TIMEOUT_MS): Promise<Values> {
  if (sources.length === 0) return []
  const read = state.queue.then(() => readOnThread(sources, timeoutMs))
  state.queue = read.catch(() => undefined)
  return read
}

async function readOnThread(sources: string[], timeoutMs: number): Promise<Values> {
  const { thread, ready } = reader()
  // A thread that could not start (yaml missing, no memory) leaves every read unreadable, as a dead one does.
  if (!(await ready.then(() => true, () => false))) return sources.map(() => null)
  const timer = setTimeout(() => {
    if (state.reader?.thread === thread) state.reader = null
    void thread.terminate(new Error(`The YAML read took longer than ${timeoutMs} ms`))
  }, timeoutMs)
  // A read its thread did not answer (ended by the timeout, or died) is unreadable.
  const values = await thread.request(sources).catch((): Values => [])
  clearTimeout(timer)
  return sources.map((_, i) => values[i] ?? null)
}
