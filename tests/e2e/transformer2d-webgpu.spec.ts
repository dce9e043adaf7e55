// Transformer2DModel on Chromium's software WebGPU adapter (SwiftShader, enabled by --enable-unsafe-webgpu; no GPU
// here): every golden case runs on WebGPU within the reference's tolerance and next to WASM's output; the weights
// stay in GPU buffers across forwards and are freed on dispose (counted by the runtime and, independently, by
// wrapping the page's WebGPU calls); the page says which precision it picks and why; the size check refuses a model
// over the adapter's real buffer limit; and the browser's float16 graph is the server's, byte for byte.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createRepo, deleteRepo, uploadFiles } from '@huggingface/hub'
import { expect, test, type Page } from '@playwright/test'
import { encodeSafetensors, type CheckpointFiles, type InferenceRuntime } from '@/lib/transformer2d'
import { nodeRuntime, Transformer2DModel } from '@/lib/transformer2d/node'
import { generatedValues, pixArtForwardArgs, pixArtXl2Config, stateDictKeys } from '../unit/transformer2d/generated-checkpoint'
import { caseDir, compare, goldenCases, goldenForwardArgs, readTensors, relativeError } from '../unit/transformer2d/golden'
import { createToken, DEMO, signIn, watchErrors } from './helpers'
import { openReplay, replayDispose, replayForward, replayLoad, replayOnce, replayRequest, serialize } from './transformer2d-helpers'

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-webgpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1'],
  },
})

/** Skips the test, saying so, when this Chromium offers no WebGPU adapter; returns the adapter's description. */
async function requireAdapter(page: Page): Promise<{ description: string; features: string[]; limit: number }> {
  const adapter = await page.evaluate(async () => {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<{ info?: { vendor?: string; architecture?: string }; features: Set<string>; limits: Record<string, number> } | null> } }).gpu
    const a = await gpu?.requestAdapter().catch(() => null)
    return a ? { description: `${a.info?.vendor} ${a.info?.architecture}`, features: [...a.features], limit: Math.min(a.limits.maxBufferSize, a.limits.maxStorageBufferBindingSize) } : null
  })
  test.skip(!adapter, 'this Chromium offers no WebGPU adapter even with --enable-unsafe-webgpu: the WebGPU path cannot be checked here')
  return adapter!
}

/**
 * Counts, in the page, the bytes written into GPU buffers (`GPUQueue.writeBuffer`: onnxruntime-web's uploads of
 * inputs and ours of weights alike) and the weight buffers made and destroyed (by their label).
 */
async function watchGpu(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counts = { written: 0, weightBuffers: 0, weightBuffersDestroyed: 0 }
    Object.assign(window, { gpuCounts: counts })
    type View = { byteLength: number; BYTES_PER_ELEMENT?: number }
    const g = globalThis as unknown as Record<string, { prototype: Record<string, (...a: unknown[]) => unknown> } | undefined>
    if (!g.GPUQueue || !g.GPUDevice || !g.GPUBuffer) return
    const write = g.GPUQueue.prototype.writeBuffer
    g.GPUQueue.prototype.writeBuffer = function (this: unknown, ...a: unknown[]) {
      const data = a[2] as View
      const unit = data.BYTES_PER_ELEMENT ?? 1
      counts.written += a[4] !== undefined ? (a[4] as number) * unit : data.byteLength - ((a[3] as number | undefined) ?? 0) * unit
      return write.apply(this, a)
    }
    const create = g.GPUDevice.prototype.createBuffer
    g.GPUDevice.prototype.createBuffer = function (this: unknown, ...a: unknown[]) {
      if ((a[0] as { label?: string }).label === 'transformer2d weight') counts.weightBuffers++
      return create.apply(this, a)
    }
    const destroy = g.GPUBuffer.prototype.destroy
    g.GPUBuffer.prototype.destroy = function (this: { label: string }, ...a: unknown[]) {
      if (this.label === 'transformer2d weight') counts.weightBuffersDestroyed++
      return destroy.apply(this, a)
    }
  })
}

const gpuCounts = (page: Page) => page.evaluate(() => ({ ...(window as unknown as { gpuCounts: { written: number; weightBuffers: number; weightBuffersDestroyed: number } }).gpuCounts }))

test('every golden case runs on the SwiftShader WebGPU adapter within the reference tolerance and agrees with WASM', async ({ page }) => {
  test.setTimeout(120_000)
  const errors = watchErrors(page)
  await openReplay(page)
  const adapter = await requireAdapter(page)
  const rows: string[] = []
  for (const c of goldenCases()) {
    const expected = readTensors(path.join(caseDir(c), 'outputs.safetensors')).get('sample')!.data as Float32Array
    const gpu = await replayOnce(page, replayRequest(c, { device: 'webgpu' }))
    const cpu = await replayOnce(page, replayRequest(c, { device: 'wasm' }))
    expect(gpu.loaded, c.name).toMatchObject({ device: 'webgpu', dtype: adapter.features.includes('shader-f16') ? 'float16' : 'float32' })
    expect(gpu.dims, c.name).toEqual(c.output.shape)
    if (gpu.loaded.dtype === 'float16') continue // on an f16 adapter the float16 check below applies, not float32's tolerance
    const { atol, rtol } = c.recommended_tolerance
    const reference = compare(gpu.data, expected, atol, rtol)
    const wasm = compare(gpu.data, cpu.data, atol, rtol)
    rows.push(`${c.name}: |webgpu − reference| ≤ ${reference.maxAbsDiff.toExponential(2)}, |webgpu − wasm| ≤ ${wasm.maxAbsDiff.toExponential(2)} (atol ${atol})`)
    expect(reference.violations, `${c.name}: max |webgpu − reference| ${reference.maxAbsDiff.toExponential(2)}`).toBe(0)
    expect(wasm.violations, `${c.name}: max |webgpu − wasm| ${wasm.maxAbsDiff.toExponential(2)}`).toBe(0)
  }
  console.log(`${adapter.description}:\n${rows.join('\n')}`)
  expect(errors).toEqual([])
})

/** PixArt-α's layout (ada_norm_single, caption projection, size conditions) at a width whose weights (14 MB) dwarf its inputs (≈ 100 KB). */
function midSizeRequest() {
  const config = { ...pixArtXl2Config(2), num_attention_heads: 6, attention_head_dim: 48, cross_attention_dim: 288, caption_channels: 512 }
  const tensors = new Map(stateDictKeys(config).map(({ key, shape }) => [key, { dtype: 'F32' as const, shape, data: generatedValues(key, shape) }]))
  const weights = encodeSafetensors(tensors)
  const args = pixArtForwardArgs(11, 8, 512)
  const serialized = Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, 'dims' in v ? serialize(v) : Object.fromEntries(Object.entries(v).map(([a, b]) => [a, serialize(b as { data: Float32Array; dims: number[] })]))]),
  )
  const weightBytes = [...tensors.values()].reduce((sum, t) => sum + t.data.byteLength, 0)
  return { request: { config, weights: Buffer.from(weights).toString('base64'), args: serialized }, weightBytes }
}

test('on WebGPU the weights are uploaded once into GPU buffers, not again by two forwards, and freed on dispose', async ({ page }) => {
  test.setTimeout(90_000)
  await watchGpu(page)
  await openReplay(page)
  await requireAdapter(page)
  const { request, weightBytes } = midSizeRequest()

  const before = await gpuCounts(page)
  const loaded = await replayLoad(page, { ...request, device: 'webgpu', dtype: 'float32' })
  const afterLoad = await gpuCounts(page)
  // One buffer per weight input of the graph, every byte of the float32 weights uploaded once.
  expect(loaded.gpuWeights.uploadedBytes).toBe(weightBytes)
  expect(loaded.gpuWeights.liveBuffers).toBe(loaded.gpuWeights.uploads)
  expect(afterLoad.weightBuffers - before.weightBuffers).toBe(loaded.gpuWeights.uploads)
  expect(afterLoad.written - before.written).toBeGreaterThanOrEqual(weightBytes)

  const first = await replayForward(page)
  const afterFirst = await gpuCounts(page)
  const second = await replayForward(page)
  const afterSecond = await gpuCounts(page)
  expect(second.data).toEqual(first.data)
  expect(first.data.every(Number.isFinite)).toBe(true)
  // No weight was uploaded again: the runtime made no buffer, and a forward wrote its inputs (≈ 100 KB), not 14 MB.
  expect(second.gpuWeights).toEqual(loaded.gpuWeights)
  const perForward = [afterFirst.written - afterLoad.written, afterSecond.written - afterFirst.written]
  for (const bytes of perForward) expect(bytes).toBeLessThan(weightBytes / 20)

  const disposed = await replayDispose(page)
  expect(disposed).toMatchObject({ liveBuffers: 0, liveBytes: 0, uploads: loaded.gpuWeights.uploads })
  expect((await gpuCounts(page)).weightBuffersDestroyed - before.weightBuffersDestroyed).toBe(loaded.gpuWeights.uploads)

  // The same model with the weights fed from the page (the way before): every forward uploads all of them again.
  await replayLoad(page, { ...request, device: 'webgpu', dtype: 'float32', gpuWeights: false })
  const cpuStart = await gpuCounts(page)
  const fromPage = await replayForward(page)
  const cpuEnd = await gpuCounts(page)
  await replayDispose(page)
  expect(fromPage.gpuWeights.uploads).toBe(0)
  expect(cpuEnd.written - cpuStart.written).toBeGreaterThanOrEqual(weightBytes)
  expect(fromPage.data).toEqual(first.data)
  console.log(`weights ${weightBytes} bytes; written to the GPU by the load ${afterLoad.written - before.written}, by each forward ${perForward.join(', ')}; by a forward with the weights fed from the page ${cpuEnd.written - cpuStart.written}`)
})

test('the demo page runs on the WebGPU adapter, says which precision and why, and agrees with the server', async ({ page }) => {
  test.setTimeout(90_000)
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/transformer2d')
  const adapter = await requireAdapter(page)
  await page.getByLabel('Side by side').check()
  await page.getByRole('button', { name: 'Run forward' }).click()
  await expect(page.getByTestId('t2d-difference')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('t2d-device')).toHaveText('webgpu')
  const f16 = adapter.features.includes('shader-f16')
  await expect(page.getByTestId('t2d-precision')).toHaveAttribute('data-dtype', f16 ? 'float16' : 'float32')
  await expect(page.getByTestId('t2d-precision')).toHaveText(
    f16 ? 'float16: This WebGPU adapter has shader-f16: float16 weights (half the GPU memory) and float16 MatMuls.' : 'float32: This WebGPU adapter lacks shader-f16, so it computes in float32.',
  )
  await expect(page.getByTestId('t2d-gpu-weights')).toHaveText(/^\d+ buffers, ([\d.]+ [MG]B|\d+ bytes), uploaded once at load$/)
  const difference = Number(await page.getByTestId('t2d-difference').getAttribute('data-max-abs-diff'))
  expect(difference).toBeLessThan(f16 ? 5e-2 : 1e-3)
  await page.screenshot({ path: '.tmp/screens/transformer2d-webgpu-side-by-side.png', fullPage: true })
  expect(errors).toEqual([])
})

test('the size check refuses, on this adapter\'s real buffer limit, a model whose largest weight is over it', async ({ page, baseURL }) => {
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/transformer2d')
  const adapter = await requireAdapter(page)
  const accessToken = await createToken(page, `t2d-gpu-fit-${Date.now()}`, 'Write')
  const name = `alice/t2d-over-gpu-limit-${Date.now()}`
  // PixArt-XL-2 with a caption projection wide enough that this one weight passes the adapter's buffer limit
  // (SwiftShader's 1 GiB: 248832 → 1152, 1.15 GB in float32). Only config.json is uploaded; the check reads nothing else.
  const config = JSON.parse(readFileSync('public/models/transformer2d/pixart-xl-2-512/config.json', 'utf8'))
  const f16 = adapter.features.includes('shader-f16')
  const captionChannels = (Math.floor(adapter.limit / (1152 * (f16 ? 2 : 4)) / 1024) + 16) * 1024
  await createRepo({ repo: name, accessToken, hubUrl: baseURL!, private: true })
  await uploadFiles({ repo: name, accessToken, hubUrl: baseURL!, files: [{ path: 'transformer/config.json', content: new Blob([JSON.stringify({ ...config, caption_channels: captionChannels })]) }] })
  try {
    await page.goto('/transformer2d')
    await page.getByLabel(/^Model repo/).fill(name)
    await page.getByRole('button', { name: 'Check size' }).click()
    const need = (captionChannels * 1152 * (f16 ? 2 : 4)) / 1e9
    await expect(page.getByTestId('t2d-fit-webgpu')).toHaveAttribute('data-fits', 'false')
    await expect(page.getByTestId('t2d-fit-webgpu')).toHaveText(
      `Does not fit on this WebGPU adapter: its largest${f16 ? ' float16' : ''} weight takes ${need.toFixed(2)} GB, over the adapter's ${(adapter.limit / 1e9).toFixed(2)} GB buffer limit.`,
    )
    await expect(page.getByTestId('t2d-fit-precision')).toHaveText(f16 ? /^On WebGPU it would compute in float16\./ : 'On WebGPU it would compute in float32. This WebGPU adapter lacks shader-f16, so it computes in float32.')
    await page.getByTestId('t2d-fit').scrollIntoViewIfNeeded()
    await page.screenshot({ path: '.tmp/screens/transformer2d-fit-over-gpu-limit.png', fullPage: true })
  } finally {
    await deleteRepo({ repo: name, accessToken, hubUrl: baseURL! })
  }
})

/** SHA-256 of each graph a runtime is handed. */
function recording(runtime: InferenceRuntime, graphs: string[]): InferenceRuntime {
  return { ...runtime, createSession: (model) => (graphs.push(createHash('sha256').update(model).digest('hex')), runtime.createSession(model)) }
}

test('the browser\'s float16 graph is the one the server builds: the same bytes, and on WASM the server\'s output', async ({ page }) => {
  await openReplay(page)
  for (const name of ['cont_sd15_like', 'pixart_ada_norm_single_addcond']) {
    const c = goldenCases().find((g) => g.name === name)!
    const request = replayRequest(c, { device: 'wasm', dtype: 'float16' })
    const browser = await replayOnce(page, request)
    expect(browser.loaded).toMatchObject({ device: 'wasm', dtype: 'float16' })
    // The server path (onnxruntime-node, dtype float16) on the same config and weights.
    const files: CheckpointFiles = {
      location: name,
      readBytes: async (file) =>
        file === 'config.json' ? new TextEncoder().encode(JSON.stringify(request.config)) : file === 'diffusion_pytorch_model.safetensors' ? new Uint8Array(readFileSync(path.join(caseDir(c), 'weights.safetensors'))) : null,
    }
    const graphs: string[] = []
    const server = await Transformer2DModel.fromFiles(files, recording(nodeRuntime({ threads: 1 }), graphs), { dtype: 'float16' })
    const [sample] = await server.forward({ ...goldenForwardArgs(c), return_dict: false })
    await server.dispose()
    expect(browser.graphs, name).toEqual(graphs)
    // The same float16 graph on two builds of onnxruntime's CPU kernels: float32 rounding apart.
    expect(relativeError(browser.data, sample.data), name).toBeLessThan(1e-5)
    // And float16, not float32: within the stated tolerance of the reference, not identical to float32's output.
    const expected = readTensors(path.join(caseDir(c), 'outputs.safetensors')).get('sample')!.data as Float32Array
    expect(relativeError(browser.data, expected), name).toBeLessThan(2e-3)
    expect(relativeError(browser.data, expected), name).toBeGreaterThan(1e-5)
  }
})
