/** Dense logistic regression by full-batch gradient descent (a handful of features). */
export function trainDense(x: number[][], y: number[], epochs: number, learningRate: number, l2: number): { weights: number[]; bias: number } {
  const weights = new Array(x[0].length).fill(0)
  let bias = 0
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradient = new Array(weights.length).fill(0)
    let biasGradient = 0
    x.forEach((row, i) => {
      const z = row.reduce((s, v, j) => s + v * weights[j], bias)
      const error = 1 / (1 + Math.exp(-z)) - y[i]
      row.forEach((v, j) => (gradient[j] += error * v))
      biasGradient += error
    })
    weights.forEach((w, j) => (weights[j] -= learningRate * (gradient[j] / x.length + l2 * w)))
    bias -= learningRate * (biasGradient / x.length)
  }
  return { weights, bias }
}
