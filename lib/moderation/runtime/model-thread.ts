import { RequestThread } from '@/lib/threads/request-thread'
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
  private readonly thread: RequestThread<{ output?: ModelOutput } | undefined>

  /** A thread with the model loaded; a model that cannot be loaded fails here with the loader's error, and its thread ends. */
  static async load(load: ModelLoad): Promise<ModelThread> {
    const loaded = new ModelThread()
    try {
      await loaded.thread.request({ op: 'load', ...load })
    } catch (error) {
      await loaded.stop()
      throw error
    }
    return loaded
  }

  private constructor() {
    let crashed: (error: Error) => void
    this.crashed = new Promise((resolve) => (crashed = resolve))
    this.thread = new RequestThread(MODEL_THREAD_SCRIPT, { name: "The model's worker thread", onExit: (crash) => crash && crashed(crash) })
  }

  /** The model's output named `output` for `feeds`, or undefined when it has none; the feeds' buffers move to the thread. */
  async run(feeds: Record<string, Int64Feed>, output: string): Promise<ModelOutput | undefined> {
    const transfer = Object.values(feeds).map((feed) => feed.data.buffer as ArrayBuffer)
    return (await this.thread.request({ op: 'run', feeds, output }, transfer))?.output
  }

  /** Fails the requests not answered yet and ends the thread once it has finished the run it computes; resolves when it has ended. */
  stop(): Promise<void> {
    return this.thread.stop(new Error(RELEASED))
  }
}
