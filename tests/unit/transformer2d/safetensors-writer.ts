/** Writes safetensors files for tests (fp16/bf16 copies and shards of golden checkpoints, large generated checkpoints). */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs'
import path from 'node:path'
import { floatBitsToHalf } from '@/lib/transformer2d/half'

export type WriteDtype = 'F32' | 'F16' | 'BF16'

/** float32 (given as its bits) → bfloat16, round to nearest even (torch's .bfloat16()). */
function floatToBfloat16(x: number): number {
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff
}

export function encodeSafetensors(tensors: Map<string, { shape: readonly number[]; data: Float32Array }>, dtype: WriteDtype): Uint8Array {
  const header: Record<string, unknown> = {}
  const chunks: Uint8Array[] = []
  let offset = 0
  for (const [name, { shape, data }] of tensors) {
    const bytes = encodeValues(data, dtype)
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes.length] }
    chunks.push(bytes)
    offset += bytes.length
  }
  const headerBytes = encodeHeader(header)
  const out = new Uint8Array(8 + headerBytes.length + offset)
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true)
  out.set(headerBytes, 8)
  let pos = 8 + headerBytes.length
  for (const chunk of chunks) {
    out.set(chunk, pos)
    pos += chunk.length
  }
  return out
}

function encodeValues(data: Float32Array, dtype: WriteDtype): Uint8Array {
  if (dtype === 'F32') return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength))
  // A plain loop over the bits: a mapping callback per value takes minutes on a 600 M-value checkpoint.
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length)
  const out = new Uint16Array(data.length)
  const convert = dtype === 'F16' ? floatBitsToHalf : floatToBfloat16
  for (let i = 0; i < bits.length; i++) out[i] = convert(bits[i])
  return new Uint8Array(out.buffer)
}

/** The JSON header padded with spaces to a multiple of 8 bytes (with the length prefix), as safetensors writes it. */
function encodeHeader(header: Record<string, unknown>): Uint8Array {
  let json = JSON.stringify(header)
  json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8)
  return new TextEncoder().encode(json)
}

const BYTES: Record<WriteDtype, number> = { F32: 4, F16: 2, BF16: 2 }

export interface ShardedWrite {
  /** Tensors in file order; `values` makes one tensor's data when it is written, so only one is in memory at a time. */
  tensors: readonly { key: string; shape: readonly number[] }[]
  values: (key: string, shape: readonly number[]) => Float32Array
  dtype: WriteDtype
  /** diffusers' variant ("fp16"): shard and index names get it as diffusers writes them. */
  variant?: string
  /** Start a new shard when one would pass this many bytes (diffusers' max_shard_size). */
  maxShardBytes: number
}

/**
 * Writes a sharded diffusers checkpoint into `dir`: `diffusion_pytorch_model[.variant]-0000i-of-0000n.safetensors` and
 * `diffusion_pytorch_model.safetensors.index[.variant].json`, streaming tensor by tensor. Returns the shard names.
 */
export function writeShardedCheckpoint(dir: string, write: ShardedWrite): string[] {
  const shards: { key: string; shape: readonly number[] }[][] = [[]]
  let shardBytes = 0
  for (const tensor of write.tensors) {
    const bytes = tensor.shape.reduce((a, b) => a * b, 1) * BYTES[write.dtype]
    if (shardBytes > 0 && shardBytes + bytes > write.maxShardBytes) {
      shards.push([])
      shardBytes = 0
    }
    shards[shards.length - 1].push(tensor)
    shardBytes += bytes
  }
  const stem = write.variant ? `diffusion_pytorch_model.${write.variant}` : 'diffusion_pytorch_model'
  const pad = (n: number) => String(n).padStart(5, '0')
  const names = shards.map((_, i) => `${stem}-${pad(i + 1)}-of-${pad(shards.length)}.safetensors`)
  const weightMap: Record<string, string> = {}
  let totalSize = 0
  shards.forEach((tensors, i) => {
    const header: Record<string, unknown> = {}
    let offset = 0
    for (const { key, shape } of tensors) {
      const length = shape.reduce((a, b) => a * b, 1) * BYTES[write.dtype]
      header[key] = { dtype: write.dtype, shape, data_offsets: [offset, offset + length] }
      offset += length
      weightMap[key] = names[i]
    }
    totalSize += offset
    const headerBytes = encodeHeader(header)
    const fd = openSync(path.join(dir, names[i]), 'w')
    try {
      const prefix = new Uint8Array(8)
      new DataView(prefix.buffer).setBigUint64(0, BigInt(headerBytes.length), true)
      writeSync(fd, prefix)
      writeSync(fd, headerBytes)
      for (const { key, shape } of tensors) writeSync(fd, encodeValues(write.values(key, shape), write.dtype))
    } finally {
      closeSync(fd)
    }
  })
  const indexName = write.variant ? `diffusion_pytorch_model.safetensors.index.${write.variant}.json` : 'diffusion_pytorch_model.safetensors.index.json'
  writeFileSync(path.join(dir, indexName), JSON.stringify({ metadata: { total_size: totalSize }, weight_map: weightMap }, null, 2))
  return names
}
