/**
 * The neural checks' answers before the API shapes them, through the checks' own neural engines
 * (lib/moderation/checks over the runtime's loaded models): what the reference and route tests
 * compare with.
 */
import { TOXICITY_METRICS } from '@/lib/moderation/runtime/manifest'
import { neuralEngines } from '@/lib/moderation/engines/registry'
import type { TopicClassifier } from '@/lib/moderation/engines/types'
import { neuralModel } from '@/lib/moderation/runtime'
import { softmaxClassify } from '@/lib/moderation/runtime/neural-steps'

const engines = () => neuralEngines()

/** The seven metrics in the contract's order. */
export async function toxicity(text: string): Promise<number[]> {
  const scores = await engines().toxicity!.run(text)
  return TOXICITY_METRICS.map((metric) => scores[metric])
}

export const promptInjection = (text: string) => engines().promptInjection!.run(text)

/** Labels sorted by score, highest first (equal scores keep the request's order), as the API answers them. */
export async function zeroShot(text: string, labels: string[], classifier: TopicClassifier = 'default'): Promise<{ labels: string[]; scores: number[] }> {
  const scores = await engines().restrictedTopic!.run({ text, labels, classifier })
  const order = labels.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b)
  return { labels: order.map((i) => labels[i]!), scores: order.map((i) => scores[i]!) }
}

export const embed = (texts: string[]) => engines().embedding!.run(texts)

/** The top label, its probability, and every label's probability (the references compare all of them). */
export async function gibberish(text: string): Promise<{ label: string; score: number; probabilities: Record<string, number> }> {
  const { label, probability } = await engines().gibberish!.run(text)
  const model = await neuralModel('gibberish')
  const { probabilities } = await softmaxClassify(model, text)
  return { label, score: probability, probabilities: Object.fromEntries(probabilities.map((p, i) => [model.id2label[i], p])) }
}

export const bancode = (text: string) => engines().banCode!.run(text)
