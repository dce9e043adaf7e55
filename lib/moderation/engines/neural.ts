/**
 * The server's neural engines: a check's neural model (lib/moderation/runtime, loaded from a
 * model repo on this hub or MODELS_DIR) run through the check's own post-processing
 * (lib/moderation/checks), and the rule that answers with it while it is installed and with the
 * check's offline engine otherwise.
 */
import type { EngineSpec } from '@/lib/moderation/checks/check'
import { neuralModelFor } from '@/lib/moderation/checks/check'
import { modelInfo, neuralAvailable, neuralAvailableFromRepo, neuralModel, type ModelChoice, type NeuralCheck } from '@/lib/moderation/runtime'
import type { ModerationEngine } from './types'

/** `neural:<model id>` from MODELS_DIR; `neural:<repo>@<revision>` for a model repo on this hub. */
export function neuralEngineName(check: NeuralCheck): string {
  const { id, revision } = modelInfo(check)
  return neuralAvailableFromRepo(check) ? `neural:${id}@${revision}` : `neural:${id}`
}

/** The engine over `spec`'s neural models; which one answers depends on the request (the zero-shot checks have two). */
export function neuralEngine<Input, Output>(spec: EngineSpec<string, Input, Output>): ModerationEngine<Input, Output> {
  const neural = spec.neural
  if (!neural) throw new Error(`the ${spec.key} engine has no neural model`)
  const modelFor = (input: Input) => neuralModelFor(spec, input)!
  return {
    get name() {
      return neuralEngineName(neural.models[0]!)
    },
    nameFor: (input) => neuralEngineName(modelFor(input)),
    available: () => neuralAvailable(neural.models[0]!),
    availableFor: (input) => neuralAvailable(modelFor(input)),
    run: async (input, choice?: ModelChoice) => neural.run(await neuralModel(modelFor(input), choice), input),
  }
}
