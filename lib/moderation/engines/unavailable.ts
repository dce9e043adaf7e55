import { EngineUnavailableError } from '@/lib/moderation/errors'
import type { ModerationEngine } from './types'

/** Stands in for a check whose neural model is not installed and that has no offline engine yet. */
export function notInstalledEngine<Input, Output>(): ModerationEngine<Input, Output> {
  return {
    name: 'none',
    available: () => false,
    run: () => Promise.reject(new EngineUnavailableError()),
  }
}
