/**
 * A float64 reference of diffusers' PixArt-α path of Transformer2DModel (patched input, norm_type ada_norm_single,
 * gelu-approximate feed-forward), written from ../shared/research/transformer2d-reference.md §5.4, §6, §7.4, §7.5,
 * §8.2–8.4 with plain loops and no ONNX. Weights are the checkpoint's values (float32 arrays, read exactly); every
 * sum and activation is in float64. It is checked against the golden cases' float64 references before it is used
 * to check the ONNX graph on checkpoints the golden set does not have.
 */
import type { TensorLike } from '@/lib/transformer2d'

export interface PixArtReferenceConfig {
  num_attention_heads: number
  attention_head_dim: number
  in_channels: number
  out_channels?: number | null
  patch_size: number
  sample_size: number
  num_layers?: number
  caption_channels?: number | null
  attention_bias?: boolean
  norm_elementwise_affine?: boolean
  norm_eps?: number
  interpolation_scale?: number | null
  use_additional_conditions?: boolean | null
}

export interface PixArtReferenceInputs {
  hidden_states: TensorLike
  timestep: TensorLike
  encoder_hidden_states: TensorLike
  encoder_attention_mask?: TensorLike
  added_cond_kwargs?: { resolution: TensorLike; aspect_ratio: TensorLike }
}

type Weights = (name: string) => ArrayLike<number>

/** A row-major matrix of `rows` × `cols` float64 values. */
interface Matrix {
  rows: number
  cols: number
  data: Float64Array
}

const matrix = (rows: number, cols: number): Matrix => ({ rows, cols, data: new Float64Array(rows * cols) })

/** torch.nn.Linear: x [N, in] · Wᵀ + b, W stored [out, in]. */
function linear(x: Matrix, w: ArrayLike<number>, b: ArrayLike<number> | null, out: number): Matrix {
  const y = matrix(x.rows, out)
  const k = x.cols
  for (let n = 0; n < x.rows; n++) {
    const xo = n * k
    for (let o = 0; o < out; o++) {
      const wo = o * k
      let sum = b ? b[o] : 0
      for (let i = 0; i < k; i++) sum += x.data[xo + i] * w[wo + i]
      y.data[n * out + o] = sum
    }
  }
  return y
}

function map(x: Matrix, f: (v: number) => number): Matrix {
  return { rows: x.rows, cols: x.cols, data: x.data.map(f) }
}

const silu = (v: number) => v / (1 + Math.exp(-v))
const geluTanh = (v: number) => 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)))

/** LayerNorm over each row (biased variance), optional affine. */
function layerNorm(x: Matrix, eps: number, weight: ArrayLike<number> | null, bias: ArrayLike<number> | null): Matrix {
  const y = matrix(x.rows, x.cols)
  for (let r = 0; r < x.rows; r++) {
    const row = x.data.subarray(r * x.cols, (r + 1) * x.cols)
    let mean = 0
    for (const v of row) mean += v
    mean /= x.cols
    let variance = 0
    for (const v of row) variance += (v - mean) ** 2
    variance /= x.cols
    const inv = 1 / Math.sqrt(variance + eps)
    for (let c = 0; c < x.cols; c++) y.data[r * x.cols + c] = (row[c] - mean) * inv * (weight ? weight[c] : 1) + (bias ? bias[c] : 0)
  }
  return y
}

/** Timesteps(256, flip_sin_to_cos=True, downscale_freq_shift=0): [cos | sin] of t·exp(−ln(10⁴)·k/128). */
function timestepProjection(values: ArrayLike<number>): Matrix {
  const half = 128
  const y = matrix(values.length, 2 * half)
  for (let n = 0; n < values.length; n++) {
    for (let k = 0; k < half; k++) {
      const arg = values[n] * Math.exp((-Math.log(10000) * k) / half)
      y.data[n * 2 * half + k] = Math.cos(arg)
      y.data[n * 2 * half + half + k] = Math.sin(arg)
    }
  }
  return y
}

function timestepEmbedding(weights: Weights, prefix: string, x: Matrix, dim: number): Matrix {
  const hidden = map(linear(x, weights(`${prefix}.linear_1.weight`), weights(`${prefix}.linear_1.bias`), dim), silu)
  return linear(hidden, weights(`${prefix}.linear_2.weight`), weights(`${prefix}.linear_2.bias`), dim)
}

/** get_2d_sincos_pos_embed for a gh × gw grid: first half of the channels the column, second half the row. */
function positionTable(dim: number, gh: number, gw: number, baseSize: number, interpolationScale: number): Matrix {
  const table = matrix(gh * gw, dim)
  const quarter = dim / 4
  const oneD = (pos: number, out: Float64Array, offset: number) => {
    for (let k = 0; k < quarter; k++) {
      const arg = pos / 10000 ** (k / quarter)
      out[offset + k] = Math.sin(arg)
      out[offset + quarter + k] = Math.cos(arg)
    }
  }
  for (let i = 0; i < gh; i++) {
    for (let j = 0; j < gw; j++) {
      const row = (i * gw + j) * dim
      oneD(j / (gw / baseSize) / interpolationScale, table.data, row)
      oneD(i / (gh / baseSize) / interpolationScale, table.data, row + dim / 2)
    }
  }
  // diffusers computes the table in float64 and stores it as float32.
  return map(table, Math.fround)
}

function attention(q: Matrix, k: Matrix, v: Matrix, heads: number, headDim: number, keyBias: Float64Array | null): Matrix {
  const out = matrix(q.rows, q.cols)
  const scale = 1 / Math.sqrt(headDim)
  const scores = new Float64Array(k.rows)
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < q.rows; i++) {
      let max = -Infinity
      for (let j = 0; j < k.rows; j++) {
        let dot = 0
        for (let d = 0; d < headDim; d++) dot += q.data[i * q.cols + h * headDim + d] * k.data[j * k.cols + h * headDim + d]
        scores[j] = dot * scale + (keyBias ? keyBias[j] : 0)
        max = Math.max(max, scores[j])
      }
      let total = 0
      for (let j = 0; j < k.rows; j++) total += scores[j] = Math.exp(scores[j] - max)
      for (let d = 0; d < headDim; d++) {
        let sum = 0
        for (let j = 0; j < k.rows; j++) sum += scores[j] * v.data[j * v.cols + h * headDim + d]
        out.data[i * out.cols + h * headDim + d] = sum / total
      }
    }
  }
  return out
}

function attentionModule(weights: Weights, prefix: string, x: Matrix, context: Matrix, c: Required<Pick<PixArtReferenceConfig, 'attention_bias'>> & PixArtReferenceConfig, keyBias: Float64Array | null): Matrix {
  const D = c.num_attention_heads * c.attention_head_dim
  const bias = (name: string) => (c.attention_bias ? weights(`${prefix}.${name}.bias`) : null)
  const q = linear(x, weights(`${prefix}.to_q.weight`), bias('to_q'), D)
  const k = linear(context, weights(`${prefix}.to_k.weight`), bias('to_k'), D)
  const v = linear(context, weights(`${prefix}.to_v.weight`), bias('to_v'), D)
  const o = attention(q, k, v, c.num_attention_heads, c.attention_head_dim, keyBias)
  return linear(o, weights(`${prefix}.to_out.0.weight`), weights(`${prefix}.to_out.0.bias`), D)
}

/** x·(1 + scale) + shift, row-wise, with scale and shift rows of a modulation table. */
function modulate(x: Matrix, shift: ArrayLike<number>, scale: ArrayLike<number>): Matrix {
  return { rows: x.rows, cols: x.cols, data: x.data.map((v, i) => v * (1 + scale[i % x.cols]) + shift[i % x.cols]) }
}

function addGated(x: Matrix, y: Matrix, gate: ArrayLike<number>): void {
  for (let i = 0; i < x.data.length; i++) x.data[i] += gate[i % x.cols] * y.data[i]
}

/** The forward pass; returns the sample (B, out_channels, H, W) in float64. */
export function pixArtReference(config: PixArtReferenceConfig, weights: Weights, inputs: PixArtReferenceInputs): { data: Float64Array; dims: number[] } {
  // diffusers' defaults for the keys a config may leave out.
  const c = { num_layers: 1, attention_bias: false, norm_elementwise_affine: true, norm_eps: 1e-5, ...config }
  const [B, C, H, W] = inputs.hidden_states.dims
  const p = c.patch_size
  const D = c.num_attention_heads * c.attention_head_dim
  const outC = c.out_channels ?? c.in_channels
  const gh = H / p
  const gw = W / p
  const N = gh * gw
  const x = Float64Array.from(inputs.hidden_states.data as ArrayLike<number>)
  const useAdditional = c.use_additional_conditions ?? c.sample_size === 128
  const interpolation = c.interpolation_scale ?? Math.max(Math.floor(c.sample_size / 64), 1)
  const positions = positionTable(D, gh, gw, Math.floor(c.sample_size / p), interpolation)
  const timesteps = inputs.timestep.data as ArrayLike<number>
  const [, S, captionWidth] = inputs.encoder_hidden_states.dims
  const encoderAll = Float64Array.from(inputs.encoder_hidden_states.data as ArrayLike<number>)
  const out = new Float64Array(B * outC * H * W)

  for (let b = 0; b < B; b++) {
    // PatchEmbed: Conv2d(k = stride = p) → tokens row-major over patches, plus the position table.
    const convW = weights('pos_embed.proj.weight')
    const convB = weights('pos_embed.proj.bias')
    const h = matrix(N, D)
    for (let i = 0; i < gh; i++) {
      for (let j = 0; j < gw; j++) {
        const t = i * gw + j
        for (let d = 0; d < D; d++) {
          let sum = convB[d]
          for (let ch = 0; ch < C; ch++) {
            for (let py = 0; py < p; py++) {
              for (let px = 0; px < p; px++) sum += convW[((d * C + ch) * p + py) * p + px] * x[((b * C + ch) * H + i * p + py) * W + j * p + px]
            }
          }
          h.data[t * D + d] = sum + positions.data[t * D + d]
        }
      }
    }

    // AdaLayerNormSingle: timestep (+ resolution and aspect-ratio) embedding, then a 6·D modulation.
    const emb = timestepEmbedding(weights, 'adaln_single.emb.timestep_embedder', timestepProjection([timesteps[b]]), D)
    if (useAdditional) {
      const resolution = inputs.added_cond_kwargs!.resolution.data as ArrayLike<number>
      const aspect = inputs.added_cond_kwargs!.aspect_ratio.data as ArrayLike<number>
      const size = Math.floor(D / 3)
      const r = timestepEmbedding(weights, 'adaln_single.emb.resolution_embedder', timestepProjection([resolution[2 * b], resolution[2 * b + 1]]), size)
      const a = timestepEmbedding(weights, 'adaln_single.emb.aspect_ratio_embedder', timestepProjection([aspect[b]]), size)
      const extra = [...r.data, ...a.data]
      for (let d = 0; d < D; d++) emb.data[d] += extra[d]
    }
    const t6 = linear(map(emb, silu), weights('adaln_single.linear.weight'), weights('adaln_single.linear.bias'), 6 * D).data

    // Caption projection: linear_1 → GELU(tanh) → linear_2.
    let context: Matrix = { rows: S, cols: captionWidth, data: encoderAll.slice(b * S * captionWidth, (b + 1) * S * captionWidth) }
    if (c.caption_channels) {
      const hidden = map(linear(context, weights('caption_projection.linear_1.weight'), weights('caption_projection.linear_1.bias'), D), geluTanh)
      context = linear(hidden, weights('caption_projection.linear_2.weight'), weights('caption_projection.linear_2.bias'), D)
    }
    const mask = inputs.encoder_attention_mask?.data as ArrayLike<number> | undefined
    const keyBias = mask ? Float64Array.from({ length: S }, (_, j) => (1 - Number(mask[b * S + j])) * -10000) : null

    for (let l = 0; l < c.num_layers; l++) {
      const prefix = `transformer_blocks.${l}`
      const table = weights(`${prefix}.scale_shift_table`)
      const row = (k: number) => Float64Array.from({ length: D }, (_, d) => table[k * D + d] + t6[k * D + d])
      const [shiftMsa, scaleMsa, gateMsa, shiftMlp, scaleMlp, gateMlp] = [0, 1, 2, 3, 4, 5].map(row)
      const affine = (name: string) => (c.norm_elementwise_affine ? weights(`${prefix}.${name}`) : null)
      const n1 = modulate(layerNorm(h, c.norm_eps, affine('norm1.weight'), affine('norm1.bias')), shiftMsa, scaleMsa)
      addGated(h, attentionModule(weights, `${prefix}.attn1`, n1, n1, c, null), gateMsa)
      // PixArt: no norm before cross-attention.
      const cross = attentionModule(weights, `${prefix}.attn2`, h, context, c, keyBias)
      for (let i = 0; i < h.data.length; i++) h.data[i] += cross.data[i]
      const n2 = modulate(layerNorm(h, c.norm_eps, affine('norm2.weight'), affine('norm2.bias')), shiftMlp, scaleMlp)
      const ff = linear(map(linear(n2, weights(`${prefix}.ff.net.0.proj.weight`), weights(`${prefix}.ff.net.0.proj.bias`), 4 * D), geluTanh), weights(`${prefix}.ff.net.2.weight`), weights(`${prefix}.ff.net.2.bias`), D)
      addGated(h, ff, gateMlp)
    }

    // Head: shift = table row 0 + emb, scale = row 1 + emb; LayerNorm(eps 1e-6, no affine); proj_out; unpatchify.
    const headTable = weights('scale_shift_table')
    const shift = Float64Array.from({ length: D }, (_, d) => headTable[d] + emb.data[d])
    const scale = Float64Array.from({ length: D }, (_, d) => headTable[D + d] + emb.data[d])
    const y = linear(modulate(layerNorm(h, 1e-6, null, null), shift, scale), weights('proj_out.weight'), weights('proj_out.bias'), p * p * outC)
    for (let i = 0; i < gh; i++) {
      for (let j = 0; j < gw; j++) {
        for (let py = 0; py < p; py++) {
          for (let px = 0; px < p; px++) {
            for (let ch = 0; ch < outC; ch++) out[((b * outC + ch) * H + i * p + py) * W + j * p + px] = y.data[(i * gw + j) * y.cols + (py * p + px) * outC + ch]
          }
        }
      }
    }
  }
  return { data: out, dims: [B, outC, H, W] }
}
