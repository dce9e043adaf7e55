// dtype 'float16' on onnxruntime-node: float16 weights (half the memory) and the projections' MatMuls in half
// precision, the rest in float32. Its output stays within FLOAT16_TOLERANCE of the float32 model's on the golden
// checkpoints of the continuous and patched modes and on PixArt-α XL-2 shapes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { browserPrecision, Transformer2DError, type FloatTensor, type ForwardArgs } from '@/lib/transformer2d'
import { nodeRuntime, Transformer2DModel } from '@/lib/transformer2d/node'
import { generatedValues, pixArtForwardArgs, pixArtXl2Config, stateDictKeys } from './generated-checkpoint'
import { caseDir, goldenCases, goldenForwardArgs, relativeError } from './golden'
import { writeShardedCheckpoint } from './safetensors-writer'

/**
 * The stated tolerance (README): max |float16 − float32| at most 0.2% of the float32 output's largest magnitude (the
 * golden checkpoints measured 0.7–3.7e-4 of it, the patched ones highest).
 */
const FLOAT16_TOLERANCE = 2e-3

const temp = mkdtempSync(path.join(tmpdir(), 't2d-fp16-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))

async function sample(dir: string, args: ForwardArgs, dtype: 'float32' | 'float16', variant?: string): Promise<FloatTensor> {
  const model = await Transformer2DModel.fromPretrained(dir, { dtype, variant, threads: 2 })
  try {
    return ((await model.forward({ ...args, return_dict: true })) as { sample: FloatTensor }).sample
  } finally {
    await model.dispose()
  }
}

describe("dtype 'float16' on the server", () => {
  it.each(['cont_sd15_like', 'cont_conv_cross_attnmask', 'dit_ada_norm_zero', 'pixart_ada_norm_single_addcond'])('%s stays within the stated tolerance of float32', async (name) => {
    const c = goldenCases().find((g) => g.name === name)!
    const args = goldenForwardArgs(c)
    const [full, half] = [await sample(caseDir(c), args, 'float32'), await sample(caseDir(c), args, 'float16')]
    expect(half.dims).toEqual(full.dims)
    const error = relativeError(half.data, full.data)
    expect(error).toBeLessThan(FLOAT16_TOLERANCE)
    // Half precision did something: the outputs are not bit-identical.
    expect(error).toBeGreaterThan(0)
  })

  it('runs PixArt-α XL-2 shapes (2 layers) from sharded fp16 files within the tolerance', async () => {
    const config = pixArtXl2Config(2)
    const dir = path.join(temp, 'pixart-2')
    mkdirSync(dir)
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config))
    writeShardedCheckpoint(dir, { tensors: stateDictKeys(config), values: generatedValues, dtype: 'F16', variant: 'fp16', maxShardBytes: 40e6 })
    const args = pixArtForwardArgs(7, 12, 4096)
    const [full, half] = [await sample(dir, args, 'float32', 'fp16'), await sample(dir, args, 'float16', 'fp16')]
    expect(relativeError(half.data, full.data)).toBeLessThan(FLOAT16_TOLERANCE)
  })

  it('refuses a dtype it does not know, and float16 where the runtime computes float32 only, before reading a file', async () => {
    const dir = caseDir(goldenCases().find((g) => g.name === 'cont_sd15_like')!)
    await expect(Transformer2DModel.fromPretrained(dir, { dtype: 'bfloat16' as 'float16' })).rejects.toThrow(new Transformer2DError('input', 'dtype "bfloat16" is not one of float32, float16.'))
    // A runtime without float16 (onnxruntime-web on a WebGPU adapter without shader-f16) says why before any file is read.
    const float32Only = { ...nodeRuntime({ threads: 1 }), device: 'webgpu', float16: false, precision: browserPrecision('webgpu', ['timestamp-query']) }
    const read: string[] = []
    const files = { location: dir, readBytes: async (name: string) => (read.push(name), null) }
    await expect(Transformer2DModel.fromFiles(files, float32Only, { dtype: 'float16' })).rejects.toThrow(
      new Transformer2DError(
        'input',
        "dtype float16 runs from a checkpoint on onnxruntime-node's CPU provider, WebAssembly, or a WebGPU adapter with shader-f16; not on this runtime (webgpu): This WebGPU adapter lacks shader-f16, so it computes in float32.",
      ),
    )
    expect(read).toEqual([])
  })
})
