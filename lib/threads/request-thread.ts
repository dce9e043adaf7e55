import { fileURLToPath } from 'node:url'
import { Worker, type TransferListItem } from 'node:worker_threads'

/**
 * What every script runs before its own text: `projectRequire` loads the project's packages (from this file's path,
 * which the built server maps back to the project's folder, so the thread loads the package the server loads,
 * whatever the working directory), and `serve(handle, stop)` answers RequestThread's messages. They are handled one
 * after another, so a script may rely on the order it was sent them in. `handle(message, transfer)` returns the reply
 * (buffers pushed on `transfer` move to the main thread instead of being copied); a throw is the request's Error (its
 * name and message). A posted message gets no answer, not even for a throw. `stop()` runs after the messages before
 * it, and the thread ends even when it throws: RequestThread.stop waits for the exit.
 */
const SERVE = `
const { parentPort, workerData } = require('node:worker_threads')
const projectRequire = require('node:module').createRequire(workerData.requireFrom)

function serve(handle, stop = async () => {}) {
  let previous = Promise.resolve()
  parentPort.on('message', ({ id, message, stop: stopping }) => {
    previous = previous.then(async () => {
      if (stopping) {
        try {
          await stop()
        } finally {
          process.exit(0)
        }
      }
      const transfer = []
      try {
        const reply = await handle(message, transfer)
        if (id !== undefined) parentPort.postMessage({ id, reply }, transfer)
      } catch (error) {
        const { name, message: text } = error instanceof Error ? error : { name: 'Error', message: String(error) }
        if (id !== undefined) parentPort.postMessage({ id, error: { name, message: text } })
      }
    })
  })
}
`

type Answer<Reply> = { id: number; reply: Reply; error?: { name: string; message: string } }

export interface RequestThreadOptions {
  /** Names the thread in the Error its requests fail with when it stops on its own: "`name` stopped (why) before it answered". */
  name: string
  /** Called once the thread has ended: with that Error when it stopped on its own, without one after stop() or terminate(). */
  onExit?: (crash?: Error) => void
}

/**
 * A worker thread that runs `script` (source text, see SERVE) and answers requests. The script is text run with
 * `eval: true`, not a file next to this one: Next bundles lib/ into chunks, and Turbopack (16.2 on) rewrites
 * `new Worker(path)` and `new Worker(new URL(..., import.meta.url))` into a bundled entry of its own, a path that has
 * broken between minor versions (vercel/next.js#93427), while it leaves a worker with `eval: true` alone
 * (vercel/next.js#91666). The text travels inside the chunk that imports it, the same under vitest, tsx and the built
 * server.
 *
 * An idle thread does not keep the process alive (an idle in-thread session would not); a request does, and so does
 * a stopping thread. Every request fails, never hangs, once the thread has ended or is ending.
 */
export class RequestThread<Reply> {
  private readonly worker: Worker
  private readonly exited: Promise<void>
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>()
  private nextId = 0
  /** The uncaught error that stopped the thread, named in the requests it fails. */
  private failure?: Error
  /** Set once the thread is stopping or has stopped: a request then fails at once with it. */
  private ended?: Error

  constructor(script: string, { name, onExit }: RequestThreadOptions) {
    // `eval: true` as a literal: Turbopack then leaves the call alone.
    this.worker = new Worker(SERVE + script, { eval: true, workerData: { requireFrom: fileURLToPath(import.meta.url) } })
    this.worker.on('message', (answer: Answer<Reply>) => {
      const pending = this.pending.get(answer.id)
      if (!pending) return // answered after stop(): its request has failed already
      this.pending.delete(answer.id)
      if (this.pending.size === 0) this.worker.unref()
      if (!answer.error) return pending.resolve(answer.reply)
      const error = new Error(answer.error.message)
      // An own name only where it differs, so that a plain Error equals the in-thread one.
      if (answer.error.name !== error.name) error.name = answer.error.name
      pending.reject(error)
    })
    this.worker.on('error', (error) => {
      this.failure = error
    })
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        const crash = this.ended ? undefined : new Error(`${name} stopped (${this.failure?.message ?? `exit code ${code}`}) before it answered`)
        if (crash) this.fail(crash)
        onExit?.(crash)
        resolve()
      })
    })
    // After the 'message' listener, which refs the thread again.
    this.worker.unref()
  }

  /** The script's reply to `message`; the buffers in `transfer` move to the thread instead of being copied. */
  request(message: unknown, transfer: readonly TransferListItem[] = []): Promise<Reply> {
    if (this.ended) return Promise.reject(this.ended)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.worker.postMessage({ id, message }, transfer)
      if (this.pending.size === 0) this.worker.ref()
      this.pending.set(id, { resolve, reject })
    })
  }

  /** A message the script handles in its turn and does not answer. */
  post(message: unknown, transfer: readonly TransferListItem[] = []): void {
    this.worker.postMessage({ message }, transfer)
  }

  /**
   * Fails the requests not answered yet with `error` at once, and ends the thread after the script has handled what
   * it was sent before (the script's stop runs last): for work that must not be cut off, as terminate() would.
   * Resolves once the thread has ended.
   */
  stop(error: Error): Promise<void> {
    if (!this.ended) {
      this.fail(error)
      // Held until it ends: an exiting process waits for what the thread finishes instead of ending it inside it.
      this.worker.ref()
      this.worker.postMessage({ stop: true })
    }
    return this.exited
  }

  /** Fails the requests not answered yet with `error` and ends the thread where it is; resolves once it has ended. */
  terminate(error: Error): Promise<void> {
    if (!this.ended) this.fail(error)
    void this.worker.terminate()
    return this.exited
  }

  private fail(error: Error): void {
    this.ended = error
    for (const { reject } of this.pending.values()) reject(error)
    this.pending.clear()
  }
}
