import { invisibleTextEngine } from './invisible-text'
import { withNeuralEngines } from './neural'
import { offlineBanCodeEngine } from './offline/bancode'
import { offlineEmbeddingEngine } from './offline/embedding'
import { offlineGibberishEngine } from './offline/gibberish'
import { offlinePromptInjectionEngine } from './offline/prompt-injection'
import { offlineTopicEngine } from './offline/restricted-topic'
import { offlineToxicityEngine } from './offline/toxicity'
import { presidioStyleEngine } from './privacy'
import { vaderSentimentEngine } from './sentiment/vader'
import type { ModerationEngines } from './types'
import { notInstalledEngine } from './unavailable'

/** The engines that are exact by nature (no model at all); every other check answers "not installed". */
export function exactOfflineEngines(): ModerationEngines {
  return {
    toxicity: notInstalledEngine(),
    privacy: presidioStyleEngine,
    promptInjection: notInstalledEngine(),
    restrictedTopic: notInstalledEngine(),
    embedding: notInstalledEngine(),
    sentiment: vaderSentimentEngine,
    invisibleText: invisibleTextEngine,
    gibberish: notInstalledEngine(),
    banCode: notInstalledEngine(),
  }
}

/**
 * The engines that need no downloaded weights: the exact ones, and the models trained from
 * shipped data in public/models/offline (each available while its graph file is there).
 */
export function offlineEngines(): ModerationEngines {
  return {
    ...exactOfflineEngines(),
    banCode: offlineBanCodeEngine,
    promptInjection: offlinePromptInjectionEngine,
    gibberish: offlineGibberishEngine,
    toxicity: offlineToxicityEngine,
    embedding: offlineEmbeddingEngine,
    restrictedTopic: offlineTopicEngine,
  }
}

/** What a deployment answers with: each check's neural model where it is installed in MODELS_DIR, the offline engine otherwise. */
export function deploymentEngines(): ModerationEngines {
  return withNeuralEngines(offlineEngines())
}
