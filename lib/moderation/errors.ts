// The one error for a check whose engine cannot run (its model is not installed, or went missing
// between the availability check and the run). The API answers it with a 503 that names the
// model to pull; the playground shows it on the check's card.
export class EngineUnavailableError extends Error {
  constructor(
    /** The `npm run models:pull` name when it differs from the endpoint's (a request that picks another model). */
    readonly modelsPullName?: string,
    detail = 'model not installed',
  ) {
    super(detail)
    this.name = 'EngineUnavailableError'
  }
}
