import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_JSON_BYTES, parseSafetensors, readConfig, readStateDict, toFloat32, Transformer2DError, type CheckpointFiles, type FloatTensor } from '@/lib/transformer2d'
import { directoryFiles, nodeRuntime, Transformer2DModel } from '@/lib/transformer2d/node'
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

/** A sharded copy of a golden checkpoint: two shards and the index, as diffusers writes them. */
function writeShardedFolder(c: GoldenCase, name: string): { dir: string; shards: string[]; weightMap: Record<string, string> } {
  const dir = writeDiffusersFolder(c, 'F32', name)
  rmSync(path.join(dir, 'diffusion_pytorch_model.safetensors'))
  const weights = [...goldenWeights(c)]
  const half = Math.ceil(weights.length / 2)
  const shards = ['diffusion_pytorch_model-00001-of-00002.safetensors', 'diffusion_pytorch_model-00002-of-00002.safetensors']
  const weightMap: Record<string, string> = {}
  ;[weights.slice(0, half), weights.slice(half)].forEach((part, i) => {
    writeFileSync(path.join(dir, shards[i]), encodeSafetensors(new Map(part), 'F32'))
    for (const [key] of part) weightMap[key] = shards[i]
  })
  writeIndex(dir, weightMap)
  return { dir, shards, weightMap }
}

function writeIndex(dir: string, weightMap: Record<string, string>): void {
  writeFileSync(path.join(dir, 'diffusion_pytorch_model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map: weightMap }))
}

/** A safetensors file from a raw header (for dtypes and offsets the writer would never produce). */
function rawSafetensors(header: Record<string, unknown>, dataBytes: number): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header))
  const out = new Uint8Array(8 + json.length + dataBytes)
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true)
  out.set(json, 8)
  return out
}

async function loadError(dir: string): Promise<Transformer2DError> {
  const error = await Transformer2DModel.fromPretrained(dir, { threads: 1 }).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Transformer2DError)
  expect((error as Transformer2DError).kind).toBe('checkpoint')
  return error as Transformer2DError
}

describe('broken checkpoints fail with the file and the numbers named', () => {
  const pixart = byName('pixart_ada_norm_single_addcond')

  it('a shard the index names is missing', async () => {
    const { dir, shards } = writeShardedFolder(pixart, 'missing-shard')
    rmSync(path.join(dir, shards[1]))
    expect((await loadError(dir)).message).toBe(`${dir}/diffusion_pytorch_model.safetensors.index.json names shard ${shards[1]} (2 of 2), which is missing from ${dir}.`)
  })

  it('the index maps a weight to a shard that does not hold it', async () => {
    const { dir, shards, weightMap } = writeShardedFolder(pixart, 'index-disagrees')
    writeIndex(dir, { ...weightMap, 'proj_out.weight': weightMap['proj_out.weight'] === shards[0] ? shards[1] : shards[0] })
    expect((await loadError(dir)).message).toMatch(/holds weight "proj_out.weight" but .*index.json maps it to diffusion_pytorch_model-0000\d-of-00002.safetensors: the shards and the index disagree/)
  })

  it('a shard holds a weight the index does not list', async () => {
    const { dir, weightMap } = writeShardedFolder(pixart, 'index-incomplete')
    const { ['scale_shift_table']: _dropped, ...rest } = weightMap
    writeIndex(dir, rest)
    expect((await loadError(dir)).message).toMatch(/holds weight "scale_shift_table" but .*index.json does not list it/)
  })

  it('the index names a file outside the folder', async () => {
    const { dir, weightMap } = writeShardedFolder(pixart, 'index-escapes')
    writeIndex(dir, { ...weightMap, 'proj_out.weight': '../elsewhere.safetensors' })
    expect((await loadError(dir)).message).toMatch(/maps "proj_out.weight" to "..\/elsewhere.safetensors", which is not a file name in the same folder/)
  })

  it('a truncated shard', async () => {
    const { dir, shards } = writeShardedFolder(pixart, 'truncated')
    const file = path.join(dir, shards[0])
    const bytes = readFileSync(file)
    writeFileSync(file, bytes.subarray(0, bytes.length - 100))
    expect((await loadError(dir)).message).toMatch(
      new RegExp(`${shards[0]} is not a valid safetensors file: tensor ".*" ends at data byte \\d+ but the file has only \\d+ bytes of data \\(${bytes.length - 100} bytes in all\\): the file is truncated`),
    )
  })

  it('a config.json or sharded index over MAX_JSON_BYTES: the source is asked for at most that, and more is refused', async () => {
    // A source that cannot tell sizes before reading (as app/transformer2d/replay.ts) answers the whole file anyway.
    const asked: Record<string, number | undefined> = {}
    const large = new TextEncoder().encode(`{}${' '.repeat(MAX_JSON_BYTES - 1)}`)
    const files = (name: string): CheckpointFiles => ({
      location: 'memory',
      readBytes: async (file, maxBytes) => {
        asked[file] = maxBytes
        return file === name ? large : file === 'config.json' ? readFileSync(path.join(writeDiffusersFolder(pixart, 'F32', 'json-cap'), 'config.json')) : null
      },
    })
    const error = await readConfig(files('config.json')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Transformer2DError)
    expect((error as Error).message).toBe(`memory/config.json is ${MAX_JSON_BYTES + 1} bytes, more than the ${MAX_JSON_BYTES} bytes this loader reads for it.`)
    const index = 'diffusion_pytorch_model.safetensors.index.json'
    expect(((await readStateDict(files(index)).catch((e: unknown) => e)) as Error).message).toBe(`memory/${index} is ${MAX_JSON_BYTES + 1} bytes, more than the ${MAX_JSON_BYTES} bytes this loader reads for it.`)
    expect(asked).toMatchObject({ 'config.json': MAX_JSON_BYTES, [index]: MAX_JSON_BYTES })
  })

  it('a header length past the end of the file', async () => {
    const dir = writeDiffusersFolder(pixart, 'F32', 'bad-header')
    const file = new Uint8Array(16)
    new DataView(file.buffer).setBigUint64(0, 5000n, true)
    writeFileSync(path.join(dir, 'diffusion_pytorch_model.safetensors'), file)
    expect((await loadError(dir)).message).toMatch(/diffusion_pytorch_model.safetensors is not a valid safetensors file: the header length 5000 runs past the end of the file \(16 bytes\)/)
  })

  it.each([
    ['F8_E4M3', /has dtype F8_E4M3, which this loader cannot read; model weights must be F32, F16, BF16 or F64/],
    ['I32', /Tensor "proj_out.bias" has dtype I32; model weights must be F32, F16, BF16 or F64/],
  ])('a weight of dtype %s', async (dtype, message) => {
    const dir = writeDiffusersFolder(pixart, 'F32', `dtype-${dtype}`)
    const weights = goldenWeights(pixart)
    const bytesPerElement = dtype === 'I32' ? 4 : 1
    const header: Record<string, unknown> = {}
    let offset = 0
    for (const [name, { shape }] of weights) {
      const length = shape.reduce((a, b) => a * b, 1) * (name === 'proj_out.bias' ? bytesPerElement : 4)
      header[name] = { dtype: name === 'proj_out.bias' ? dtype : 'F32', shape, data_offsets: [offset, offset + length] }
      offset += length
    }
    writeFileSync(path.join(dir, 'diffusion_pytorch_model.safetensors'), rawSafetensors(header, offset))
    expect((await loadError(dir)).message).toMatch(message)
  })

  it('not enough memory for the weights: refused before anything is read', async () => {
    const dir = writeDiffusersFolder(pixart, 'F32', 'no-memory')
    const runtime = { ...nodeRuntime({ threads: 1 }), availableMemoryBytes: () => 10_000 }
    const error = await Transformer2DModel.fromFiles(directoryFiles(dir), runtime).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Transformer2DError)
    expect((error as Error).message).toMatch(
      new RegExp(`^Not enough memory to load ${dir}/diffusion_pytorch_model.safetensors: its float32 weights take \\d+ bytes \\([\\d,]+ values\\) but only 10000 bytes are available.$`),
    )
  })

  it('not enough memory in float16: the size is the float16 bytes, the count the same values', async () => {
    const dir = writeDiffusersFolder(pixart, 'F32', 'no-memory-half')
    const runtime = { ...nodeRuntime({ threads: 1 }), availableMemoryBytes: () => 10_000 }
    const message = async (dtype: 'float32' | 'float16') => ((await Transformer2DModel.fromFiles(directoryFiles(dir), runtime, { dtype }).catch((e: unknown) => e)) as Error).message
    const parse = (text: string) => /its (float16|float32) weights take ([\d,]+) bytes \(([\d,]+) values\)/.exec(text)!.slice(1)
    const [kind32, bytes32, values32] = parse(await message('float32'))
    const [kind16, bytes16, values16] = parse(await message('float16'))
    expect([kind32, kind16]).toEqual(['float32', 'float16'])
    expect(values16).toBe(values32)
    expect(Number(bytes16.replace(/,/g, '')) * 2).toBe(Number(bytes32.replace(/,/g, '')))
  })
})

describe('encodeSafetensors (lib: the Transformer2D route\'s answers and the demo models)', () => {
  it('writes what the reader reads back: every dtype the route takes, metadata, sorted names', async () => {
    const lib = await import('@/lib/transformer2d')
    const tensors = new Map<string, { dtype: 'F32' | 'F64' | 'I64' | 'I32' | 'BOOL'; shape: number[]; data: ArrayBufferView }>([
      ['z', { dtype: 'F32', shape: [2, 2], data: Float32Array.of(1.5, -2, 3.25, 0) }],
      ['a', { dtype: 'I64', shape: [3], data: BigInt64Array.of(1n, -2n, 2n ** 40n) }],
      ['m', { dtype: 'BOOL', shape: [1, 3], data: Uint8Array.of(1, 0, 1) }],
      ['d', { dtype: 'F64', shape: [], data: Float64Array.of(Math.PI) }],
      ['i', { dtype: 'I32', shape: [2], data: Int32Array.of(-7, 7) }],
    ])
    const bytes = lib.encodeSafetensors(tensors, { repo: 'ns/name' })
    const headerLength = Number(new DataView(bytes.buffer).getBigUint64(0, true))
    expect((8 + headerLength) % 8).toBe(0)
    const file = lib.parseSafetensors(bytes)
    expect(file.metadata).toEqual({ repo: 'ns/name' })
    expect([...file.tensors.keys()]).toEqual(['a', 'd', 'i', 'm', 'z'])
    for (const [name, tensor] of tensors) {
      const read = file.tensors.get(name)!
      expect(read.shape, name).toEqual(tensor.shape)
      expect(Array.from(lib.readTensorData(read, name) as ArrayLike<number | bigint>), name).toEqual(Array.from(tensor.data as unknown as ArrayLike<number | bigint>))
    }
    // The same bytes as the tests' own writer for a float32 file without metadata.
    const f32 = new Map([['w', { shape: [2, 2], data: Float32Array.of(1, 2, 3, 4) }], ['b', { shape: [2], data: Float32Array.of(5, 6) }]])
    expect(lib.encodeSafetensors(new Map([...f32].sort(([x], [y]) => x.localeCompare(y)).map(([n, t]) => [n, { dtype: 'F32' as const, ...t }])))).toEqual(
      encodeSafetensors(new Map([...f32].sort(([x], [y]) => x.localeCompare(y))), 'F32'),
    )
  })

  it('refuses data that does not hold the shape', async () => {
    const lib = await import('@/lib/transformer2d')
    expect(() => lib.encodeSafetensors(new Map([['x', { dtype: 'F32', shape: [3], data: new Float32Array(2) }]]))).toThrow('x: 8 bytes do not hold shape [3] of F32.')
  })
})
