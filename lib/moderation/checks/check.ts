/**
 * What one moderation check is, in one module: its request and answer schemas, the engine that
 * answers it (rules that run anywhere, an offline graph model, a neural model, or several of
 * them), and how the engine's output becomes the toolkit's exact 200 body. The server
 * (lib/moderation/engines/registry.ts, lib/moderation/api) and the browser playground
 * (lib/moderation/browser) build everything they serve from the table in ./index.ts, so a new
 * check is one module here plus one line there.
 *
 * Browser-safe: no node: modules, no ONNX runtime. The platforms supply `OfflineModels` and
 * `NeuralModel`.
 */
import type { z } from 'zod'
import type { ModerationLimits } from '@/lib/moderation/api/settings'
import type { ModerationEngine } from '@/lib/moderation/engines/types'
import { EngineUnavailableError, ModelNotFoundError, PickedModelUnusableError } from '@/lib/moderation/errors'
import { pythonRound } from '@/lib/moderation/engines/python-round'
import type { GraphRunner } from '@/lib/moderation/offline/graph-io'
import type { NeuralCheck } from '@/lib/moderation/runtime/manifest'
import type { ModelChoice } from '@/lib/moderation/runtime/settings'
import type { NeuralModel } from '@/lib/moderation/runtime/neural-steps'

/**
 * The platform an offline engine runs on: its graphs by file name, and the JSON files beside them
 * (vocabularies, metadata), read once. `id` names the set of files (a folder, a repo revision, a
 * browser device) so caches of derived values can be keyed by it.
 */
export interface OfflineModels {
  id: string
  runGraph: GraphRunner
  json<T>(file: string): T
}

/** The engine behind one or more checks; the platforms pick, per request, the first of neural, offline, exact that can run. */
export interface EngineSpec<Key extends string = string, Input = never, Output = unknown> {
  /** The engine's name in the engine tables (and the playground's state). */
  key: Key
  /** Rule-based: plain TypeScript that runs the same on the server and in the browser. */
  exact?: ModerationEngine<Input, Output>
  /** An ONNX graph model shipped with the hub (the offline models repo), with the files it reads. */
  offline?: {
    model: string
    files: readonly string[]
    run(models: OfflineModels, input: Input): Promise<Output>
  }
  /** A neural model from the manifest (pulled, or a model repo on the hub). */
  neural?: {
    /** Every manifest model this engine can run; the first is the one `npm run models:pull` installs for the check. */
    models: readonly NeuralCheck[]
    /** The model a request asks for (the zero-shot checks have two); absent: the first. */
    pick?(input: Input): NeuralCheck
    run(model: NeuralModel, input: Input): Promise<Output>
  }
}

export function defineEngine<Key extends string, Input, Output>(spec: EngineSpec<Key, Input, Output>): EngineSpec<Key, Input, Output> {
  return spec
}

/** The neural model that answers `input`, or null for an engine without one. */
export function neuralModelFor<Input>(spec: EngineSpec<string, Input, unknown>, input: Input): NeuralCheck | null {
  if (!spec.neural) return null
  return spec.neural.pick ? spec.neural.pick(input) : spec.neural.models[0]!
}

export type InputOf<S> = S extends EngineSpec<string, infer Input, unknown> ? Input : never
export type OutputOf<S> = S extends EngineSpec<string, never, infer Output> ? Output : never

/** A named request schema (the spec's component name), built with the deployment's limits. */
export interface RequestSchema<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  name: Name
  build(limits: ModerationLimits): Schema
}

export type Answer = { body: unknown; engine: string }

/** Runs the check's engine on one input and times it; `engine` names the engine that answered that input. */
export type EngineCall<Input, Output> = (input: Input) => Promise<{ output: Output; seconds: number; engine: string }>

export interface ModerationCheck<Schema extends z.ZodType = z.ZodType, Spec extends EngineSpec<string, never, unknown> = EngineSpec<string, never, unknown>> {
  /** The path under /rai/v1/raimoderationmodels/. */
  path: string
  /** The check's name for people (the playground). */
  title: string
  /** The OpenAPI operation's summary. */
  summary: string
  request: RequestSchema<string, Schema>
  /** The 200 body's component name and schema, plus any schema it refers to by name. */
  response: { name: string; schema: z.ZodType; components?: Record<string, z.ZodType> }
  /** Extra OpenAPI parameters the toolkit's document declares for this path. */
  openApiParameters?: readonly Record<string, unknown>[]
  engine: Spec
  /** The neural model a request asks for, where the request picks one (the zero-shot checks); absent: the engine's first. */
  neuralModelFor?(body: z.output<Schema>): NeuralCheck
  example: z.input<Schema>
  /**
   * The characters a request costs against the caller's budget per minute, where its work grows
   * with more than its text (the zero-shot check reads the text once per label); absent: every
   * string's length.
   */
  characterCost?(body: z.output<Schema>): number
  /** Whether a request runs the engine at all (the similarity of two given embeddings runs none); absent: every request does. */
  runsEngine?(body: z.output<Schema>): boolean
  answer(body: z.output<Schema>, run: EngineCall<InputOf<Spec>, OutputOf<Spec>>): Promise<Answer>
}

export function defineCheck<Schema extends z.ZodType, Spec extends EngineSpec<string, never, unknown>>(
  check: ModerationCheck<Schema, Spec>,
): ModerationCheck<Schema, Spec> {
  return check
}

/** The `npm run models:pull` name of the model a check installs, or null for a check without a neural model. */
export function modelsPullName(check: ModerationCheck): string | null {
  return check.engine.neural?.models[0] ?? null
}

export class EngineFailedError extends Error {
  constructor(
    readonly engineName: string,
    readonly reason: string,
  ) {
    super(`engine ${engineName} failed: ${reason}`)
  }
}

/**
 * The EngineCall over one platform's engine for `spec`: refuses an input the engine cannot answer
 * (EngineUnavailableError naming the model to pull), times the run, and wraps an engine's own
 * failure in EngineFailedError.
 */
export function engineCall<Input, Output>(
  spec: EngineSpec<string, Input, Output>,
  engine: ModerationEngine<Input, Output>,
  model?: ModelChoice,
): EngineCall<Input, Output> {
  return async (input) => {
    // A model the caller picked is tried whatever is installed: it answers, or says why not.
    const available = model !== undefined || (engine.availableFor ? engine.availableFor(input) : engine.available())
    if (!available) throw new EngineUnavailableError(neuralModelFor(spec, input) ?? undefined)
    const name = model ? `neural:${model.repo}@${model.revision}` : engine.nameFor ? engine.nameFor(input) : engine.name
    const started = performance.now()
    try {
      const output = await engine.run(input, model)
      return { output, seconds: (performance.now() - started) / 1000, engine: name }
    } catch (error) {
      if (error instanceof EngineUnavailableError || error instanceof ModelNotFoundError || error instanceof PickedModelUnusableError) throw error
      throw new EngineFailedError(name, error instanceof Error ? error.message : String(error))
    }
  }
}

/** Python's `str(round(seconds, 3)) + "s"`. */
export function formatTimeTaken(seconds: number): string {
  const rounded = pythonRound(seconds, 3)
  return `${Number.isInteger(rounded) ? rounded.toFixed(1) : String(rounded)}s`
}
