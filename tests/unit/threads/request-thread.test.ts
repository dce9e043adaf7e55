// RequestThread (lib/threads/request-thread.ts): the worker thread under the ONNX Runtime sessions, the moderation
// models and the cards' YAML. A reply must reach the request it answers, and a request must fail, never hang, once
// its thread crashed, was stopped or was terminated; an idle thread must not keep the process alive, a request must.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RequestThread } from '@/lib/threads/request-thread'

const started: { terminate(error: Error): Promise<void> }[] = []
function thread<Reply>(script: string, onExit?: (crash?: Error) => void): RequestThread<Reply> {
  const made = new RequestThread<Reply>(script, { name: 'The test thread', onExit })
  started.push(made)
  return made
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.terminate(new Error('test over'))))
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('RequestThread', () => {
  it('routes each reply to its request by id, whatever order they come back in', async () => {
    // Answers after each request's own delay, not in turn (serve answers in turn).
    const echo = thread<string>(`
      parentPort.on('message', ({ id, message }) => setTimeout(() => parentPort.postMessage({ id, reply: message.echo }), message.ms))
    `)
    const answered: string[] = []
    const requests = [{ echo: 'a', ms: 150 }, { echo: 'b', ms: 0 }, { echo: 'c', ms: 50 }].map((m) => echo.request(m).then((r) => (answered.push(r), r)))
    expect(await Promise.all(requests)).toEqual(['a', 'b', 'c'])
    expect(answered).toEqual(['b', 'c', 'a'])
  })

  it("serves messages in the order sent: posts unanswered, a throw as the request's Error, transferred buffers moved", async () => {
    const counter = thread<unknown>(`
      let total = 0
      serve(async (message, transfer) => {
        if ('add' in message) {
          await new Promise((resolve) => setTimeout(resolve, 20))
          total += message.add
          return 'never seen'
        }
        if ('fail' in message) throw new TypeError(message.fail)
        if ('buffer' in message) {
          transfer.push(message.buffer)
          return message.buffer
        }
        return total
      })
    `)
    counter.post({ add: 2 })
    counter.post({ add: 3 })
    expect(await counter.request({})).toBe(5)
    const failed = await counter.request({ fail: 'not a number' }).catch((e: Error) => e)
    expect(failed).toBeInstanceOf(Error)
    expect({ name: (failed as Error).name, message: (failed as Error).message }).toEqual({ name: 'TypeError', message: 'not a number' })
    const buffer = new Uint8Array([1, 2, 3]).buffer
    const back = (await counter.request({ buffer }, [buffer])) as ArrayBuffer
    expect(buffer.byteLength).toBe(0)
    expect([...new Uint8Array(back)]).toEqual([1, 2, 3])
  })

  it('fails the requests of a thread that stopped on its own with an Error naming why, and every later one', async () => {
    const onExit = vi.fn()
    const crashing = thread(`serve(() => {
      setTimeout(() => { throw new Error('out of luck') })
      return new Promise(() => {})
    })`, onExit)
    const pending = [crashing.request('crash'), crashing.request('waits its turn')]
    const crash = /^The test thread stopped \(out of luck\) before it answered$/
    for (const request of pending) await expect(request).rejects.toThrow(crash)
    expect(onExit).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ message: expect.stringMatching(crash) }))
    await expect(crashing.request('again')).rejects.toBe(onExit.mock.calls[0]![0])

    const exiting = thread(`serve(() => process.exit(3))`)
    await expect(exiting.request('exit')).rejects.toThrow(/^The test thread stopped \(exit code 3\) before it answered$/)
  })

  it("stop() fails what is pending with the given error at once, and ends the thread after what it was sent (the script's stop last)", async () => {
    const onExit = vi.fn()
    // flags[0]: the slow request finished; flags[1]: the script's stop ran, after it.
    const flags = new Int32Array(new SharedArrayBuffer(8))
    const slow = thread(`
      let flags
      serve(async (message) => {
        if (message.flags) return void (flags = new Int32Array(message.flags))
        await new Promise((resolve) => setTimeout(resolve, message.ms))
        Atomics.store(flags, 0, 1)
      }, async () => {
        Atomics.store(flags, 1, Atomics.load(flags, 0) + 1)
      })
    `, onExit)
    slow.post({ flags: flags.buffer })
    const request = slow.request({ ms: 300 })
    await sleep(50)
    const error = new Error('released for the test')
    const events: string[] = []
    void request.catch((e: unknown) => events.push(e === error ? 'failed with the error' : String(e)))
    const stopping = slow.stop(error).then(() => events.push('ended'))
    await sleep(0)
    expect(events).toEqual(['failed with the error'])
    await stopping
    expect(events).toEqual(['failed with the error', 'ended'])
    expect([...flags]).toEqual([1, 2])
    expect(onExit).toHaveBeenCalledExactlyOnceWith(undefined)
    await expect(slow.request({ ms: 0 })).rejects.toBe(error)
    await slow.stop(new Error('again')) // stopping a stopped thread resolves as well
  })

  it('stop() ends the thread even when the script\'s stop throws', async () => {
    const throwing = thread(`serve(() => 'ok', async () => { throw new Error('cannot release') })`)
    expect(await throwing.request('hi')).toBe('ok')
    await throwing.stop(new Error('stopped'))
  })

  it('terminate() fails what is pending with the given error and ends a thread stuck in its work', async () => {
    const onExit = vi.fn()
    const stuck = thread(`serve(() => { for (;;) {} })`, onExit)
    const request = stuck.request('spin')
    const error = new Error('took too long')
    const failed = expect(request).rejects.toBe(error)
    await stuck.terminate(error)
    await failed
    expect(onExit).toHaveBeenCalledExactlyOnceWith(undefined)
    await expect(stuck.request('again')).rejects.toBe(error)
  })

  it('keeps the process alive while a request is pending, and lets it exit once the thread is idle', async () => {
    // A process of its own: it ends on its own only if the idle thread does not hold it, and prints the reply only if
    // the pending request held it until then.
    const child = `
      import(${JSON.stringify(path.resolve('lib/threads/request-thread.ts'))}).then(async ({ RequestThread }) => {
        const thread = new RequestThread('serve(async (ms) => { await new Promise((r) => setTimeout(r, ms)); return "answered after " + ms })', { name: 'child' })
        console.log(await thread.request(300))
      })
    `
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', child], { timeout: 20_000 })
    expect(stdout.trim()).toBe('answered after 300')
  })
})
