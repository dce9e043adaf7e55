/**
 * The ten checks, in the order the API's document and the playground list them. A new check is
 * a module in this folder and a line here: the server's endpoints and engines, the OpenAPI
 * document and the browser playground are all built from this table.
 */
import type { ModerationEngine } from '@/lib/moderation/engines/types'
import type { ModelChoice } from '@/lib/moderation/runtime/settings'
import { engineCall, type Answer, type InputOf, type OutputOf } from './check'
import { banCodeCheck } from './ban-code'
import { embeddingCheck } from './embedding'
import { gibberishCheck } from './gibberish'
import { invisibleTextCheck } from './invisible-text'
import { privacyCheck } from './privacy'
import { promptInjectionCheck } from './prompt-injection'
import { restrictedTopicCheck } from './restricted-topic'
import { sentimentCheck } from './sentiment'
import { similarityCheck } from './similarity'
import { toxicityCheck } from './toxicity'

export const CHECKS = [
  toxicityCheck,
  privacyCheck,
  promptInjectionCheck,
  restrictedTopicCheck,
  embeddingCheck,
  similarityCheck,
  sentimentCheck,
  invisibleTextCheck,
  gibberishCheck,
  banCodeCheck,
] as const

export type AnyCheck = (typeof CHECKS)[number]
export type CheckPath = AnyCheck['path']
type AnyEngineSpec = AnyCheck['engine']
export type EngineKey = AnyEngineSpec['key']

/** Every engine spec once (similarity shares the embedding engine). */
export const ENGINE_SPECS: readonly AnyEngineSpec[] = [...new Map(CHECKS.map((c) => [c.engine.key, c.engine as AnyEngineSpec])).values()]

/** The engine behind each engine key, as one platform runs it. */
export type ModerationEngines = {
  [S in AnyEngineSpec as S['key']]: ModerationEngine<InputOf<S>, OutputOf<S>>
}

/** A validated request answered by the check over its engine in `engines` (the server's, or the browser's); `model`: a model repo the caller picked. */
export function answerCheck(check: AnyCheck, body: unknown, engines: ModerationEngines, model?: ModelChoice): Promise<Answer> {
  const engine = engines[check.engine.key]
  // The table pairs each check with its own engine; the union of checks cannot say so to the compiler.
  const answer = check.answer as (body: unknown, run: unknown) => Promise<Answer>
  return answer(body, engineCall(check.engine as never, engine as never, model))
}

export function findCheck(path: string): AnyCheck | undefined {
  return CHECKS.find((c) => c.path === path)
}

export { EngineFailedError, formatTimeTaken, modelsPullName, neuralModelFor, type ModerationCheck, type OfflineModels } from './check'
