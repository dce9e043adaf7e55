// nodeWorkerRuntime: onnxruntime-node's sessions on worker threads, so a forward does not hold the server's event loop.
// It must compute nodeRuntime's numbers exactly, keep the loop turning during a run, run two runs at once on two
// threads, and fail (never hang) the runs of a released session or of a thread that stopped.
import { running, threads } from '../recorded-workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FloatTensor, ForwardArgs, InferenceRuntime } from '@/lib/transformer2d'
import { directoryFiles, nodeRuntime, nodeWorkerRuntime, Transformer2DModel } from '@/lib/transformer2d/node'
import { generatedValues, pixArtXl2Config, seededFloats } from './generated-checkpoint'
import { caseDir, goldenCases, goldenForwardArgs } from './golden'
import { longestTickGap } from '../event-loop'

vi.mock('node:worker_threads', async (importOriginal) => (await import('../recorded-workers')).recordingWorkers(importOriginal))

afterEach(() => {
  vi.useRealTimers()
  threads.length = 0
})

const byName = (name: string) => goldenCases().find((c) => c.name === name)!

async function sample(model: Transformer2DModel, args: ForwardArgs): Promise<FloatTensor> {
  return ((await model.forward({ ...args, return_dict: true })) as { sample: FloatTensor }).sample
}

async function goldenModel(name: string, runtime: InferenceRuntime): Promise<{ model: Transformer2DModel; args: ForwardArgs }> {
  const c = byName(name)
  return { model: await Transformer2DModel.fromFiles(directoryFiles(caseDir(c)), runtime), args: goldenForwardArgs(c) }
}

/** PixArt-α XL-2's widths (1 layer, a short caption) at a 72×72 latent: 1,296 patches, about 0.7 s a run on one core. */
async function heavyModel(runtime: InferenceRuntime): Promise<{ model: Transformer2DModel; args: ForwardArgs }> {
  const model = await Transformer2DModel.fromConfig({ ...pixArtXl2Config(1), caption_channels: 64 }, { take: generatedValues }, runtime)
  const floats = seededFloats(3)
  const args: ForwardArgs = {
    hidden_states: floats([1, 4, 72, 72]),
    encoder_hidden_states: floats([1, 8, 64]),
    timestep: { data: Float32Array.of(500), dims: [1] },
    added_cond_kwargs: { resolution: { data: Float32Array.of(576, 576), dims: [1, 2] }, aspect_ratio: { data: Float32Array.of(1), dims: [1, 1] } },
  }
  return { model, args }
}

describe('nodeWorkerRuntime', () => {
  it("computes nodeRuntime's numbers bit for bit on every golden checkpoint, and in float16", async () => {
    for (const [name, dtype] of [...goldenCases().map((c) => [c.name, 'float32'] as const), ['pixart_ada_norm_single_addcond', 'float16'] as const]) {
      const c = byName(name)
      const args = goldenForwardArgs(c)
      const inThread = await Transformer2DModel.fromFiles(directoryFiles(caseDir(c)), nodeRuntime({ threads: 1 }), { dtype })
      const onWorker = await Transformer2DModel.fromFiles(directoryFiles(caseDir(c)), nodeWorkerRuntime({ threads: 1 }), { dtype })
      const [expected, actual] = [await sample(inThread, args), await sample(onWorker, args)]
      expect(actual.dims, `${name} ${dtype}`).toEqual(expected.dims)
      expect(actual.data, `${name} ${dtype}`).toEqual(expected.data)
      await Promise.all([inThread.dispose(), onWorker.dispose()])
    }
    await vi.waitFor(() => expect(running()).toEqual([]))
  })

  it('keeps the event loop turning while a run computes (in-thread, the run holds it throughout)', async () => {
    const inThread = await heavyModel(nodeRuntime({ threads: 1 }))
    const held = await longestTickGap(() => inThread.model.forward(inThread.args))
    await inThread.model.dispose()
    // The control: the model is large enough for a held loop to show.
    expect(held.gap).toBeGreaterThan(300)

    const onWorker = await heavyModel(nodeWorkerRuntime({ threads: 1 }))
    // The first run also sends the weights over, one message at a time; the loop turns between them.
    const first = await longestTickGap(() => onWorker.model.forward(onWorker.args))
    const second = await longestTickGap(() => onWorker.model.forward(onWorker.args))
    await onWorker.model.dispose()
    // Relative to the control, not a fixed time: on a busy machine both stretch alike.
    expect(first.gap, `first run ${first.duration.toFixed(0)} ms, in-thread gap ${held.gap.toFixed(0)} ms`).toBeLessThan(held.gap / 3)
    expect(second.gap, `second run ${second.duration.toFixed(0)} ms, in-thread gap ${held.gap.toFixed(0)} ms`).toBeLessThan(held.gap / 3)
  })

  it('runs two runs of one model at once on two threads, and ends the second after a minute idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { model, args } = await goldenModel('cont_sd15_like', nodeWorkerRuntime({ threads: 1, workers: 2 }))
    const [a, b] = await Promise.all([sample(model, args), sample(model, args)])
    expect(b.data).toEqual(a.data)
    expect(running()).toHaveLength(2)
    vi.advanceTimersByTime(60_000)
    await vi.waitFor(() => expect(running()).toHaveLength(1))
    // The thread left still runs the model.
    expect((await sample(model, args)).data).toEqual(a.data)
    await model.dispose()
    await vi.waitFor(() => expect(running()).toEqual([]))
  })

  it('keeps its thread for the models still on it when one of two models sharing the runtime is disposed', async () => {
    const runtime = nodeWorkerRuntime({ threads: 1 })
    const first = await goldenModel('cont_sd15_like', runtime)
    const second = await goldenModel('dit_ada_norm_zero', runtime)
    const expected = await sample(second.model, second.args)
    await sample(first.model, first.args)
    // The thread lets the first model's session and weights go, and still runs the second.
    await first.model.dispose()
    expect((await sample(second.model, second.args)).data).toEqual(expected.data)
    expect(running()).toHaveLength(1)
    await second.model.dispose()
    await vi.waitFor(() => expect(running()).toEqual([]))
  })

  it('fails the runs of a released session, running or waiting, and ends its threads', async () => {
    const { model, args } = await heavyModel(nodeWorkerRuntime({ threads: 1 }))
    await model.forward(args) // the weights are on the thread: the next run computes at once
    // One thread: the first run computes on it, the second waits for it.
    const started = performance.now()
    await model.forward(args)
    const runMs = performance.now() - started
    const runs = [model.forward(args), model.forward(args)]
    await new Promise((resolve) => setTimeout(resolve, 100))
    const released = performance.now()
    await model.dispose()
    for (const run of runs) await expect(run).rejects.toThrow(new Error('The ONNX Runtime session was released before the run finished'))
    // At once, not when the run it interrupts would have finished (it had run 100 ms of about runMs).
    expect(performance.now() - released).toBeLessThan(runMs / 2)
    // onnxruntime cannot be interrupted: the thread ends when the run it computes is done.
    await vi.waitFor(() => expect(running()).toEqual([]), { timeout: 10_000 })
  })

  it('fails the runs of a thread that stopped with an Error that says why, and runs the next on a new thread', async () => {
    const { model, args } = await goldenModel('cont_sd15_like', nodeWorkerRuntime({ threads: 1 }))
    const expected = await sample(model, args)
    const run = model.forward(args)
    // As Node reports a thread's uncaught error (ERR_WORKER_OUT_OF_MEMORY, say), then the thread's end; stopped before
    // the run reaches it (a thread terminated inside a run aborts the process: session-worker.ts).
    threads[0].emit('error', new Error('Worker terminated due to reaching memory limit: JS heap out of memory'))
    await threads[0].terminate()
    await expect(run).rejects.toThrow(/^The ONNX Runtime worker thread stopped \(Worker terminated due to reaching memory limit: JS heap out of memory\) before it answered$/)
    expect((await sample(model, args)).data).toEqual(expected.data)
    expect(threads).toHaveLength(2)
    await model.dispose()
    await vi.waitFor(() => expect(running()).toEqual([]))
  })

  it('fails createSession for a graph onnxruntime cannot load, as in-thread, and keeps no thread for it', async () => {
    const runtime = nodeWorkerRuntime({ threads: 1 })
    const bytes = new Uint8Array([1, 2, 3])
    const inThreadError = await nodeRuntime({ threads: 1 }).createSession(bytes).catch((e: Error) => e)
    await expect(runtime.createSession(bytes)).rejects.toThrow(new Error((inThreadError as Error).message))
    await vi.waitFor(() => expect(running()).toEqual([]))
  })
})
