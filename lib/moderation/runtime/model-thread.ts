import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { MODEL_THREAD_SCRIPT } from './model-thread-script'

/** What a thread loads: the from_pretrained of `folder` in `root` (model-thread-script.ts: load). */
export interface ModelLoad {
  root: string
  folder: string
  /** The output the runs answer with: `logits` loads a sequence classifier, anything else the bare model. */
  output: string
  options: object
}

export type Int64Feed = { data: BigInt64Array; dims: number[] }
export type ModelOutput = { data: Float32Array; dims: number[] }

type Reply = { id: number; error?: { name: string; message: string }; output?: ModelOutput }

const RELEASED = 'The model was released before the run finished'

/**
 * One neural model's transformers.js session on a worker thread of its own. onnxruntime-node runs a session on the
 * calling thread, so in-thread a batch of seconds held every other request of the server; here the main thread posts
 * the batch and receives its output. The numbers are the in-thread ones: the same package, the same from_pretrained
 * call and options on the same folder, the same inputs. The main thread holds no session of the model.
 *
 * stop() fails the requests not answered yet at once (a run cannot be interrupted: the thread finishes it, drops the
 * answer and ends). A thread that stops on its own fails its requests with an Error that says why, and settles
 * `crashed`.
 */
export class ModelThread {
  /** Settles, with the error its requests failed with, when the thread stopped on its own; never after stop(). */
  readonly crashed: Promise<Error>
  private readonly worker: Worker
  private readonly exited: Promise<void>
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>()
  private nextRequest = 0
  /** The uncaught error that stopped the thread, named in the requests it fails. */
  private failure?: Error
  /** Set once stop() was called or the thread stopped: a request then fails at once. */
  private stopped?: Error

  /** A thread with the model loaded; a model that cannot be loaded fails here with the loader's error, and its thread ends. */
  static async load(load: ModelLoad): Promise<ModelThread> {
    const thread = new ModelThread()
    try {
      await thread.request({ op: 'load', ...load }, [])
    } catch (error) {
      await thread.stop()
      throw error
    }
    return thread
  }

  private constructor() {
    // `eval: true` as a literal: Turbopack then leaves the call alone (model-thread-script.ts says why text).
    this.worker = new Worker(MODEL_THREAD_SCRIPT, { eval: true, workerData: { requireFrom: fileURLToPath(import.meta.url) } })
    // An idle thread does not keep the process alive (an idle in-thread session did not); a request does.
    this.worker.unref()
    this.worker.on('message', (reply: Reply) => {
      const pending = this.pending.get(reply.id)
      if (!pending) return // answered after stop(): its request has failed already
      this.pending.delete(reply.id)
      if (this.pending.size === 0 && !this.stopped) this.worker.unref()
      if (reply.error) pending.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }))
      else pending.resolve(reply)
    })
    this.worker.on('error', (error) => {
      this.failure = error
    })
    let crashed: (error: Error) => void
    this.crashed = new Promise((resolve) => (crashed = resolve))
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        if (!this.stopped) {
          this.stopped = new Error(`The model's worker thread stopped (${this.failure?.message ?? `exit code ${code}`}) before it answered`)
          for (const { reject } of this.pending.values()) reject(this.stopped)
          this.pending.clear()
          crashed(this.stopped)
        }
        resolve()
      })
    })
  }

  /** The model's output named `output` for `feeds`, or undefined when it has none; the feeds' buffers move to the thread. */
  async run(feeds: Record<string, Int64Feed>, output: string): Promise<ModelOutput | undefined> {
    const transfer = Object.values(feeds).map((feed) => feed.data.buffer as ArrayBuffer)
    return (await this.request({ op: 'run', feeds, output }, transfer)).output
  }

  /** Fails the requests not answered yet and ends the thread once it has finished the run it computes; resolves when it has ended. */
  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = new Error(RELEASED)
      for (const { reject } of this.pending.values()) reject(this.stopped)
      this.pending.clear()
      // Held until it ends: an exiting process waits for the run the thread finishes instead of ending it inside one.
      this.worker.ref()
      this.worker.postMessage({ op: 'stop' })
    }
    return this.exited
  }

  private request(message: object, transfer: ArrayBuffer[]): Promise<Reply> {
    if (this.stopped) return Promise.reject(this.stopped)
    const id = this.nextRequest++
    return new Promise((resolve, reject) => {
      this.worker.postMessage({ ...message, id }, transfer)
      if (this.pending.size === 0) this.worker.ref()
      this.pending.set(id, { resolve, reject })
    })
  }
}
