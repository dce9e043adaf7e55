import { seededRandom, shuffle } from './random'

/** A one-hidden-layer perceptron (ReLU, softmax over classes) on standardised dense features. */
export type Mlp = {
  mean: Float32Array
  std: Float32Array
  /** [inputs x hidden], row-major. */
  w1: Float32Array
  b1: Float32Array
  /** [hidden x classes], row-major. */
  w2: Float32Array
  b2: Float32Array
  hidden: number
  classes: number
}

export function standardisation(x: number[][]): { mean: Float32Array; std: Float32Array } {
  const n = x[0].length
  const mean = new Float32Array(n)
  const std = new Float32Array(n)
  for (const row of x) row.forEach((v, j) => (mean[j] += v / x.length))
  for (const row of x) row.forEach((v, j) => (std[j] += (v - mean[j]) ** 2 / x.length))
  for (let j = 0; j < n; j++) std[j] = Math.sqrt(std[j]) || 1
  return { mean, std }
}

export function mlpProbabilities(model: Mlp, row: number[]): number[] {
  const { hidden, classes } = model
  const z = row.map((v, j) => (v - model.mean[j]) / model.std[j])
  const h = new Float64Array(hidden)
  for (let k = 0; k < hidden; k++) {
    let s = model.b1[k]
    for (let j = 0; j < z.length; j++) s += z[j] * model.w1[j * hidden + k]
    h[k] = Math.max(0, s)
  }
  const logits = Array.from({ length: classes }, (_, c) => {
    let s = model.b2[c]
    for (let k = 0; k < hidden; k++) s += h[k] * model.w2[k * classes + c]
    return s
  })
  const top = Math.max(...logits)
  const e = logits.map((l) => Math.exp(l - top))
  const total = e.reduce((a, b) => a + b, 0)
  return e.map((v) => v / total)
}

/** Mini-batch Adam on cross-entropy with L2 decay; deterministic for a seed. */
export function trainMlp(
  x: number[][],
  y: number[],
  options: { hidden: number; classes: number; epochs: number; learningRate: number; l2: number; seed: number; log?: (line: string) => void },
): Mlp {
  const random = seededRandom(options.seed)
  const inputs = x[0].length
  const { hidden, classes } = options
  const { mean, std } = standardisation(x)
  const z = x.map((row) => row.map((v, j) => (v - mean[j]) / std[j]))
  const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random())
  const params = {
    w1: Float64Array.from({ length: inputs * hidden }, () => gaussian() * Math.sqrt(2 / inputs)),
    b1: new Float64Array(hidden),
    w2: Float64Array.from({ length: hidden * classes }, () => gaussian() * Math.sqrt(1 / hidden)),
    b2: new Float64Array(classes),
  }
  const names = Object.keys(params) as (keyof typeof params)[]
  const moments = Object.fromEntries(names.map((n) => [n, { m: new Float64Array(params[n].length), v: new Float64Array(params[n].length) }]))
  const grads = Object.fromEntries(names.map((n) => [n, new Float64Array(params[n].length)])) as Record<keyof typeof params, Float64Array>
  const order = x.map((_, i) => i)
  const batch = 64
  let step = 0
  const h = new Float64Array(hidden)
  const logits = new Float64Array(classes)
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(order, random)
    let loss = 0
    for (let start = 0; start < order.length; start += batch) {
      for (const n of names) grads[n].fill(0)
      const members = order.slice(start, start + batch)
      for (const i of members) {
        const row = z[i]
        for (let k = 0; k < hidden; k++) {
          let s = params.b1[k]
          for (let j = 0; j < inputs; j++) s += row[j] * params.w1[j * hidden + k]
          h[k] = Math.max(0, s)
        }
        let top = -Infinity
        for (let c = 0; c < classes; c++) {
          let s = params.b2[c]
          for (let k = 0; k < hidden; k++) s += h[k] * params.w2[k * classes + c]
          logits[c] = s
          top = Math.max(top, s)
        }
        let total = 0
        for (let c = 0; c < classes; c++) total += Math.exp(logits[c] - top)
        loss -= logits[y[i]] - top - Math.log(total)
        for (let c = 0; c < classes; c++) {
          const d = Math.exp(logits[c] - top) / total - (c === y[i] ? 1 : 0)
          grads.b2[c] += d
          for (let k = 0; k < hidden; k++) grads.w2[k * classes + c] += d * h[k]
        }
        for (let k = 0; k < hidden; k++) {
          if (h[k] <= 0) continue
          let d = 0
          for (let c = 0; c < classes; c++) d += (Math.exp(logits[c] - top) / total - (c === y[i] ? 1 : 0)) * params.w2[k * classes + c]
          grads.b1[k] += d
          for (let j = 0; j < inputs; j++) grads.w1[j * hidden + k] += d * row[j]
        }
      }
      step++
      const rate = options.learningRate * Math.sqrt(1 - 0.999 ** step) / (1 - 0.9 ** step)
      for (const n of names) {
        const p = params[n]
        const g = grads[n]
        const { m, v } = moments[n]
        for (let j = 0; j < p.length; j++) {
          const gradient = g[j] / members.length + (n.startsWith('w') ? options.l2 * p[j] : 0)
          m[j] = 0.9 * m[j] + 0.1 * gradient
          v[j] = 0.999 * v[j] + 0.001 * gradient * gradient
          p[j] -= (rate * m[j]) / (Math.sqrt(v[j]) + 1e-8)
        }
      }
    }
    if ((epoch + 1) % 5 === 0 || epoch === options.epochs - 1) options.log?.(`  epoch ${epoch + 1}/${options.epochs}: mean cross-entropy ${(loss / x.length).toFixed(4)}`)
  }
  return {
    mean,
    std,
    w1: Float32Array.from(params.w1),
    b1: Float32Array.from(params.b1),
    w2: Float32Array.from(params.w2),
    b2: Float32Array.from(params.b2),
    hidden,
    classes,
  }
}
