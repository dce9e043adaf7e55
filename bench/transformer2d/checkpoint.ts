/** The benchmark's generated checkpoints on disk, shared by the server bench (run.ts) and the browser bench (browser.ts). */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
// The test suite's checkpoint generator: seeded values per key, written shard by shard in diffusers' layout.
import { generatedValues, stateDictKeys } from '../../tests/unit/transformer2d/generated-checkpoint'
import { writeShardedCheckpoint } from '../../tests/unit/transformer2d/safetensors-writer'
import type { Workload } from './workloads'

/** Generated checkpoints are kept here between runs (about 1.3 GB each). */
export const CHECKPOINT_DIR = path.resolve('.tmp/bench-t2d')

/** Writes the workload's fp16 checkpoint once (config.json + shards + index); later runs reuse it. */
export function ensureCheckpoint(w: Workload, log: (message: string) => void): string {
  const dir = path.join(CHECKPOINT_DIR, w.name)
  const config = JSON.stringify(w.config)
  const marker = path.join(dir, 'complete')
  if (existsSync(marker) && readFileSync(marker, 'utf8') === config) return dir
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  log(`${w.name}: writing an fp16 checkpoint to ${dir}`)
  writeFileSync(path.join(dir, 'config.json'), config)
  writeShardedCheckpoint(dir, { tensors: stateDictKeys(w.config), values: generatedValues, dtype: 'F16', variant: w.checkpoint!.variant, maxShardBytes: w.checkpoint!.maxShardBytes })
  writeFileSync(marker, config)
  return dir
}
