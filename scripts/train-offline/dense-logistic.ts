/** Dense logistic regression by full-batch gradient descent (a handful of features); `sampleWeights` say how much each row counts (1 each when left out). */
export function trainDense(x: number[][], y: number[], epochs: number, learningRate: number, l2: number, sampleWeights?: number[]): { weights: number[]; bias: number } {
  const total = sampleWeights ? sampleWeights.reduce((a, b) => a + b, 0) : x.length
  const weights = new Array(x[0].length).fill(0)
  let bias = 0
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradient = new Array(weights.length).fill(0)
    let biasGradient = 0
    x.forEach((row, i) => {
      const z = row.reduce((s, v, j) => s + v * weights[j], bias)
      const error = (1 / (1 + Math.exp(-z)) - y[i]) * (sampleWeights ? sampleWeights[i] : 1)
      row.forEach((v, j) => (gradient[j] += error * v))
      biasGradient += error
    })
    weights.forEach((w, j) => (weights[j] -= learningRate * (gradient[j] / total + l2 * w)))
    bias -= learningRate * (biasGradient / total)
  }
  return { weights, bias }
}
