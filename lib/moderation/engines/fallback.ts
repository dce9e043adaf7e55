// Browser-safe: the server's registry and the playground's runner both pick engines this way.
import type { ModerationEngine } from './types'

/**
 * The neural engine while its model is installed, the fallback (an offline engine, or "not
 * installed") otherwise. Decided on every request, so a model pulled while the server runs is
 * used from the next request on; `nameFor` reports the engine that answered that input.
 */
export function neuralOrFallback<Input, Output>(
  neural: ModerationEngine<Input, Output>,
  fallback: ModerationEngine<Input, Output>,
): ModerationEngine<Input, Output> {
  const usesNeural = (input: Input) => (neural.availableFor ? neural.availableFor(input) : neural.available())
  const chosen = (input: Input) => (usesNeural(input) ? neural : fallback)
  return {
    get name() {
      return neural.available() ? neural.name : fallback.name
    },
    nameFor: (input) => {
      const engine = chosen(input)
      return engine.nameFor ? engine.nameFor(input) : engine.name
    },
    available: () => neural.available() || fallback.available(),
    availableFor: (input) => usesNeural(input) || (fallback.availableFor ? fallback.availableFor(input) : fallback.available()),
    // A model the caller picked runs on the neural engine or answers why not: never silently the fallback.
    run: (input, model) => (model ? neural.run(input, model) : chosen(input).run(input)),
  }
}
