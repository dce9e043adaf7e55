// Golden cases (read from ../shared/golden in the test process) handed to the /transformer2d page's replay hook.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import type { ReplayLoaded, ReplayRequest, SerializedTensor } from '@/app/transformer2d/replay'
import type { GpuWeightStats } from '@/lib/transformer2d/browser'
import { caseDir, goldenForwardArgs, type GoldenCase } from '../unit/transformer2d/golden'

export function serialize(t: { data: ArrayBufferView; dims: readonly number[]; type?: string }): SerializedTensor {
  const type = t.type === 'bool' ? 'bool' : t.data instanceof BigInt64Array ? 'int64' : 'float32'
  const bytes = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength)
  return { type, dims: [...t.dims], base64: bytes.toString('base64') }
}

export function replayRequest(c: GoldenCase, options: Pick<ReplayRequest, 'device' | 'dtype' | 'gpuWeights'> = {}): ReplayRequest {
  const args: ReplayRequest['args'] = {}
  for (const [key, value] of Object.entries(goldenForwardArgs(c))) {
    if (typeof value !== 'object' || value === null) args[key] = value as number | boolean
    else if ('dims' in value) args[key] = serialize(value as { data: ArrayBufferView; dims: number[] })
    else args[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, serialize(v as { data: ArrayBufferView; dims: number[] })]))
  }
  const config = JSON.parse(readFileSync(path.join(caseDir(c), 'config.json'), 'utf8')).registered_config
  return { config, weights: readFileSync(path.join(caseDir(c), 'weights.safetensors')).toString('base64'), args, ...options }
}

/** Opens /transformer2d and waits for its replay hook. */
export async function openReplay(page: Page): Promise<void> {
  await page.goto('/transformer2d')
  await page.waitForFunction(() => window.transformer2dReplay !== undefined)
}

export const replayLoad = (page: Page, request: ReplayRequest): Promise<ReplayLoaded> => page.evaluate((r) => window.transformer2dReplay!.load(r), request)
export const replayForward = (page: Page): Promise<{ dims: number[]; data: number[]; gpuWeights: GpuWeightStats; graphs: string[] }> => page.evaluate(() => window.transformer2dReplay!.forward())
export const replayDispose = (page: Page): Promise<GpuWeightStats> => page.evaluate(() => window.transformer2dReplay!.dispose())

/** Load, one forward, dispose: the output of a golden case in the page. */
export async function replayOnce(page: Page, request: ReplayRequest): Promise<{ loaded: ReplayLoaded; dims: number[]; data: number[]; graphs: string[] }> {
  const loaded = await replayLoad(page, request)
  try {
    const { dims, data, graphs } = await replayForward(page)
    return { loaded, dims, data, graphs }
  } finally {
    await replayDispose(page)
  }
}
