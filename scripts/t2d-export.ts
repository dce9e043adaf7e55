/**
 * Exports a diffusers Transformer2DModel folder to one .onnx file (weights included) that runs on
 * onnxruntime-node and onnxruntime-web alike.
 *
 *   npm run t2d:export -- <model dir> <out.onnx> [--attention-mask] [--encoder-attention-mask] [--variant fp16]
 *
 * By default the graph takes encoder_hidden_states when the model reads them and no masks; the flags add mask
 * inputs (a graph answers exactly the optional inputs it was exported with).
 */
import { writeFileSync } from 'node:fs'
import { defaultSignature } from '@/lib/transformer2d'
import { Transformer2DModel } from '@/lib/transformer2d/node'

async function main(argv: string[]): Promise<void> {
  const flags = new Set(argv.filter((a) => a.startsWith('--')))
  const variantAt = argv.indexOf('--variant')
  const variant = variantAt >= 0 ? argv[variantAt + 1] : undefined
  const positional = argv.filter((a, i) => !a.startsWith('--') && !(variantAt >= 0 && i === variantAt + 1))
  const known = new Set(['--attention-mask', '--encoder-attention-mask', '--variant'])
  const unknown = [...flags].filter((f) => !known.has(f))
  if (positional.length !== 2 || unknown.length) {
    console.error('usage: npm run t2d:export -- <model dir> <out.onnx> [--attention-mask] [--encoder-attention-mask] [--variant fp16]')
    if (unknown.length) console.error(`unknown option(s): ${unknown.join(' ')}`)
    process.exit(2)
  }
  const [dir, out] = positional
  const started = performance.now()
  const model = await Transformer2DModel.fromPretrained(dir, { variant, threads: 1 })
  const signature = {
    ...defaultSignature(model.resolved),
    attentionMask: flags.has('--attention-mask'),
    encoderAttentionMask: flags.has('--encoder-attention-mask') && model.resolved.hasAttn2,
  }
  const bytes = await model.exportOnnx(signature)
  writeFileSync(out, bytes)
  await model.dispose()
  const inputs = Object.entries(signature).filter(([, on]) => on).map(([name]) => name)
  console.log(`wrote ${out}: ${(bytes.length / 2 ** 20).toFixed(2)} MiB, ${model.resolved.mode} input, optional inputs [${inputs.join(', ')}], ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
