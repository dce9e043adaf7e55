// Every worker thread the code under test starts, so a test can count them and stop one as a crash
// would. Used as a test file's mock of node:worker_threads:
//   vi.mock('node:worker_threads', async (importOriginal) => (await import('../recorded-workers')).recordingWorkers(importOriginal))
import type { Worker } from 'node:worker_threads'

export const threads: Worker[] = []

/** The threads started and not yet ended. */
export const running = () => threads.filter((t) => t.threadId !== -1)

export async function recordingWorkers(importOriginal: <T>() => Promise<T>) {
  const original = await importOriginal<typeof import('node:worker_threads')>()
  class RecordedWorker extends original.Worker {
    constructor(...args: ConstructorParameters<typeof original.Worker>) {
      super(...args)
      threads.push(this)
    }
  }
  return { ...original, Worker: RecordedWorker }
}
