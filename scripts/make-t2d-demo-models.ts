/**
 * Writes the Transformer2DModel demo models that the /transformer2d page loads: public/models/transformer2d/
 * {continuous,discrete}/ with config.json + diffusion_pytorch_model.safetensors (float32, diffusers layout).
 *
 *   npx tsx scripts/make-t2d-demo-models.ts [out dir]      (default public/models/transformer2d)
 *
 * The weights are seeded random numbers, not a trained model, and the output is deterministic: rerunning the
 * script reproduces the committed files byte for byte.
 *
 * - Keys and shapes come from the graph builder itself (the keys lib/transformer2d/checkpoint.ts reads for the
 *   config), so the files always fit the port.
 * - One LCG stream per model (Numerical Recipes constants, the generator tests/unit/transformer2d/random-weights.ts
 *   uses), drawn tensor by tensor in the order the graph builder asks for them.
 * - Projection and embedding weights: uniform in ±√3/√fan-in (standard deviation 1/√fan-in, fan-in = the product
 *   of all dimensions but the first); biases: uniform in ±0.1; 1-D norm weights: 1 ± 0.1.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { buildTransformer2DGraph, defaultSignature, encodeSafetensors, resolveConfig } from '@/lib/transformer2d'

interface DemoModel {
  folder: string
  seed: number
  /** Keys that differ from diffusers' defaults (DEFAULT_CONFIG fills in the rest). */
  config: Record<string, unknown>
}

const DEMO_MODELS: readonly DemoModel[] = [
  {
    folder: 'continuous',
    seed: 20250,
    config: { num_attention_heads: 4, attention_head_dim: 8, in_channels: 8, norm_num_groups: 4, cross_attention_dim: 16 },
  },
  {
    folder: 'discrete',
    seed: 20248,
    config: {
      num_attention_heads: 4,
      attention_head_dim: 8,
      cross_attention_dim: 16,
      attention_bias: true,
      sample_size: 16,
      num_vector_embeds: 17,
      activation_fn: 'geglu-approximate',
      num_embeds_ada_norm: 100,
      norm_type: 'ada_norm',
    },
  },
]

/** 32-bit LCG (a = 1664525, c = 1013904223); each draw is uniform in [0, 1). */
function lcg(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

function initialValues(name: string, shape: readonly number[], random: () => number): Float32Array {
  const size = shape.reduce((a, b) => a * b, 1)
  const symmetric = () => 2 * random() - 1
  if (name.endsWith('.bias')) return Float32Array.from({ length: size }, () => 0.1 * symmetric())
  if (shape.length === 1) return Float32Array.from({ length: size }, () => 1 + 0.1 * symmetric())
  const fanIn = shape.slice(1).reduce((a, b) => a * b, 1)
  const bound = Math.sqrt(3 / fanIn)
  return Float32Array.from({ length: size }, () => bound * symmetric())
}

/** The model's state dict: every key the graph builder takes, in that order, filled from one seeded stream. */
function demoStateDict(model: DemoModel): Map<string, { shape: number[]; data: Float32Array }> {
  const resolved = resolveConfig(model.config)
  const random = lcg(model.seed)
  const tensors = new Map<string, { shape: number[]; data: Float32Array }>()
  for (const { key, keyShape } of buildTransformer2DGraph(resolved, { kind: 'inputs' }, defaultSignature(resolved)).slots) {
    if (!tensors.has(key)) tensors.set(key, { shape: [...keyShape], data: initialValues(key, keyShape, random) })
  }
  return tensors
}

function main(argv: string[]): void {
  const outDir = argv[0] ?? path.join('public', 'models', 'transformer2d')
  for (const model of DEMO_MODELS) {
    const dir = path.join(outDir, model.folder)
    mkdirSync(dir, { recursive: true })
    const config = { _class_name: 'Transformer2DModel', _diffusers_version: '0.37.0', ...resolveConfig(model.config).config }
    writeFileSync(path.join(dir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`)
    const weights = encodeSafetensors(new Map([...demoStateDict(model)].map(([name, { shape, data }]) => [name, { dtype: 'F32' as const, shape, data }])))
    writeFileSync(path.join(dir, 'diffusion_pytorch_model.safetensors'), weights)
    console.log(`wrote ${dir}: ${weights.length} bytes of weights`)
  }
}

main(process.argv.slice(2))
