import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readModelMetadata } from '@/lib/onnx'
import { browserPrecision, DEFAULT_CONFIG, oneFileFit, Transformer2DError, WASM_MEMORY_BYTES, wasmFit, webGpuFit, weightNeeds, type FloatTensor } from '@/lib/transformer2d'
import { directoryFiles, nodeRuntime, Transformer2DModel } from '@/lib/transformer2d/node'
import { pixArtXl2Config, stateDictKeys } from './generated-checkpoint'
import { caseDir, compare, goldenCases, goldenForwardArgs, readTensors, type GoldenCase } from './golden'

const temp = mkdtempSync(path.join(tmpdir(), 't2d-api-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))
const byName = (name: string): GoldenCase => goldenCases().find((c) => c.name === name)!

describe('Transformer2DModel API', () => {
  it('registers every v0.37.0 config key with its default', async () => {
    const c = byName('cont_conv_self')
    const model = await Transformer2DModel.fromPretrained(caseDir(c), { threads: 1 })
    expect(model.config).toEqual({ ...DEFAULT_CONFIG, ...c.constructor_kwargs })
    await model.dispose()
  })

  it('returns [sample] with return_dict false and { sample } otherwise', async () => {
    const c = byName('cont_linear_self')
    const model = await Transformer2DModel.fromPretrained(caseDir(c), { threads: 1 })
    const args = goldenForwardArgs(c)
    const tuple = await model.forward({ ...args, return_dict: false })
    const dict = await model.forward({ ...args, return_dict: true })
    expect(Array.isArray(tuple)).toBe(true)
    expect(tuple[0].data).toEqual(dict.sample.data)
    await model.dispose()
  })

  it('limits the timestep to the num_embeds_ada_norm steps the model was trained with', async () => {
    const c = byName('cont_ada_norm')
    const model = await Transformer2DModel.fromPretrained(caseDir(c), { threads: 1 })
    const args = goldenForwardArgs(c)
    await expect(model.forward({ ...args, timestep: 10 })).rejects.toThrow(/timestep 10 is out of range: .*num_embeds_ada_norm = 10/)
    await expect(model.forward({ ...args, timestep: -1 })).rejects.toThrow(Transformer2DError)
    await expect(model.forward({ ...args, timestep: 9 })).resolves.toHaveProperty('sample')
    await model.dispose()
  })

  it('warns about and ignores cross_attention_kwargs.scale, as diffusers does', async () => {
    const c = byName('cont_conv_cross')
    const warnings: string[] = []
    const model = await Transformer2DModel.fromPretrained(caseDir(c), { threads: 1, warn: (m) => warnings.push(m) })
    const args = goldenForwardArgs(c)
    const plain = (await model.forward(args)) as { sample: FloatTensor }
    const scaled = (await model.forward({ ...args, cross_attention_kwargs: { scale: 0.5 } })) as { sample: FloatTensor }
    expect(scaled.sample.data).toEqual(plain.sample.data)
    expect(warnings).toEqual(['Passing `scale` to `cross_attention_kwargs` is deprecated. `scale` will be ignored.'])
    await model.dispose()
  })

  it('treats an all-ones mask like no mask and an all-zero row like an unmasked row (bias, not −inf)', async () => {
    const c = byName('cont_conv_cross')
    const model = await Transformer2DModel.fromPretrained(caseDir(c), { threads: 1 })
    const args = goldenForwardArgs(c)
    const plain = ((await model.forward(args)) as { sample: FloatTensor }).sample
    const ones = { data: new Uint8Array(14).fill(1), dims: [2, 7], type: 'bool' }
    const zeros = { data: new Uint8Array(14), dims: [2, 7], type: 'bool' }
    const withOnes = ((await model.forward({ ...args, encoder_attention_mask: ones })) as { sample: FloatTensor }).sample
    const withZeros = ((await model.forward({ ...args, encoder_attention_mask: zeros })) as { sample: FloatTensor }).sample
    // A zero bias changes nothing but the kernel (fused attention without a bias, explicit scores with one).
    expect(compare(withOnes.data, plain.data, 1e-5, 0).violations).toBe(0)
    expect(withZeros.data.every(Number.isFinite)).toBe(true)
    await model.dispose()
  })

  it('exports one .onnx file that carries its config and gives the same results when loaded back', async () => {
    for (const name of ['cont_conv_cross_encmask', 'vq_ada_norm_legacy', 'pixart_ada_norm_single_addcond']) {
      const c = byName(name)
      const model = await Transformer2DModel.fromPretrained(caseDir(c), { threads: 1 })
      const args = goldenForwardArgs(c)
      const signature = { encoderHiddenStates: true, attentionMask: false, encoderAttentionMask: args.encoder_attention_mask != null }
      const file = path.join(temp, `${name}.onnx`)
      writeFileSync(file, await model.exportOnnx(signature))
      const metadata = readModelMetadata(new Uint8Array(readFileSync(file)))
      expect(JSON.parse(metadata['transformer2d.config'])).toEqual(model.config)
      const exported = await Transformer2DModel.fromOnnxFile(file, { threads: 1 })
      const expected = ((await model.forward(args)) as { sample: FloatTensor }).sample
      const actual = ((await exported.forward(args)) as { sample: FloatTensor }).sample
      // The loaded model feeds its weights as inputs; the file carries them as initializers, which ONNX Runtime
      // pre-packs for a different MatMul kernel: the same sums, rounded in another order.
      expect(compare(actual.data, expected.data, 1e-5, 1e-5).violations).toBe(0)
      const tokens = c.input_mode === 'continuous' ? 15 : 16
      await expect(exported.forward({ ...args, attention_mask: { data: new Float32Array(2 * tokens), dims: [2, tokens] } })).rejects.toThrow(/exported graph that takes optional inputs/)
      await Promise.all([model.dispose(), exported.dispose()])
    }
  })

  it('runs with the weights inside the graph and files read whole', async () => {
    // A runtime may take the weights as initializers (the graph exportOnnx writes) and files may have no random
    // access (fetch without a weight store): the same model, exercised here on onnxruntime-node.
    const c = byName('pixart_ada_norm_single_addcond')
    const { open: _open, ...wholeFiles } = directoryFiles(caseDir(c))
    const model = await Transformer2DModel.fromFiles(wholeFiles, { ...nodeRuntime({ threads: 1 }), weightsAsInputs: false })
    const sample = ((await model.forward(goldenForwardArgs(c))) as { sample: FloatTensor }).sample
    await model.dispose()
    const expected = readTensors(path.join(caseDir(c), 'outputs.safetensors')).get('sample')!.data as Float32Array
    const { atol, rtol } = c.recommended_tolerance
    expect(compare(sample.data, expected, atol, rtol).violations).toBe(0)
  })

  it('tells from the config alone whether the weights fit one .onnx file', () => {
    const big = pixArtXl2Config(28)
    const bytes = stateDictKeys(big).reduce((sum, { shape }) => sum + shape.reduce((a, b) => a * b, 1) * 4, 0)
    expect(oneFileFit(big)).toEqual({ weightBytes: bytes, limitBytes: 2 ** 31 - 1, fits: false })
    expect(oneFileFit(pixArtXl2Config(2)).fits).toBe(true)
  })

  it('tells from the config alone whether the weights fit WebAssembly memory and a WebGPU adapter', () => {
    const pixArt = weightNeeds(pixArtXl2Config(28))
    const bytes = stateDictKeys(pixArtXl2Config(28)).reduce((sum, { shape }) => sum + shape.reduce((a, b) => a * b, 1) * 4, 0)
    expect(pixArt.weightBytes).toBe(bytes)
    // adaln_single's timestep projection 1152 → 6 × 1152 is PixArt's largest weight.
    expect(pixArt.largestTensorBytes).toBe(6 * 1152 * 1152 * 4)
    expect(wasmFit(pixArt)).toMatchObject({ fits: true, limitBytes: WASM_MEMORY_BYTES })
    const tooBig = wasmFit(weightNeeds(pixArtXl2Config(48)))
    expect(tooBig.fits).toBe(false)
    expect(tooBig.message).toMatch(/^Does not fit on WebAssembly: its float32 weights take 4\.\d\d GB and a forward needs about 4\.\d\d GB with working memory, over WebAssembly's 4\.29 GB address space\.$/)
    expect(webGpuFit(pixArt, { maxBufferSize: 2 ** 28, maxStorageBufferBindingSize: 2 ** 27 }).fits).toBe(true)
    const small = webGpuFit(pixArt, { maxBufferSize: 2 ** 24, maxStorageBufferBindingSize: 2 ** 24 })
    expect(small).toMatchObject({ fits: false, needBytes: 6 * 1152 * 1152 * 4, limitBytes: 2 ** 24 })
    expect(small.message).toBe('Does not fit on this WebGPU adapter: its largest weight takes 31.9 MB, over the adapter\'s 16.8 MB buffer limit.')
    // In float16 every weight takes half: the same 31.9 MB float32 weight fits a 16 MiB limit, not a 15.9 MB one.
    expect(webGpuFit(pixArt, { maxBufferSize: 2 ** 24, maxStorageBufferBindingSize: 2 ** 24 }, 'float16')).toMatchObject({ fits: true, needBytes: 3 * 1152 * 1152 * 4 })
    const halfTooBig = webGpuFit(pixArt, { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 15e6 }, 'float16')
    expect(halfTooBig).toMatchObject({ fits: false, needBytes: 3 * 1152 * 1152 * 4, limitBytes: 15e6 })
    expect(halfTooBig.message).toBe('Does not fit on this WebGPU adapter: its largest float16 weight takes 15.9 MB, over the adapter\'s 15.0 MB buffer limit.')
  })

  it('on WebGPU picks float16 where the adapter has shader-f16 and float32 where it does not; WebAssembly float32', () => {
    // SwiftShader's features (Chromium's software adapter, no shader-f16) and a GPU's with it.
    const swiftShader = ['depth32float-stencil8', 'float32-filterable', 'subgroups', 'timestamp-query']
    expect(browserPrecision('webgpu', swiftShader)).toEqual({ dtype: 'float32', reason: 'This WebGPU adapter lacks shader-f16, so it computes in float32.' })
    expect(browserPrecision('webgpu', new Set([...swiftShader, 'shader-f16']))).toEqual({
      dtype: 'float16',
      reason: 'This WebGPU adapter has shader-f16: float16 weights (half the GPU memory) and float16 MatMuls.',
    })
    expect(browserPrecision('wasm', ['shader-f16']).dtype).toBe('float32')
  })

  it('takes the runtime\'s precision as the default dtype, and float32 for an exported graph', async () => {
    const c = goldenCases().find((g) => g.name === 'cont_sd15_like')!
    const halfFirst = { ...nodeRuntime({ threads: 1 }), precision: browserPrecision('webgpu', ['shader-f16']) }
    const model = await Transformer2DModel.fromPretrained(caseDir(c), {})
    const half = await Transformer2DModel.fromFiles(directoryFiles(caseDir(c)), halfFirst)
    expect([model.dtype, half.dtype]).toEqual(['float32', 'float16'])
    const exported = await Transformer2DModel.fromOnnx(await model.exportOnnx(), halfFirst)
    expect(exported.dtype).toBe('float32')
    await Promise.all([model.dispose(), half.dispose(), exported.dispose()])
  })

  it('refuses a model its runtime cannot fit after config.json, before any weight file is opened', async () => {
    const dir = path.join(temp, 'too-big-for-wasm')
    mkdirSync(dir)
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(pixArtXl2Config(48)))
    const opened: string[] = []
    const files = directoryFiles(dir)
    const counting = { ...files, open: (name: string) => (opened.push(name), files.open!(name)), readBytes: (name: string) => (opened.push(name), files.readBytes(name)) }
    const wasmLike = { ...nodeRuntime({ threads: 1 }), fitProblem: async (needs: Parameters<typeof wasmFit>[0]) => (wasmFit(needs).fits ? null : wasmFit(needs).message) }
    await expect(Transformer2DModel.fromFiles(counting, wasmLike)).rejects.toThrow(`${dir}: Does not fit on WebAssembly: its float32 weights take`)
    expect(opened).toEqual(['config.json'])
    // WebGPU with SwiftShader's limits (1 GiB) lowered to 16 MiB: PixArt's 31.9 MB float32 weight is over it; in
    // float16 (an adapter with shader-f16) the same weight takes 15.9 MB and the check passes on to the weights.
    const lowered = { maxBufferSize: 2 ** 24, maxStorageBufferBindingSize: 2 ** 24 }
    const gpuLike = (features: string[]) => ({
      ...nodeRuntime({ threads: 1 }),
      device: 'webgpu',
      precision: browserPrecision('webgpu', features),
      fitProblem: async (needs: Parameters<typeof wasmFit>[0], dtype: 'float32' | 'float16') => {
        const fit = webGpuFit(needs, lowered, dtype)
        return fit.fits ? null : fit.message
      },
    })
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(pixArtXl2Config(2)))
    opened.length = 0
    await expect(Transformer2DModel.fromFiles(counting, gpuLike([]))).rejects.toThrow(
      `${dir}: Does not fit on this WebGPU adapter: its largest weight takes 31.9 MB, over the adapter's 16.8 MB buffer limit.`,
    )
    expect(opened).toEqual(['config.json'])
    opened.length = 0
    await expect(Transformer2DModel.fromFiles(counting, gpuLike(['shader-f16']))).rejects.toThrow(/no diffusion_pytorch_model/)
    expect(opened.slice(0, 2)).toEqual(['config.json', 'diffusion_pytorch_model.safetensors'])
  })
})
