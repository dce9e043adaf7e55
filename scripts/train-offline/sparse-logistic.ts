import { seededRandom, shuffle } from './random'

export type SparseRow = { features: [number, number][]; label: 0 | 1; weight?: number }

/**
 * Binary logistic regression on hashed sparse features, trained with AdaGrad and L2 decay.
 * Id 0 is the bias feature (always 1), so the weights alone are the model.
 */
export function trainSparseLogistic(
  rows: SparseRow[],
  options: { dimensions: number; epochs: number; learningRate: number; l2: number; seed: number; log?: (line: string) => void },
): Float32Array {
  const weights = new Float64Array(options.dimensions)
  const squaredGradients = new Float64Array(options.dimensions).fill(1e-8)
  const random = seededRandom(options.seed)
  const order = rows.map((_, i) => i)
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(order, random)
    let loss = 0
    for (const index of order) {
      const { features, label, weight = 1 } = rows[index]
      let z = 0
      for (const [id, value] of features) z += weights[id] * value
      const p = 1 / (1 + Math.exp(-z))
      loss -= weight * (label ? Math.log(p + 1e-12) : Math.log(1 - p + 1e-12))
      const error = weight * (p - label)
      for (const [id, value] of features) {
        const gradient = error * value + (id === 0 ? 0 : options.l2 * weights[id])
        squaredGradients[id] += gradient * gradient
        weights[id] -= (options.learningRate * gradient) / Math.sqrt(squaredGradients[id])
      }
    }
    options.log?.(`  epoch ${epoch + 1}/${options.epochs}: mean log loss ${(loss / rows.length).toFixed(4)}`)
  }
  return Float32Array.from(weights)
}

export function sparseLogit(weights: ArrayLike<number>, features: [number, number][]): number {
  let z = 0
  for (const [id, value] of features) z += weights[id] * value
  return z
}
