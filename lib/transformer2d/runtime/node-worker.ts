import { RequestThread } from '@/lib/threads/request-thread'
import { nodeRuntime, sessionOptions, type NodeRuntimeOptions } from './node'
import { SESSION_WORKER_SOURCE } from './session-worker'
import type { InferenceRuntime, RuntimeSession, RuntimeTensor } from './types'

export interface NodeWorkerRuntimeOptions extends NodeRuntimeOptions {
  /**
   * Worker threads, each running one run at a time: how many runs go at once (default 1). Each thread holds its own
   * copy of the weights it has run with (onnxruntime-node takes no SharedArrayBuffer), so a thread beyond the first
   * starts only when runs overlap and ends after IDLE_THREAD_MS without one.
   */
  workers?: number
}

/** How long a thread beyond the first waits for a run before it ends and frees its copy of the weights. */
const IDLE_THREAD_MS = 60_000
const RELEASED = 'The ONNX Runtime session was released before the run finished'

type TensorData = Float32Array | Uint16Array | BigInt64Array | Uint8Array
type WireTensor = { type: string; data: TensorData; dims: readonly number[] }
type Reply = { outputs: Record<string, WireTensor> } | undefined

/**
 * onnxruntime-node with its sessions on worker threads. onnxruntime-node runs a session (and creates one) on the
 * calling thread, so in-thread a forward of seconds or minutes holds every other request of the server; here the main
 * thread only posts the run's inputs and receives its outputs. The numbers are nodeRuntime's: the same package, CPU
 * provider and session options, on the same graphs and inputs.
 *
 * Weights are fed on every run, as nodeRuntime's are, but cross to a thread once: `weightTensor` names each weight by
 * a number, a thread receives it with its first run that needs it and keeps it until the weight is disposed. A run
 * posts only its own inputs (copied) and gets the outputs back moved, not copied.
 *
 * Releasing a session fails its runs at once (a run cannot be interrupted: its thread finishes it and drops the
 * answer); the threads end when the runtime's last session is released, each once it has finished what it was given.
 * A thread that stops on its own fails the requests it was given with an Error, and the next run starts another.
 */
export function nodeWorkerRuntime(options: NodeWorkerRuntimeOptions = {}): InferenceRuntime {
  const inThread = nodeRuntime(options)
  const threadSessionOptions = sessionOptions(options)
  const pool = new ThreadPool(options.workers ?? 1)
  const weightIds = new WeakMap<RuntimeTensor, number>()
  let nextWeight = 0
  let nextSession = 0
  let liveSessions = 0

  /** The session, made on `thread` if it has not made it yet (the first thread to run it, or a later one). */
  async function createOn(thread: SessionThread, session: number, model: Uint8Array): Promise<void> {
    if (thread.sessions.has(session)) return
    // Held from now: a release posted while it is made reaches the thread after it (messages keep their order).
    thread.sessions.add(session)
    const transfer: ArrayBuffer[] = []
    try {
      await thread.worker.request({ op: 'create', session, model: ownData(model, transfer), options: threadSessionOptions }, transfer)
    } catch (error) {
      thread.sessions.delete(session)
      throw error
    }
  }

  function sessionEnded(): void {
    if (--liveSessions === 0) pool.stop(new Error(RELEASED))
  }

  /**
   * A weight's first crossing to a thread, in a message of its own: posting copies it on this thread, and the loop
   * turns between weights, so a checkpoint of gigabytes crossing holds other requests for one weight's copy at most.
   */
  async function sendWeight(thread: SessionThread, id: number, tensor: RuntimeTensor): Promise<void> {
    const transfer: ArrayBuffer[] = []
    thread.worker.post({ op: 'weight', id, ...wire(tensor, transfer) }, transfer)
    thread.weights.add(id)
    await new Promise((resolve) => setImmediate(resolve))
  }

  class WorkerSession implements RuntimeSession {
    private released = false
    /** The runs not answered yet: a release fails them. */
    private readonly unanswered = new Set<(error: Error) => void>()

    constructor(
      private readonly id: number,
      private readonly model: Uint8Array,
    ) {}

    run(feeds: Record<string, RuntimeTensor>): Promise<Record<string, RuntimeTensor>> {
      if (this.released) return Promise.reject(new Error(RELEASED))
      return new Promise((resolve, reject) => {
        this.unanswered.add(reject)
        this.runOnThread(feeds)
          .then(resolve, reject)
          .finally(() => this.unanswered.delete(reject))
      })
    }

    private async runOnThread(feeds: Record<string, RuntimeTensor>): Promise<Record<string, RuntimeTensor>> {
      const thread = await pool.acquire(this.id)
      try {
        if (this.released) throw new Error(RELEASED)
        await createOn(thread, this.id, this.model)
        const run = { op: 'run', session: this.id, feeds: {} as Record<string, WireTensor>, weights: {} as Record<string, number> }
        const transfer: ArrayBuffer[] = []
        for (const [name, tensor] of Object.entries(feeds)) {
          const weight = weightIds.get(tensor)
          if (weight === undefined) run.feeds[name] = wire(tensor, transfer)
          else {
            run.weights[name] = weight
            if (!thread.weights.has(weight)) await sendWeight(thread, weight, tensor)
          }
        }
        const { outputs } = (await thread.worker.request(run, transfer))!
        return Object.fromEntries(Object.entries(outputs).map(([name, t]) => [name, { ...t, location: 'cpu' }]))
      } finally {
        pool.giveBack(thread)
      }
    }

    async release(): Promise<void> {
      if (this.released) return
      this.released = true
      for (const reject of this.unanswered) reject(new Error(RELEASED))
      pool.forget({ session: this.id })
      sessionEnded()
    }
  }

  return {
    device: inThread.device,
    weightsAsInputs: true,
    float16: inThread.float16,
    // The weights live here and once more on each thread that runs them: a model fits when all
    // those copies do, so the load-time check sees the memory divided among them.
    availableMemoryBytes: inThread.availableMemoryBytes && (() => inThread.availableMemoryBytes!() / (1 + (options.workers ?? 1))),
    async createSession(model) {
      const id = nextSession++
      liveSessions++
      try {
        // Made at once on one thread, so a graph onnxruntime cannot load fails here as it does in-thread.
        const thread = await pool.acquire(id)
        try {
          await createOn(thread, id, model)
        } finally {
          pool.giveBack(thread)
        }
      } catch (error) {
        sessionEnded()
        throw error
      }
      return new WorkerSession(id, model)
    },
    tensor: (type, data, dims) => ({ type, data, dims, location: 'cpu' }),
    async weightTensor(type, data, dims) {
      const id = nextWeight++
      const weight: RuntimeTensor = {
        type,
        data,
        dims,
        location: 'cpu',
        dispose: () => pool.forget({ weight: id }),
      }
      weightIds.set(weight, id)
      return weight
    },
  }
}

/** A tensor as posted to a thread: its data an array of its own, so the message carries only its bytes. */
function wire(tensor: RuntimeTensor, transfer: ArrayBuffer[]): WireTensor {
  return { type: tensor.type, data: ownData(tensor.data as TensorData, transfer), dims: tensor.dims }
}

/**
 * `data` itself when it spans its buffer (the message copies it), else a copy of its part that the message moves:
 * posting a view copies its whole buffer (a weight cut from a larger tensor, a model inside a file's bytes). The copy
 * keeps the view's offset within 64 bytes: onnxruntime's CPU kernels round differently (by an ulp, measured on the
 * golden checkpoints, whose weights sit at 8-byte offsets in the file) for data that is not 16-byte aligned, so the
 * thread computes exactly what nodeRuntime computes on the original.
 */
function ownData<T extends TensorData>(data: T, transfer: ArrayBuffer[]): T {
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) return data
  const offset = data.byteOffset % 64
  const buffer = new ArrayBuffer(offset + data.byteLength)
  new Uint8Array(buffer, offset).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
  transfer.push(buffer)
  return new (data.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => T)(buffer, offset, data.length)
}

/** One worker thread, and the sessions and weights it holds. */
type SessionThread = {
  worker: RequestThread<Reply>
  sessions: Set<number>
  weights: Set<number>
  busy: boolean
  idleTimer?: NodeJS.Timeout
}

/** Up to `max` threads, one request at a time each; requests beyond wait in order for a free one. */
class ThreadPool {
  private readonly threads: SessionThread[] = []
  private readonly waiting: { resolve: (thread: SessionThread) => void; reject: (error: Error) => void }[] = []

  constructor(private readonly max: number) {}

  /** A free thread, preferably one that holds `session` already; a new one while there are fewer than `max`. */
  acquire(session: number): Promise<SessionThread> {
    const free = this.threads.filter((t) => !t.busy)
    const thread = free.find((t) => t.sessions.has(session)) ?? free[0] ?? (this.threads.length < this.max ? this.spawn() : undefined)
    if (thread) return Promise.resolve(this.take(thread))
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }))
  }

  /** Hands the thread to the next request in line, or leaves it free (a thread beyond the first ends when idle). */
  giveBack(thread: SessionThread): void {
    thread.busy = false
    if (!this.threads.includes(thread)) return // it stopped meanwhile
    const next = this.waiting.shift()
    if (next) next.resolve(this.take(thread))
    else if (this.threads.length > 1) {
      thread.idleTimer = setTimeout(() => {
        if (this.threads.length > 1) this.end(thread, new Error('The idle ONNX Runtime worker thread was ended'))
      }, IDLE_THREAD_MS).unref()
    }
  }

  /** Tells the threads that hold a released session or a disposed weight to let it go. */
  forget(what: { session: number } | { weight: number }): void {
    for (const thread of this.threads) {
      if ('session' in what && thread.sessions.delete(what.session)) thread.worker.post({ op: 'release', session: what.session })
      if ('weight' in what && thread.weights.delete(what.weight)) thread.worker.post({ op: 'drop', weights: [what.weight] })
    }
  }

  /** Ends every thread; requests waiting for one fail with `error`. A later request starts new threads. */
  stop(error: Error): void {
    for (const waiting of this.waiting.splice(0)) waiting.reject(error)
    for (const thread of [...this.threads]) this.end(thread, error)
  }

  private take(thread: SessionThread): SessionThread {
    clearTimeout(thread.idleTimer)
    thread.busy = true
    return thread
  }

  private spawn(): SessionThread {
    const thread: SessionThread = {
      worker: new RequestThread(SESSION_WORKER_SOURCE, { name: 'The ONNX Runtime worker thread', onExit: () => this.stopped(thread) }),
      sessions: new Set(),
      weights: new Set(),
      busy: false,
    }
    this.threads.push(thread)
    return thread
  }

  /**
   * Ends a thread this pool no longer needs (its exit is then no failure to recover from), failing what it was given
   * with `error`: once it has finished that, as a run cannot be interrupted (session-worker.ts: stop).
   */
  private end(thread: SessionThread, error: Error): void {
    const at = this.threads.indexOf(thread)
    if (at === -1) return
    this.threads.splice(at, 1)
    clearTimeout(thread.idleTimer)
    void thread.worker.stop(error)
  }

  /** A thread that stopped on its own (crashed): a new one takes the next request in line. */
  private stopped(thread: SessionThread): void {
    const at = this.threads.indexOf(thread)
    if (at === -1) return // ended by end()
    this.threads.splice(at, 1)
    clearTimeout(thread.idleTimer)
    const next = this.waiting.shift()
    if (next) next.resolve(this.take(this.spawn()))
  }
}
