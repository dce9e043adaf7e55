import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Transformer2DModel } from '@/lib/transformer2d/node'
import { caseDir, compare, goldenCases, goldenForwardArgs, readTensors } from './golden'

const models: Transformer2DModel[] = []
afterAll(async () => {
  await Promise.all(models.map((m) => m.dispose()))
})

describe('Transformer2DModel replays every diffusers v0.37.0 golden case on onnxruntime-node', () => {
  for (const c of goldenCases()) {
    it(`${c.name} (${c.input_mode})`, async () => {
      const model = await Transformer2DModel.fromPretrained(caseDir(c), { threads: 1 })
      models.push(model)
      const result = await model.forward(goldenForwardArgs(c))
      const sample = 'sample' in result ? result.sample : result[0]
      const expected = readTensors(path.join(caseDir(c), 'outputs.safetensors')).get('sample')!
      expect(sample.dims).toEqual(c.output.shape)
      const { atol, rtol } = c.recommended_tolerance
      const { maxAbsDiff, violations } = compare(sample.data, expected.data as Float32Array, atol, rtol)
      expect(violations, `max |diff| ${maxAbsDiff.toExponential(2)} (atol ${atol}, rtol ${rtol})`).toBe(0)
    })
  }
})
