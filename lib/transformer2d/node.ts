/** Node entry point: Transformer2DModel with fromPretrained(dir) over the file system and onnxruntime-node. */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { CheckpointFiles, CheckpointOptions } from './checkpoint'
import { Transformer2DModelBase, type ModelOptions } from './model'
import { nodeRuntime, type NodeRuntimeOptions } from './runtime/node'

export function directoryFiles(dir: string): CheckpointFiles {
  return {
    location: dir,
    async readBytes(name) {
      try {
        return new Uint8Array(await readFile(path.join(dir, name)))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
  }
}

export type NodeLoadOptions = ModelOptions & CheckpointOptions & NodeRuntimeOptions

export class Transformer2DModel extends Transformer2DModelBase {
  /** Loads a diffusers model folder: config.json + diffusion_pytorch_model.safetensors (or sharded, fp16/bf16). */
  static async fromPretrained(dir: string, options: NodeLoadOptions = {}): Promise<Transformer2DModel> {
    return Transformer2DModel.fromFiles(directoryFiles(dir), nodeRuntime(options), options)
  }

  /** Loads an .onnx file written by `exportOnnx` (or `npm run t2d:export`). */
  static async fromOnnxFile(file: string, options: ModelOptions & NodeRuntimeOptions = {}): Promise<Transformer2DModel> {
    return Transformer2DModel.fromOnnx(new Uint8Array(await readFile(file)), nodeRuntime(options), options)
  }
}

export { nodeRuntime } from './runtime/node'
export * from './index'
