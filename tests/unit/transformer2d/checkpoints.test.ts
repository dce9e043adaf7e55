import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseSafetensors, toFloat32, Transformer2DError, type FloatTensor } from '@/lib/transformer2d'
import { Transformer2DModel } from '@/lib/transformer2d/node'
import { caseDir, compare, goldenCases, goldenForwardArgs, readTensors, type GoldenCase } from './golden'
import { encodeSafetensors, type WriteDtype } from './safetensors-writer'

const temp = mkdtempSync(path.join(tmpdir(), 't2d-checkpoints-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))

const byName = (name: string): GoldenCase => goldenCases().find((c) => c.name === name)!

function goldenWeights(c: GoldenCase): Map<string, { shape: number[]; data: Float32Array }> {
  const parsed = parseSafetensors(new Uint8Array(readFileSync(path.join(caseDir(c), 'weights.safetensors'))))
  return new Map([...parsed.tensors].map(([name, t]) => [name, { shape: t.shape, data: toFloat32(t, name) }]))
}

function goldenSample(c: GoldenCase): Float32Array {
  return readTensors(path.join(caseDir(c), 'outputs.safetensors')).get('sample')!.data as Float32Array
}

/** A diffusers folder: config.json (plain diffusers form) + diffusion_pytorch_model.safetensors in `dtype`. */
function writeDiffusersFolder(c: GoldenCase, dtype: WriteDtype, name: string): string {
  const dir = path.join(temp, name)
  const config = JSON.parse(readFileSync(path.join(caseDir(c), 'config.json'), 'utf8')).registered_config
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ _class_name: 'Transformer2DModel', _diffusers_version: '0.37.0', ...config }))
  writeFileSync(path.join(dir, 'diffusion_pytorch_model.safetensors'), encodeSafetensors(goldenWeights(c), dtype))
  return dir
}

async function run(dir: string, c: GoldenCase): Promise<FloatTensor> {
  const model = await Transformer2DModel.fromPretrained(dir, { threads: 1 })
  try {
    return ((await model.forward({ ...goldenForwardArgs(c), return_dict: true })) as { sample: FloatTensor }).sample
  } finally {
    await model.dispose()
  }
}

describe('checkpoint formats', () => {
  it.each(['F16', 'BF16'] as const)('loads a %s checkpoint as float32 weights and runs it', async (dtype) => {
    const c = byName('dit_ada_norm_zero')
    const dir = writeDiffusersFolder(c, dtype, `dit-${dtype}`)
    const sample = await run(dir, c)
    // Rounding the weights to 16 bits moves the output a little, not a lot.
    const { maxAbsDiff } = compare(sample.data, goldenSample(c), 0, 0)
    expect(maxAbsDiff).toBeGreaterThan(0)
    expect(maxAbsDiff).toBeLessThan(dtype === 'F16' ? 2e-2 : 1e-1)
  })

  it('reads fp16 values exactly (half → float conversion)', () => {
    const c = byName('cont_conv_self')
    const weights = goldenWeights(c)
    const parsed = parseSafetensors(encodeSafetensors(weights, 'F16'))
    for (const [name, { data }] of weights) {
      const half = toFloat32(parsed.tensors.get(name)!, name)
      for (let i = 0; i < data.length; i++) expect(Math.abs(half[i] - data[i])).toBeLessThanOrEqual(Math.abs(data[i]) * 2 ** -11 + 2 ** -24)
    }
  })

  it('loads a sharded checkpoint (index.json + shards) with the same result as the single file', async () => {
    const c = byName('pixart_ada_norm_single_addcond')
    const dir = writeDiffusersFolder(c, 'F32', 'pixart-sharded')
    rmSync(path.join(dir, 'diffusion_pytorch_model.safetensors'))
    const weights = [...goldenWeights(c)]
    const half = Math.ceil(weights.length / 2)
    const shards = [weights.slice(0, half), weights.slice(half)]
    const weightMap: Record<string, string> = {}
    shards.forEach((shard, i) => {
      const file = `diffusion_pytorch_model-0000${i + 1}-of-00002.safetensors`
      writeFileSync(path.join(dir, file), encodeSafetensors(new Map(shard), 'F32'))
      for (const [name] of shard) weightMap[name] = file
    })
    writeFileSync(path.join(dir, 'diffusion_pytorch_model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map: weightMap }))
    const sample = await run(dir, c)
    const { atol, rtol } = c.recommended_tolerance
    expect(compare(sample.data, goldenSample(c), atol, rtol).violations).toBe(0)
  })

  it('names the missing key when a checkpoint does not fit the config', async () => {
    const c = byName('cont_conv_cross')
    const dir = writeDiffusersFolder(c, 'F32', 'missing-key')
    const weights = goldenWeights(c)
    weights.delete('transformer_blocks.0.attn2.to_k.weight')
    writeFileSync(path.join(dir, 'diffusion_pytorch_model.safetensors'), encodeSafetensors(weights, 'F32'))
    await expect(Transformer2DModel.fromPretrained(dir)).rejects.toThrow(/no weight "transformer_blocks.0.attn2.to_k.weight" \(expected shape \[16,12\]\)/)
  })

  it('names both shapes when a weight has the wrong shape', async () => {
    const c = byName('cont_conv_self')
    const dir = writeDiffusersFolder(c, 'F32', 'wrong-shape')
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'))
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ ...config, use_linear_projection: true }))
    await expect(Transformer2DModel.fromPretrained(dir)).rejects.toThrow(/Weight "proj_in.weight" .* has shape \[16,8,1,1\] but the config needs \[16,8\]/)
  })

  it('reports a folder without weights', async () => {
    const error = await Transformer2DModel.fromPretrained(path.join(temp, 'nowhere')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Transformer2DError)
    expect((error as Error).message).toMatch(/has no config.json/)
  })
})
