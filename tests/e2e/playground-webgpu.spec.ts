// The playground on Chromium's software WebGPU adapter (SwiftShader, enabled by
// --enable-unsafe-webgpu): the ONNX checks run on WebGPU and give the same answers as on WASM.
import { expect, test } from '@playwright/test'
import { PLAYGROUND_CHECKS, type CheckPath } from '@/lib/moderation/browser/catalog'
import { AGREEMENT_TOLERANCE, compareAnswers } from '@/lib/moderation/browser/compare'
import { EXAMPLES } from '@/app/playground/examples'
import { answerOf, choose, runChecks, type SideAnswer } from './playground-helpers'

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-webgpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1'],
  },
})

test('ONNX checks on the SwiftShader WebGPU adapter agree with WASM', async ({ page }) => {
  test.setTimeout(300_000)
  await page.goto('/playground')
  await expect(page.getByTestId('webgpu-adapter')).not.toHaveText(/Looking for/)
  const adapter = (await page.getByTestId('webgpu-adapter').textContent()) ?? ''
  test.skip(!/WebGPU adapter:/.test(adapter), `this Chromium offers no WebGPU adapter even with --enable-unsafe-webgpu (${adapter})`)

  // The checks whose browser engine is an ONNX graph (neural or offline), as the page lists them.
  const onnxChecks: CheckPath[] = []
  for (const check of PLAYGROUND_CHECKS) {
    const plan = await page.getByTestId(`plan-${check.path}`).textContent()
    if (/browser: (neural:|offline:(?!vader|presidio|unicodedata))/.test(plan ?? '')) onnxChecks.push(check.path)
  }
  test.skip(onnxChecks.length === 0, 'no ONNX engine is browser-ready on this hub yet')

  const text = EXAMPLES.find((e) => e.label === 'Prompt injection')!.text
  const answers: Record<'webgpu' | 'wasm', Partial<Record<CheckPath, SideAnswer>>> = { webgpu: {}, wasm: {} }
  for (const device of ['webgpu', 'wasm'] as const) {
    await choose(page, { text, checks: onnxChecks, mode: 'browser', device })
    await runChecks(page, 240_000)
    for (const check of onnxChecks) answers[device][check] = await answerOf(page, check, 'browser')
  }
  const onGpu: CheckPath[] = []
  for (const check of onnxChecks) {
    const gpu = answers.webgpu[check]!
    const cpu = answers.wasm[check]!
    expect(cpu, check).toMatchObject({ kind: 'answer', device: 'wasm' })
    expect(gpu, check).toMatchObject({ kind: 'answer' })
    if (gpu.kind !== 'answer' || cpu.kind !== 'answer') continue
    if (gpu.device === 'webgpu') onGpu.push(check)
    // A model whose WebGPU outputs disagree with WASM on this adapter is moved to WASM, and says so.
    else expect(gpu.note, check).toMatch(/differ from WASM's on this adapter/)
    const difference = compareAnswers(gpu.body, cpu.body)
    expect(difference.mismatches, check).toEqual([])
    expect(difference.maxAbsDifference, check).toBeLessThanOrEqual(AGREEMENT_TOLERANCE)
  }
  console.log(`on WebGPU: ${onGpu.join(', ')}; moved to WASM: ${onnxChecks.filter((c) => !onGpu.includes(c)).join(', ') || 'none'}`)
  expect(onGpu.length, 'at least one ONNX check runs on the WebGPU adapter').toBeGreaterThan(0)
  await expect(page.getByTestId(`result-${onnxChecks[0]}`).getByTestId('browser-device')).toHaveText('WASM')
})
