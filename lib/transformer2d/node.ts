/** Node entry point: Transformer2DModel with fromPretrained(dir) over the file system and onnxruntime-node. */
import { existsSync } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { CheckpointFiles, CheckpointOptions, RandomAccessFile } from './checkpoint'
import { Transformer2DError } from './errors'
import { hubFiles, isRepoId, type HubLoadOptions } from './hub'
import { Transformer2DModelBase, type ModelOptions } from './model'
import { nodeRuntime, type NodeRuntimeOptions } from './runtime/node'

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}

async function openRandomAccess(file: string): Promise<RandomAccessFile | null> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    if (isMissing(error)) return null
    throw error
  }
  const { size } = await handle.stat()
  return {
    size,
    async read(offset, length) {
      const bytes = new Uint8Array(length)
      let done = 0
      while (done < length) {
        const { bytesRead } = await handle.read(bytes, done, length - done, offset + done)
        if (bytesRead === 0) {
          throw new Transformer2DError('checkpoint', `${file} ended at byte ${offset + done} while reading ${length} bytes from byte ${offset} (the file is ${size} bytes): it was truncated or changed while loading.`)
        }
        done += bytesRead
      }
      return bytes
    },
    close: () => handle.close(),
  }
}

export function directoryFiles(dir: string): CheckpointFiles {
  return {
    location: dir,
    open: (name) => openRandomAccess(path.join(dir, name)),
    async readBytes(name) {
      try {
        return new Uint8Array(await readFile(path.join(dir, name)))
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },
  }
}

export type NodeLoadOptions = ModelOptions & CheckpointOptions & NodeRuntimeOptions & HubLoadOptions

export class Transformer2DModel extends Transformer2DModelBase {
  /**
   * Loads a diffusers model: config.json + diffusion_pytorch_model.safetensors (or sharded, fp16/bf16)
   * from a folder, or, when `nameOrDir` is no folder here but a repo id, from that Hub repo
   * (`hubUrl`, `revision`, `subfolder`, `accessToken`), as diffusers' from_pretrained decides.
   */
  static async fromPretrained(nameOrDir: string, options: NodeLoadOptions = {}): Promise<Transformer2DModel> {
    const files = existsSync(nameOrDir) || !isRepoId(nameOrDir)
      ? directoryFiles(options.subfolder ? path.join(nameOrDir, options.subfolder) : nameOrDir)
      : hubFiles(nameOrDir, options)
    return Transformer2DModel.fromFiles(files, nodeRuntime(options), options)
  }

  /** Loads an .onnx file written by `exportOnnx` (or `npm run t2d:export`). */
  static async fromOnnxFile(file: string, options: ModelOptions & NodeRuntimeOptions = {}): Promise<Transformer2DModel> {
    return Transformer2DModel.fromOnnx(new Uint8Array(await readFile(file)), nodeRuntime(options), options)
  }
}

export { nodeRuntime } from './runtime/node'
export { nodeWorkerRuntime, type NodeWorkerRuntimeOptions } from './runtime/node-worker'
export * from './index'
