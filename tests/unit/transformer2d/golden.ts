/** Reads the shared golden cases (../shared/golden/transformer2d) in place; nothing is copied into the repo. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseSafetensors, readTensorData, type ForwardArgs, type TensorLike } from '@/lib/transformer2d'

export const GOLDEN_DIR = path.resolve(import.meta.dirname, '../../../../shared/golden/transformer2d')

export interface GoldenInput {
  name: string
  dtype: string
  shape: number[]
  stored_as?: string
}

export interface GoldenCase {
  name: string
  dir: string
  input_mode: string
  constructor_kwargs: Record<string, unknown>
  inputs: GoldenInput[]
  forward_kwargs: Record<string, unknown>
  output: { name: string; shape: number[] }
  recommended_tolerance: { atol: number; rtol: number }
}

export function goldenCases(): GoldenCase[] {
  return JSON.parse(readFileSync(path.join(GOLDEN_DIR, 'manifest.json'), 'utf8')).cases
}

export interface ErrorProbe {
  case: string
  stage: 'constructor' | 'forward'
  kwargs: Record<string, unknown>
  raises: string | null
  message?: string
}

export function errorProbes(): ErrorProbe[] {
  return JSON.parse(readFileSync(path.join(GOLDEN_DIR, 'errors.json'), 'utf8')).cases
}

export function caseDir(c: GoldenCase): string {
  return path.join(GOLDEN_DIR, c.dir)
}

export function readTensors(file: string): Map<string, TensorLike> {
  const parsed = parseSafetensors(new Uint8Array(readFileSync(file)), file)
  const out = new Map<string, TensorLike>()
  for (const [name, t] of parsed.tensors) out.set(name, { data: readTensorData(t, name), dims: t.shape })
  return out
}

/** Assembles forward() arguments from manifest.json's forward_kwargs, as the golden README describes. */
export function goldenForwardArgs(c: GoldenCase): ForwardArgs {
  const stored = readTensors(path.join(caseDir(c), 'inputs.safetensors'))
  const tensor = (name: string): TensorLike => {
    const t = stored.get(name)
    const meta = c.inputs.find((i) => i.name === name)
    if (!t || !meta) throw new Error(`${c.name}: no input ${name}`)
    // Scalars are stored as [1]; the manifest gives the shape diffusers received.
    return { data: t.data, dims: meta.shape }
  }
  const args: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(c.forward_kwargs)) {
    if (typeof value === 'string') args[key] = tensor(value)
    else if (value && typeof value === 'object' && 'value' in value) args[key] = (value as { value: unknown }).value
    else if (value && typeof value === 'object' && 'cast' in value) {
      const t = tensor((value as unknown as { input: string }).input)
      args[key] = { data: Uint8Array.from(t.data as BigInt64Array, (v) => (v !== 0n ? 1 : 0)), dims: t.dims, type: 'bool' }
    } else if (value && typeof value === 'object') {
      args[key] = Object.fromEntries(Object.entries(value).map(([k, name]) => [k, tensor(name as string)]))
    }
  }
  return args as unknown as ForwardArgs
}

export interface Comparison {
  maxAbsDiff: number
  /** Elements outside |a − b| ≤ atol + rtol·|b|. */
  violations: number
}

export function compare(actual: ArrayLike<number>, expected: ArrayLike<number>, atol: number, rtol: number): Comparison {
  if (actual.length !== expected.length) throw new Error(`length ${actual.length} != ${expected.length}`)
  let maxAbsDiff = 0
  let violations = 0
  for (let i = 0; i < actual.length; i++) {
    const diff = Math.abs(actual[i] - expected[i])
    if (!(diff <= atol + rtol * Math.abs(expected[i]))) violations++
    if (!(diff <= maxAbsDiff)) maxAbsDiff = diff
  }
  return { maxAbsDiff, violations }
}

/** Largest |a − b| relative to the largest |b|: one number for "how far from the reference", whatever the scale. */
export function relativeError(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  let diff = 0
  let scale = 0
  for (let i = 0; i < expected.length; i++) {
    diff = Math.max(diff, Math.abs(actual[i] - expected[i]))
    scale = Math.max(scale, Math.abs(expected[i]))
  }
  return diff / scale
}
