/** Evaluation measures shared by `npm run eval` and the offline-engine tests. */

/** Area under the ROC curve: the probability that a random positive outscores a random negative (ties count half). */
export function rocAuc(scores: number[], positives: boolean[]): number {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b])
  let rankSum = 0
  let positiveCount = 0
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j + 1 < order.length && scores[order[j + 1]] === scores[order[i]]) j++
    const averageRank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) if (positives[order[k]]) {
      rankSum += averageRank
      positiveCount++
    }
    i = j + 1
  }
  const negativeCount = order.length - positiveCount
  if (positiveCount === 0 || negativeCount === 0) return NaN
  return (rankSum - (positiveCount * (positiveCount + 1)) / 2) / (positiveCount * negativeCount)
}

export type BinaryCounts = { truePositives: number; falsePositives: number; trueNegatives: number; falseNegatives: number }

export function binaryCounts(predicted: boolean[], positives: boolean[]): BinaryCounts {
  const counts = { truePositives: 0, falsePositives: 0, trueNegatives: 0, falseNegatives: 0 }
  predicted.forEach((p, i) => {
    if (p && positives[i]) counts.truePositives++
    else if (p) counts.falsePositives++
    else if (positives[i]) counts.falseNegatives++
    else counts.trueNegatives++
  })
  return counts
}

export function precision(c: BinaryCounts): number {
  return c.truePositives / Math.max(1, c.truePositives + c.falsePositives)
}

export function recall(c: BinaryCounts): number {
  return c.truePositives / Math.max(1, c.truePositives + c.falseNegatives)
}

export function accuracy(predicted: unknown[], expected: unknown[]): number {
  return predicted.filter((p, i) => p === expected[i]).length / expected.length
}

/** Mean over classes of F1 (a class never predicted nor expected is left out). */
export function macroF1<T>(predicted: T[], expected: T[], classes: readonly T[]): { macro: number; perClass: Record<string, number> } {
  const perClass: Record<string, number> = {}
  for (const c of classes) {
    const tp = predicted.filter((p, i) => p === c && expected[i] === c).length
    const fp = predicted.filter((p, i) => p === c && expected[i] !== c).length
    const fn = predicted.filter((p, i) => p !== c && expected[i] === c).length
    if (tp + fp + fn === 0) continue
    perClass[String(c)] = (2 * tp) / Math.max(1, 2 * tp + fp + fn)
  }
  const values = Object.values(perClass)
  return { macro: values.reduce((a, b) => a + b, 0) / values.length, perClass }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** Ranks with ties sharing their mean rank (1-based). */
function ranks(values: number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b])
  const result = new Array<number>(values.length)
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++
    for (let k = i; k <= j; k++) result[order[k]] = (i + j) / 2 + 1
    i = j + 1
  }
  return result
}

/** Spearman's rank correlation: Pearson correlation of the ranks. */
export function spearman(a: number[], b: number[]): number {
  const ra = ranks(a)
  const rb = ranks(b)
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length
  const ma = mean(ra)
  const mb = mean(rb)
  let cov = 0
  let va = 0
  let vb = 0
  for (let i = 0; i < ra.length; i++) {
    cov += (ra[i] - ma) * (rb[i] - mb)
    va += (ra[i] - ma) ** 2
    vb += (rb[i] - mb) ** 2
  }
  return cov / Math.sqrt(va * vb)
}
