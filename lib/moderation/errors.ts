// The one error for a check whose engine cannot run (its model is not installed, or went missing
// between the availability check and the run). The API answers it with a 503 that names the
// model to pull, or the model repo and what is missing from it; the playground shows it on the check's card.
export const MODEL_NOT_INSTALLED = 'model not installed'

export class EngineUnavailableError extends Error {
  constructor(
    /** The `npm run models:pull` name when it differs from the endpoint's (a request that picks another model). */
    readonly modelsPullName?: string,
    detail = MODEL_NOT_INSTALLED,
  ) {
    super(detail)
    this.name = 'EngineUnavailableError'
  }

  // The model runtime is one per process (lib/config/process-state), so its errors may come from
  // another bundle's copy of this module: `instanceof` goes by the name, not the class object.
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === 'EngineUnavailableError'
  }
}

/** A model the caller picked (`?model=`) that does not exist or that they cannot read: a 404, as the hub answers for a private repo. */
export class ModelNotFoundError extends Error {
  override name = 'ModelNotFoundError'

  // As above: thrown by the one model runtime, caught by the route's own copy of this module.
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === 'ModelNotFoundError'
  }
}

/**
 * A model the caller picked (`?model=`) that exists and that they may read, but that this check cannot run (files
 * missing, another kind of model): a 422, their choice to change, not an outage to wait out (a 503 invites retries).
 */
export class PickedModelUnusableError extends Error {
  override name = 'PickedModelUnusableError'

  // As above: thrown by the one model runtime, caught by the route's own copy of this module.
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === 'PickedModelUnusableError'
  }
}
