/**
 * `npm run train:offline [check ...]`: rebuilds the offline engines' ONNX graphs and metadata in
 * public/models/offline/ from data that ships with the npm (and, where installed, Debian)
 * packages, then prints the evaluation on tests/eval. Deterministic for a given package set.
 */
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { OFFLINE_EVALUATIONS } from './checks'
import { printReport } from './evaluate'
import { trainBancode } from './train-bancode'
import { trainEmbedding } from './train-embedding'
import { trainCommonWords } from './train-common-words'
import { trainGibberish } from './train-gibberish'
import { trainGibberishLanguages } from './train-gibberish-languages'
import { trainGivenNames } from './train-given-names'
import { trainPlaces } from './train-places'
import { trainSimilarity } from './train-similarity'
import { trainPromptInjection } from './train-prompt-injection'
import { trainInjectionTexts } from './train-injection-texts'
import { trainTopic } from './train-topic'
import { trainTopicTexts } from './train-topic-texts'
import { trainToxicity } from './train-toxicity'
import { trainToxicityTexts } from './train-toxicity-texts'

const TRAINERS: Record<string, () => Promise<void>> = {
  bancode: trainBancode,
  promptInjection: trainPromptInjection,
  promptInjectionTexts: trainInjectionTexts,
  gibberish: trainGibberish,
  gibberishLanguages: trainGibberishLanguages,
  toxicity: trainToxicity,
  toxicityTexts: trainToxicityTexts,
  embedding: trainEmbedding,
  similarity: trainSimilarity,
  restrictedTopic: trainTopic,
  restrictedTopicTexts: trainTopicTexts,
  places: trainPlaces,
  givenNames: trainGivenNames,
  commonWords: trainCommonWords,
}

async function main() {
  const requested = process.argv.slice(2)
  const unknown = requested.filter((name) => !(name in TRAINERS))
  if (unknown.length) throw new Error(`unknown check(s) ${unknown.join(', ')}; known: ${Object.keys(TRAINERS).join(', ')}`)
  for (const name of requested.length ? requested : Object.keys(TRAINERS)) {
    const started = performance.now()
    await TRAINERS[name]()
    console.log(`${name}: trained in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  const engines = offlineEngines()
  for (const name of requested.length ? requested : Object.keys(TRAINERS)) if (OFFLINE_EVALUATIONS[name]) printReport(await OFFLINE_EVALUATIONS[name](engines))
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
