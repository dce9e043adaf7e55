/**
 * Server side of the playground's catalog (Node only; the page renders it, the browser receives
 * plain data): which neural models MODELS_DIR holds, which offline engine files there are, and
 * how the /model-files route maps a URL back to one of those files. Only files listed here can
 * be served, which is also the route's defence against path traversal.
 */
import fs from 'node:fs'
import path from 'node:path'
import { moderationSettings } from '@/lib/moderation/api/settings'
import { offlineModelsDir } from '@/lib/moderation/engines/offline-graphs'
import { EngineUnavailableError } from '@/lib/moderation/errors'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { MODEL_MANIFEST, NEURAL_CHECKS } from '@/lib/moderation/runtime/manifest'
import { settingsFromEnv } from '@/lib/moderation/runtime/settings'
import { ORT_WASM_NAME, type BrowserCatalog, type EngineKey, type NeuralModelFiles } from './catalog'
import type { ModelFile } from './model-files'

export const MODEL_FILES_PATH = '/model-files'

/** Offline engines keep graphs, vocabularies and metadata side by side; nothing else there is served. */
const OFFLINE_FILE = /^[\w.+-]+\.(onnx|json)$/

/** A served file: where it lives on disk, and its URL with a version that changes with the file. */
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

function neuralFile(id: string, target: string): ModelFile | null {
  // Named with the model id: every model has a config.json and a tokenizer.json.
  return servedFile(path.join(settingsFromEnv().modelsDir, ...id.split('/'), ...target.split('/')), `${MODEL_FILES_PATH}/neural/${id}/${target}`, `${id}/${target}`)
}

/** The offline graphs' folder (OFFLINE_MODELS_DIR, or the repo revision in the model cache), or null when it cannot be loaded. */
async function offlineDir(): Promise<string | null> {
  try {
    return await offlineModelsDir()
  } catch (error) {
    if (error instanceof EngineUnavailableError) return null
    throw error
  }
}

async function offlineFiles(): Promise<Record<string, ModelFile>> {
  const dir = await offlineDir()
  let names: string[] = []
  try {
    if (dir) names = fs.readdirSync(dir).filter((name) => OFFLINE_FILE.test(name))
  } catch {
    // No offline models folder: no offline graph engine in the browser either.
  }
  const files: Record<string, ModelFile> = {}
  for (const name of names.sort()) {
    const file = servedFile(path.join(dir!, name), `${MODEL_FILES_PATH}/offline/${name}`, name)
    if (file) files[name] = file
  }
  return files
}

export async function browserCatalog(): Promise<BrowserCatalog> {
  const neural: BrowserCatalog['neural'] = {}
  for (const check of NEURAL_CHECKS) {
    const { id } = MODEL_MANIFEST[check]
    const config = neuralFile(id, 'config.json')
    const tokenizer = neuralFile(id, 'tokenizer.json')
    const tokenizerConfig = neuralFile(id, 'tokenizer_config.json')
    const graph = neuralFile(id, 'onnx/model.onnx')
    if (config && tokenizer && tokenizerConfig && graph) neural[check] = { id, config, tokenizer, tokenizerConfig, graph } satisfies NeuralModelFiles
  }
  const engines = offlineEngines()
  const offlineEngineNames = Object.fromEntries(
    (Object.keys(engines) as EngineKey[]).map((key) => [key, engines[key].available() ? engines[key].name : 'none']),
  ) as Record<EngineKey, string>
  // Next serves public/ as it was when the server started; the version only has to change with the file.
  const runtimeFile = servedFile(path.resolve('public/ort', ORT_WASM_NAME), `/ort/${ORT_WASM_NAME}`, ORT_WASM_NAME)
  return { runtimeFile, neural, offlineFiles: await offlineFiles(), offlineEngineNames, limits: moderationSettings().limits }
}

/**
 * The file on disk for a /model-files/<kind>/<path> request, or null when it is not one of the
 * catalog's files: `neural/<model id>/<manifest target>` or `offline/<graph or json file>`.
 */
export async function modelFileOnDisk(segments: string[]): Promise<string | null> {
  const [kind, ...rest] = segments
  const relative = rest.join('/')
  if (kind === 'neural') {
    const entry = Object.values(MODEL_MANIFEST).find((e) => relative.startsWith(`${e.id}/`))
    const target = entry && relative.slice(entry.id.length + 1)
    if (!entry || !entry.files.some((f) => f.target === target)) return null
    return path.join(settingsFromEnv().modelsDir, ...entry.id.split('/'), ...target!.split('/'))
  }
  if (kind === 'offline' && rest.length === 1 && OFFLINE_FILE.test(relative)) {
    const dir = await offlineDir()
    return dir && path.join(dir, relative)
  }
  return null
}
