import { invisibleTextEngine } from './invisible-text'
import { withNeuralEngines } from './neural'
import { presidioStyleEngine } from './privacy'
import { vaderSentimentEngine } from './sentiment/vader'
import type { ModerationEngines } from './types'
import { notInstalledEngine } from './unavailable'

/**
 * The engines that need no downloaded weights: the exact offline engines, and "not installed"
 * for the checks that have no offline engine yet.
 */
export function offlineEngines(): ModerationEngines {
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

/** What a deployment answers with: each check's neural model where it is installed in MODELS_DIR, the offline engine otherwise. */
export function deploymentEngines(): ModerationEngines {
  return withNeuralEngines(offlineEngines())
}
