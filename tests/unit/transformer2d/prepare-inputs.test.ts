// prepareInputs: what it keeps between calls.
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '@/lib/transformer2d/config'
import { POS_EMBED_TABLES_KEPT, prepareInputs } from '@/lib/transformer2d/prepare-inputs'
import { goldenCases, goldenForwardArgs } from './golden'

describe('position tables of a patched model', () => {
  it('keeps the last few grid sizes only: a caller sending new sizes does not grow the model without bound', () => {
    const c = goldenCases().find((g) => g.name === 'pixart_nonsquare_interp')!
    const resolved = resolveConfig(c.constructor_kwargs)
    const args = goldenForwardArgs(c)
    const [batch, channels] = args.hidden_states.dims
    const patch = Number(c.constructor_kwargs.patch_size)
    const cache = new Map<string, Float32Array>()
    const withGrid = (h: number, w: number) => {
      const dims = [batch!, channels!, h * patch, w * patch]
      return prepareInputs(resolved, { ...args, hidden_states: { data: new Float32Array(dims.reduce((a, b) => a * b)), dims } }, cache)
    }
    for (let n = 1; n <= POS_EMBED_TABLES_KEPT + 6; n++) withGrid(n, n + 1)
    expect(cache.size).toBe(POS_EMBED_TABLES_KEPT)
    // The most recently used stay: asking again for a kept size reuses its table.
    const kept = cache.get(`${POS_EMBED_TABLES_KEPT + 6}x${POS_EMBED_TABLES_KEPT + 7}`)
    expect(kept).toBeDefined()
    withGrid(POS_EMBED_TABLES_KEPT + 6, POS_EMBED_TABLES_KEPT + 7)
    expect(cache.get(`${POS_EMBED_TABLES_KEPT + 6}x${POS_EMBED_TABLES_KEPT + 7}`)).toBe(kept)
    expect(cache.has('1x2')).toBe(false)
  })

  it('refuses a tensor that is not one with a Transformer2DError naming the argument and the shape it wants (the route\'s {dtype, shape, data} given to the library raised a TypeError)', () => {
    const c = goldenCases().find((g) => g.name === 'cont_conv_cross')!
    const resolved = resolveConfig(c.constructor_kwargs)
    const args = goldenForwardArgs(c)
    const routeForm = { dtype: 'float32', shape: [...args.hidden_states.dims], data: Array.from(args.hidden_states.data as Float32Array) }
    for (const hidden of [routeForm, { data: new Float32Array(4), dims: 'x' }, { data: 5, dims: [1] }]) {
      expect(() => prepareInputs(resolved, { ...args, hidden_states: hidden as never }, new Map()))
        .toThrow(expect.objectContaining({ name: 'Transformer2DError', message: expect.stringMatching(/^hidden_states must be a tensor \{data, dims, type\}/) }))
    }
  })
})
