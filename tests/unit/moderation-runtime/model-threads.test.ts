// The neural models run on worker threads (lib/moderation/runtime/model-thread.ts), so a batch does not hold the
// server's event loop. They must compute the numbers of the same transformers.js call in-thread, keep the loop turning
// while a batch computes, and fail (never hang) the runs of a disposed runtime, of an evicted picked model and of a
// thread that stopped.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { running, threads } from '../recorded-workers'
import { AutoModel, AutoModelForSequenceClassification, env, Tensor, type PreTrainedModel } from '@huggingface/transformers'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { encodeForModel, ModelRuntime } from '@/lib/moderation/runtime/models'
import { MODEL_MANIFEST, NEURAL_CHECKS, type NeuralCheck } from '@/lib/moderation/runtime/manifest'
import { outputRows, paddedBatch, type NeuralModel } from '@/lib/moderation/runtime/neural-steps'
import { settingsFromEnv, type ModelChoice } from '@/lib/moderation/runtime/settings'
import { longestTickGap } from '../event-loop'

vi.mock('node:worker_threads', async (importOriginal) => (await import('../recorded-workers')).recordingWorkers(importOriginal))

// A picked model (`?model=`) is the snapshot folder the model cache names: here a copy of the tiny zero-shot model per repo.
const pickedDirs = vi.hoisted(() => new Map<string, string>())
vi.mock('@/lib/hub/model-cache', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/hub/model-cache')>()),
  modelSnapshot: async (repo: string) => ({ dir: pickedDirs.get(repo)! }),
}))

const FIXTURES = path.resolve('tests/fixtures/tiny-models')
const RELEASED = 'The model was released before the run finished'

const runtimes: ModelRuntime[] = []
function runtime(): ModelRuntime {
  const made = new ModelRuntime({ ...settingsFromEnv(), modelsDir: FIXTURES, microBatching: false, threads: 1 })
  runtimes.push(made)
  return made
}

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.dispose()))
  threads.length = 0
})
afterAll(() => {
  for (const dir of pickedDirs.values()) fs.rmSync(path.dirname(dir), { recursive: true, force: true })
})


/** The check's model loaded in this thread, as the runtime loaded it before it had threads. */
async function inThreadModel(check: NeuralCheck): Promise<PreTrainedModel> {
  const entry = MODEL_MANIFEST[check]
  Object.assign(env, { allowRemoteModels: false, allowLocalModels: true, useFSCache: false, localModelPath: FIXTURES + path.sep })
  const modelClass = entry.output === 'logits' ? AutoModelForSequenceClassification : AutoModel
  return modelClass.from_pretrained(entry.id, {
    local_files_only: true,
    dtype: 'fp32',
    device: 'cpu',
    session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 },
  })
}

/** The in-thread forward of `sequences`: the runtime's one call before it had threads. */
async function inThreadForward(session: PreTrainedModel, model: NeuralModel, sequences: number[][]): Promise<Float32Array[]> {
  const { width, inputIds, attentionMask } = paddedBatch(sequences, model.tokenizer.pad_token_id ?? 0)
  const dims = [sequences.length, width]
  const output = (await session({
    input_ids: new Tensor('int64', inputIds, dims),
    attention_mask: new Tensor('int64', attentionMask, dims),
    token_type_ids: new Tensor('int64', new BigInt64Array(inputIds.length), dims),
  }))[model.entry.output] as Tensor
  return outputRows(model.entry, output.data as Float32Array, output.dims)
}

/** A zero-shot batch of 64 labels on a text longer than the window: 512 tokens a pair, about 0.5 s in-thread on one core. */
function longBatch(model: NeuralModel): number[][] {
  const text = 'The committee met again to discuss the harbour, the budget and the weather. '.repeat(60)
  return Array.from({ length: 64 }, (_, i) => encodeForModel(model.tokenizer, text, `This text is about topic ${i}`, model.entry.maxLength))
}

describe('neural models on worker threads', () => {
  it('compute the in-thread numbers bit for bit, for every check, on a padded batch', async () => {
    const models = runtime()
    const texts = ['hello world', 'def add(a, b):\n    return a + b', 'I hate you, you stupid idiot! '.repeat(40)]
    for (const check of NEURAL_CHECKS) {
      const model = await models.model(check)
      const sequences = texts.map((t) => encodeForModel(model.tokenizer, t, null, model.entry.maxLength))
      const session = await inThreadModel(check)
      const expected = await inThreadForward(session, model, sequences)
      await session.dispose()
      expect(await model.forward(sequences), check).toEqual(expected)
    }
    expect(running()).toHaveLength(NEURAL_CHECKS.length)
  })

  it('keep the event loop turning while a batch computes (in-thread, the batch holds it throughout)', async () => {
    const model = await runtime().model('topic')
    const sequences = longBatch(model)
    const session = await inThreadModel('topic')
    await inThreadForward(session, model, sequences.slice(0, 1))
    const held = await longestTickGap(() => inThreadForward(session, model, sequences))
    await session.dispose()
    // The control: the batch holds the loop for most of its run.
    expect(held.gap).toBeGreaterThan(held.duration / 2)

    await model.forward(sequences.slice(0, 1))
    const onThread = await longestTickGap(() => model.forward(sequences))
    // Relative to the control, not a fixed time: on a busy machine both stretch alike.
    expect(onThread.gap, `run ${onThread.duration.toFixed(0)} ms, in-thread gap ${held.gap.toFixed(0)} ms`).toBeLessThan(held.gap / 3)
  })

  it('fail a run at once when the runtime is disposed during it, and end the threads once the run is done', async () => {
    const models = runtime()
    const model = await models.model('topic')
    const sequences = longBatch(model)
    const started = performance.now()
    await model.forward(sequences)
    const runMs = performance.now() - started
    const run = model.forward(sequences)
    await new Promise((resolve) => setTimeout(resolve, runMs / 5))
    const disposed = performance.now()
    const disposing = models.dispose()
    await expect(run).rejects.toThrow(new Error(RELEASED))
    // At once, not when the run it interrupts would have finished.
    expect(performance.now() - disposed).toBeLessThan(runMs / 2)
    await expect(model.forward(sequences.slice(0, 1))).rejects.toThrow(new Error(RELEASED))
    // onnxruntime cannot be interrupted: the thread ends when the run it computes is done, and dispose() with it.
    await disposing
    expect(running()).toEqual([])
  })

  it('fail a run on a picked model evicted during it, and end its thread', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'picked-models-'))
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      const dir = path.join(root, name)
      fs.cpSync(path.join(FIXTURES, ...MODEL_MANIFEST.topic.id.split('/')), dir, { recursive: true })
      pickedDirs.set(`picked/${name}`, dir)
    }
    const models = runtime()
    const pick = (name: string) => models.model('topic', { repo: `picked/${name}`, revision: 'main', caller: null } as ModelChoice)
    const first = await pick('a')
    const run = first.forward(longBatch(first)).catch((error: unknown) => error)
    // Four more picked models: the first, least recently used, is released (as the fifth is picked, before it loads).
    await Promise.all(['b', 'c', 'd', 'e'].map(pick))
    expect(await run).toEqual(new Error(RELEASED))
    await vi.waitFor(() => expect(running()).toHaveLength(4), { timeout: 10_000 })
  })

  it("fail the runs of a thread that stopped with an Error that says why, and load the model again on its next use", async () => {
    const models = runtime()
    const model = await models.model('gibberish')
    const sequences = [encodeForModel(model.tokenizer, 'hello world', null, model.entry.maxLength)]
    const expected = await model.forward(sequences)
    // As Node reports a thread's uncaught error (ERR_WORKER_OUT_OF_MEMORY, say), then the thread's end; stopped while
    // idle (a thread terminated inside a run aborts the process: lib/transformer2d/runtime/session-worker.ts).
    threads[0]!.emit('error', new Error('Worker terminated due to reaching memory limit: JS heap out of memory'))
    await threads[0]!.terminate()
    const stopped = /^The model's worker thread stopped \(Worker terminated due to reaching memory limit: JS heap out of memory\) before it answered$/
    await expect(model.forward(sequences)).rejects.toThrow(stopped)
    expect(models.state('gibberish')).toEqual({ state: 'failed', error: expect.stringMatching(/worker thread stopped/) })
    const reloaded = await models.model('gibberish')
    expect(reloaded).not.toBe(model)
    expect(await reloaded.forward(sequences)).toEqual(expected)
    expect(models.state('gibberish').state).toBe('ready')
  })
})
