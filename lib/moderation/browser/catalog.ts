/**
 * What the server tells the playground it may load in the browser: the neural models and the
 * offline engines' files from the hub's model repos (their /resolve/ URLs), and the name each
 * offline engine answers with on the server (so the browser reports the same engine). Plain data,
 * built by server-catalog.ts.
 */
import type { ModerationLimits } from '@/lib/moderation/api/settings'
import { CHECKS, type CheckPath, type EngineKey } from '@/lib/moderation/checks'
import type { NeuralCheck } from '@/lib/moderation/runtime/manifest'
import type { ModelFile } from './model-files'

/** The onnxruntime-web default build runs WebGPU and WASM from this one binary (its "jsep" flavour), served from /ort/. */
export const ORT_WASM_NAME = 'ort-wasm-simd-threaded.jsep.wasm'

/** transformers.js's `env.remotePathTemplate` for a Hugging Face compatible hub; `env.remoteHost` is the hub's origin. */
export const REMOTE_PATH_TEMPLATE = '{model}/resolve/{revision}/'

/** A repo file's same-origin URL, as transformers.js builds it from REMOTE_PATH_TEMPLATE. */
export function resolvePath(model: string, revision: string, file: string): string {
  const base = REMOTE_PATH_TEMPLATE.replaceAll('{model}', model).replaceAll('{revision}', encodeURIComponent(revision))
  return `/${base}${file}`
}

/**
 * A neural model in the transformers.js layout, from model repo `id` at `revision` (the branch or
 * tag asked for), which named `commit` when listed; transformers.js loads its files at that commit.
 * `graph`: its onnx/model.onnx (one loaded model per graph URL, that is per repo and commit).
 */
export type NeuralModelFiles = { id: string; revision: string; commit: string; graph: ModelFile }

export type BrowserCatalog = {
  /** onnxruntime-web's WebAssembly binary as the hub serves it (public/ort/); null when scripts/copy-ort.mjs has not run. */
  runtimeFile: ModelFile | null
  /** The onnxruntime-web build transformers.js bundles (it runs the neural models), served from /ort/<version>/; null when scripts/copy-ort.mjs has not run. */
  transformersRuntime: { version: string; wasm: ModelFile; mjs: ModelFile } | null
  neural: Partial<Record<NeuralCheck, NeuralModelFiles>>
  /** Offline engine files by file name (e.g. "bancode.onnx"). */
  offlineFiles: Record<string, ModelFile>
  /** The offline engine each check answers with on the server; "none" where it has none. */
  offlineEngineNames: Record<EngineKey, string>
  /** Model repos the server runs that this viewer cannot read, each with the reason (not loaded in their browser). */
  unreadable: string[]
  limits: ModerationLimits
}

/** The checks as the playground lists them: the API path, a name for people, the engine behind it, and whether it runs a neural model (a repo the user may pick). */
export const PLAYGROUND_CHECKS = CHECKS.map((check) => ({ path: check.path, title: check.title, engine: check.engine.key, runsModel: check.engine.neural !== undefined }))

export type { CheckPath, EngineKey }
