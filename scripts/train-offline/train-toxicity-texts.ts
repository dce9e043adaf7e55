/**
 * The toxicity engine's text classifier (`toxicity.texts.json`, stacked-text-classifier.ts), stacked on the toxicity
 * head of `toxicity.onnx`. Trained on texts written for it (scripts/train-offline/written-texts/toxicity/: writers who
 * saw only the label definitions in that folder's README, never an evaluation set), each writer's texts one fold of
 * the stacking, and on everyday prose as clean.
 */
import path from 'node:path'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { TOXICITY_GRAPH, TOXICITY_TEXT_CLASSIFIER, toxicityFeeds } from '@/lib/moderation/offline/toxicity'
import { OFFLINE_MODELS_DIR } from './output'
import { writeStackedTextClassifier, writtenTexts } from './stacked-text-classifier'

export const TOXICITY_TEXTS_DIR = path.resolve('scripts/train-offline/written-texts/toxicity')
/** Chosen on the development sets (TUNING-issue18.md, twenty-seventh round). */
const L2 = 1e-3

export async function trainToxicityTexts(): Promise<void> {
  const { runGraph } = offlineFolder(OFFLINE_MODELS_DIR)
  await writeStackedTextClassifier({
    check: 'toxicity',
    file: TOXICITY_TEXT_CLASSIFIER,
    labels: ['toxic'],
    written: writtenTexts<{ text: string; label: string }>(TOXICITY_TEXTS_DIR).map((t) => ({ text: t.text, writer: t.writer, labels: t.label === 'toxic' ? ['toxic'] : [] })),
    engineProbabilities: async (text) => [(await runGraph(TOXICITY_GRAPH, toxicityFeeds(text))).scores[0]!],
    l2: L2,
    stacking: 'sigmoid(a * logit(toxicity.onnx toxicity head) + b * text logit + c); the other heads are the graph\'s alone',
  })
}
