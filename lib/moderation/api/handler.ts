import type { Principal } from '@/lib/policy/principal'
import { modelPickCaller } from '@/lib/policy'
import { answerCheck, EngineFailedError, findCheck, modelsPullName, type AnyCheck, type ModerationEngines } from '@/lib/moderation/checks'
import { EngineUnavailableError, MODEL_NOT_INSTALLED, ModelNotFoundError, PickedModelUnusableError } from '@/lib/moderation/errors'
import { parseModelChoice, type ModelChoice } from '@/lib/moderation/runtime/settings'
import {
  errorResponse,
  insufficientScope,
  ModerationApiError,
  notAuthenticated,
  pydanticErrors,
  rateLimited,
  validationError,
} from './errors'
import { parseJsonBody, readBody } from './json-body'
import { sliced } from '@/lib/ratelimit'
import { RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@/lib/http/unavailable'
import { requestSchemas } from './schemas'
import type { ModerationSettings } from './settings'

export type ModerationHandlerOptions = ModerationSettings & {
  engines: ModerationEngines
  /** null: no, malformed, unknown, expired or revoked token. */
  resolvePrincipal(authorization: string | null): Promise<Principal | null>
  mayUseModeration(principal: Principal): boolean
  /** Rate-limit key of a caller without a token (auth off): its client address. */
  clientKey(request: Request): string
  now?: () => number
}

export type ModerationHandler = (request: Request, check: string) => Promise<Response>

/**
 * POST /rai/v1/raimoderationmodels/{check}: 404 for an unknown check, then auth (401/403), rate
 * limit (429), body size (413), a JSON body that is not UTF-8 (400), JSON and schema (422; a body
 * of another Content-Type too), the engine (503 when absent or failing),
 * and the 200 body. Nothing a client sends produces a 500.
 */
export function createModerationHandler(options: ModerationHandlerOptions): ModerationHandler {
  const schemas = requestSchemas(options.limits)

  async function authenticate(request: Request): Promise<Principal | null> {
    if (!options.authRequired) return null
    const authorization = request.headers.get('authorization')
    const principal = await options.resolvePrincipal(authorization)
    const tokenGiven = authorization !== null && authorization.trim() !== '' && authorization.trim() !== 'None'
    if (!principal) throw notAuthenticated(tokenGiven)
    if (!options.mayUseModeration(principal)) throw insufficientScope()
    return principal
  }

  function parse(check: AnyCheck, body: unknown) {
    const result = schemas[check.request.name]!.safeParse(body, { reportInput: true })
    if (!result.success) throw validationError(pydanticErrors(result.error.issues, body))
    return result.data
  }

  /**
   * The characters of text a request brings, against the caller's budget per minute: a check's
   * CPU grows with its text (up to about a second for 50,000 characters on the offline engines),
   * so the request limit alone let one token keep the server busy.
   */
  async function spendCharacters(key: string, check: AnyCheck, sent: unknown, parsed: unknown) {
    const perMinute = options.rateLimit.charactersPerMinute
    if (perMinute <= 0) return
    // The strings the caller sent, not the defaults the schema filled in (gibberish's labels were charged to everyone).
    const characters = check.characterCost ? (check.characterCost as (body: unknown) => number)(parsed) : textLength(sent)
    if (characters > perMinute) {
      throw new ModerationApiError(413, `The request's text (${characters} characters) is more than the ${perMinute} characters a caller may send per minute`)
    }
    const decision = await sliced.hitWeighted(`moderation-characters:${key}`, perMinute, 60, characters, options.now?.())
    if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds, `more than ${perMinute} characters of text per minute`)
  }

  async function answer(request: Request, check: AnyCheck): Promise<Response> {
    const principal = await authenticate(request)
    // Per account, not per token: a user may hold many tokens and make more at will.
    const key = principal ? `user:${principal.userId}` : `client:${options.clientKey(request)}`
    // Counted in the database in slices (lib/ratelimit), so every instance behind a load balancer shares it.
    const perMinute = options.rateLimit.requestsPerMinute
    const decision = perMinute > 0 ? await sliced.hit(`moderation:${key}`, perMinute, 60, options.now?.()) : { allowed: true, retryAfterSeconds: 0 }
    if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds)
    const model = pickedModel(request, check, principal)
    const body = parseJsonBody(await readBody(request, options.limits.maxBodyBytes), request.headers.get('content-type'))
    const parsed = parse(check, body)
    // A picked model that would read nothing is a mistake to say, not to ignore (a misspelt or unreadable repo answered 200).
    if (model && check.runsEngine && !(check.runsEngine as (body: unknown) => boolean)(parsed)) throw modelProblem(request, `This request runs no model (it holds no text for the ${check.path} check to read): leave out ?model`)
    await spendCharacters(key, check, body, parsed)
    const { body: answerBody, engine } = await answerCheck(check, parsed, options.engines, model)
    return Response.json(answerBody, { headers: { 'X-Moderation-Engine': engine } })
  }

  return async function handleModerationRequest(request, check) {
    const found = findCheck(check)
    if (!found) return errorResponse(new ModerationApiError(404, 'Not Found'))
    try {
      return await answer(request, found)
    } catch (error) {
      return errorResponse(asApiError(error, found))
    }
  }
}

/** Every string's length in a validated body (texts, labels, lists of them), summed. */
function textLength(value: unknown): number {
  if (typeof value === 'string') return value.length
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + textLength(item), 0)
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((sum: number, item) => sum + textLength(item), 0)
  return 0
}

/**
 * `?model=namespace/name[@revision]`: a model repo the caller picked instead of the check's
 * configured one (the playground's repo picker). It is read with the caller's own access (the
 * token's user and its scopes, see modelPickCaller; anonymous when auth is off), so a private repo answers only those
 * who may read it on the hub; the configured models are read with the hub's own authority.
 */
function pickedModel(request: Request, check: AnyCheck, principal: Principal | null): ModelChoice | undefined {
  const value = new URL(request.url).searchParams.get('model')
  if (value === null) return undefined
  if (modelsPullName(check) === null) throw modelProblem(request, `The ${check.path} check runs no model`)
  const picked = parseModelChoice(value)
  if ('problem' in picked) throw modelProblem(request, picked.problem)
  const { repo, revision } = picked
  return { repo, revision, caller: principal ? modelPickCaller(principal) : null }
}

/** A 422 about the request's `?model=`, as FastAPI words a query parameter's validation error. */
function modelProblem(request: Request, msg: string): ModerationApiError {
  return validationError([{ type: 'value_error', loc: ['query', 'model'], msg, input: new URL(request.url).searchParams.get('model') }])
}

function asApiError(error: unknown, endpoint: AnyCheck): ModerationApiError {
  if (error instanceof ModerationApiError) return error
  if (error instanceof ModelNotFoundError) return new ModerationApiError(404, error.message)
  if (error instanceof PickedModelUnusableError) {
    return validationError([{ type: 'value_error', loc: ['query', 'model'], msg: `The model picked cannot run the ${endpoint.path} check: ${error.message}` }])
  }
  if (error instanceof EngineUnavailableError) {
    const pullName = error.modelsPullName ?? modelsPullName(endpoint)
    const fix = pullName ? `: run \`npm run models:pull ${pullName}\`` : ''
    // A model repo that cannot be used says which repo and what is missing; a folder without the model says how to pull it.
    const reason = error.message === MODEL_NOT_INSTALLED ? `${MODEL_NOT_INSTALLED}${fix}` : error.message
    return new ModerationApiError(503, `The ${endpoint.path} check has no engine: ${reason}`)
  }
  if (error instanceof EngineFailedError) {
    console.error(`moderation engine ${error.engineName} failed on ${endpoint.path}:`, error.reason)
    return new ModerationApiError(503, `The ${endpoint.path} check failed in engine ${error.engineName}: ${error.reason}`)
  }
  // The token store or the rate-limit rows cannot be read for a moment: say when to try again.
  if (isDatabaseUnavailable(error)) return new ModerationApiError(503, `The ${endpoint.path} check is temporarily unavailable: the database does not answer`, { 'Retry-After': String(RETRY_AFTER_SECONDS) })
  // A fault of ours (or of the token store) must still not answer 500.
  console.error(`moderation request to ${endpoint.path} failed:`, error)
  return new ModerationApiError(503, `The ${endpoint.path} check is temporarily unavailable`)
}
