import { invisibleTextEngine } from './invisible-text'
import { presidioStyleEngine } from './privacy'
import { vaderSentimentEngine } from './sentiment/vader'
import type { ModerationEngines } from './types'
import { notInstalledEngine } from './unavailable'

/**
 * The engines a deployment answers with when no neural model is installed: the exact offline
 * engines, and "not installed" for the checks that have no offline engine yet.
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
