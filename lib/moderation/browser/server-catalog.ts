/**
 * Server side of the playground's catalog (Node only; the page renders it, the browser receives
 * plain data): the model files each check loads in the browser, as the hub's own `/resolve/` URLs
 * of the repos the server runs (`{model}/resolve/{revision}/` under the hub's origin: the URL
 * transformers.js builds from `env.remoteHost` and `env.remotePathTemplate`), pinned to the
 * commit the branch names now, so a URL's content never changes and the browser's cache needs no
 * version. The browser fetches them as the viewer, with the session cookie: a repo the viewer
 * cannot read is left out of their catalog here, with the reason, rather than failing there.
 */
import path from 'node:path'
import fs from 'node:fs'
import { modelSnapshot, ModelRepoError, type ModelSnapshot } from '@/lib/hub/model-cache'
import { setting } from '@/lib/config'
import type { Caller } from '@/lib/policy'
import { moderationSettings } from '@/lib/moderation/api/settings'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { NEURAL_CHECKS } from '@/lib/moderation/runtime/manifest'
import { parseModelChoice, settingsFromEnv } from '@/lib/moderation/runtime/settings'
import { findCheck } from '@/lib/moderation/checks'
import { ORT_WASM_NAME, resolvePath, type BrowserCatalog, type CheckPath, type EngineKey, type NeuralModelFiles } from './catalog'
import type { ModelFile } from './model-files'

/** Offline engines keep graphs, vocabularies and metadata side by side; nothing else there is loaded. */
const OFFLINE_FILE = /^[\w.+-]+\.(onnx|json)$/

/** The repo revision as the viewer may read it, or why not (left out of the catalog). */
async function snapshotFor(viewer: Caller, repo: string, revision: string, required: string[]): Promise<ModelSnapshot | string> {
  try {
    return await modelSnapshot(repo, revision, required, { caller: viewer })
  } catch (error) {
    if (error instanceof ModelRepoError) return error.message
    throw error
  }
}

function repoFile(snapshot: ModelSnapshot, file: string, name: string): ModelFile | null {
  const entry = snapshot.files.find((f) => f.path === file)
  return entry ? { url: resolvePath(snapshot.repo, snapshot.commitId, file), name, size: entry.size } : null
}

/** The transformers.js layout's files a neural model needs in the browser (the server loads the same ones). */
const NEURAL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'] as const

/** A neural model's browser files from `repo` at `revision`, as `viewer` may read them, or why not (naming the repo). */
async function neuralFiles(viewer: Caller, repo: string, revision: string): Promise<NeuralModelFiles | string> {
  const snapshot = await snapshotFor(viewer, repo, revision, [...NEURAL_FILES])
  if (typeof snapshot === 'string') return snapshot
  const graph = repoFile(snapshot, 'onnx/model.onnx', `${repo}/onnx/model.onnx`)
  // modelSnapshot has checked that every file of NEURAL_FILES is there.
  if (!graph) return `${repo}@${revision}: missing onnx/model.onnx`
  return { id: repo, revision, commit: snapshot.commitId, graph }
}

/**
 * The playground's repo picker: the model repo `value` (`namespace/name[@revision]`) that the
 * viewer typed for check `path`, as browser files pinned to the revision's commit, or a message
 * that names the repo and what is wrong (not a repo id, a check without a model, no such repo or
 * no read access, no such revision, files missing). The server run of the same pick is the API's
 * `?model=`, which reads the repo with the same access.
 */
export async function pickedModelFiles(viewer: Caller, path: CheckPath, value: string): Promise<{ files: NeuralModelFiles } | { error: string }> {
  if (!findCheck(path)?.engine.neural) return { error: `The ${path} check runs no model.` }
  const picked = parseModelChoice(value)
  if ('problem' in picked) return { error: `"${value}": must be namespace/name or namespace/name@revision.` }
  const files = await neuralFiles(viewer, picked.repo, picked.revision)
  return typeof files === 'string' ? { error: files } : { files }
}

export async function browserCatalog(viewer: Caller): Promise<BrowserCatalog> {
  const neural: BrowserCatalog['neural'] = {}
  const unreadable: string[] = []
  const { repos } = settingsFromEnv()
  for (const check of NEURAL_CHECKS) {
    const source = repos[check]
    if (!source) continue
    const files = await neuralFiles(viewer, source.repo, source.revision)
    if (typeof files === 'string') unreadable.push(files)
    else neural[check] = files
  }
  // The browser runs the offline graphs from their repo even where the server reads OFFLINE_MODELS_DIR (an air-gapped folder override of the same files).
  const offlineRepo = setting('OFFLINE_MODELS_REPO')
  const offline = await snapshotFor(viewer, offlineRepo, setting('OFFLINE_MODELS_REVISION'), [])
  const offlineFiles: Record<string, ModelFile> = {}
  if (typeof offline === 'string') unreadable.push(offline)
  else for (const f of offline.files.filter((f) => OFFLINE_FILE.test(f.path)).sort((a, b) => a.path.localeCompare(b.path))) offlineFiles[f.path] = repoFile(offline, f.path, f.path)!
  const engines = offlineEngines()
  const offlineEngineNames = Object.fromEntries(
    (Object.keys(engines) as EngineKey[]).map((key) => [key, engines[key].available() ? engines[key].name : 'none']),
  ) as Record<EngineKey, string>
  const runtimeFile = servedFile(path.resolve('public/ort', ORT_WASM_NAME), `/ort/${ORT_WASM_NAME}`, ORT_WASM_NAME)
  return { runtimeFile, transformersRuntime: transformersRuntime(), neural, offlineFiles, offlineEngineNames, unreadable, limits: moderationSettings().limits }
}

/** transformers.js's own onnxruntime-web build as scripts/copy-ort.mjs copied it (its version and files in public/ort/transformers-ort.json). */
function transformersRuntime(): BrowserCatalog['transformersRuntime'] {
  let listed: { version: string; files: string[] }
  try {
    listed = JSON.parse(fs.readFileSync(path.resolve('public/ort/transformers-ort.json'), 'utf8'))
  } catch {
    return null
  }
  const served = (suffix: string) => {
    const name = listed.files.find((f) => f.endsWith(suffix))
    return name ? servedFile(path.resolve('public/ort', listed.version, name), `/ort/${listed.version}/${name}`, name) : null
  }
  const wasm = served('.wasm')
  const mjs = served('.mjs')
  return wasm && mjs ? { version: listed.version, wasm, mjs } : null
}

/** onnxruntime-web's binary from public/ (not a model: no repo), with a version that changes with the file. */
function servedFile(absolute: string, urlPath: string, name: string): ModelFile | null {
  let stat: fs.Stats
  try {
    stat = fs.statSync(absolute)
  } catch {
    return null
  }
  if (!stat.isFile()) return null
  const version = `${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}`
  return { url: `${urlPath}?v=${version}`, name, size: stat.size }
}
