/**
 * Runs the offline engines' ONNX graphs on the server with onnxruntime-node. The graphs come from
 * a model repo on this hub (OFFLINE_MODELS_REPO at OFFLINE_MODELS_REVISION, downloaded into the
 * model cache on first use: lib/hub/model-cache.ts), or from the OFFLINE_MODELS_DIR folder when
 * that is set (air-gapped installs). The browser runs the same files with onnxruntime-web through
 * the same `GraphRunner` signature; pre- and post-processing live in lib/moderation/offline.
 */
import { processState } from '@/lib/config/process-state'
import fs from 'node:fs'
import path from 'node:path'
import * as ort from 'onnxruntime-node'
import { setting } from '@/lib/config'
import { modelSnapshot, ModelRepoError } from '@/lib/hub/model-cache'
import { EngineUnavailableError } from '@/lib/moderation/errors'
import type { Feeds, GraphOutputs } from '@/lib/moderation/offline/graph-io'
import type { OfflineModels } from '@/lib/moderation/checks/check'
import type { ModerationEngine } from './types'

export type OfflineModelsSource = { kind: 'folder'; folder: string } | { kind: 'repo'; repo: string; revision: string }

export function offlineModelsSource(): OfflineModelsSource {
  const folder = setting('OFFLINE_MODELS_DIR')
  if (folder) return { kind: 'folder', folder: path.resolve(folder) }
  return { kind: 'repo', repo: setting('OFFLINE_MODELS_REPO'), revision: setting('OFFLINE_MODELS_REVISION') }
}

/** What an offline engine answers with: its model's name, and the repo and revision it was loaded from. */
export function offlineEngineName(model: string, source = offlineModelsSource()): string {
  return source.kind === 'folder' ? `offline:${model}` : `offline:${model} (${source.repo}@${source.revision})`
}

// Loaded once per process, whichever module copy asks (lib/config/process-state).
const snapshots = processState('offlineSnapshots', () => new Map<string, Promise<string>>())

// The engines' files found in a folder, once per folder and engine: a snapshot's files never change, and
// looking for them on every request cost a tenth of a restricted-topic answer (four stat calls).
const verified = processState('offlineVerifiedFiles', () => new Set<string>())

/** Forgets the repo revisions loaded so far, as a restarted process would (tests). */
export function forgetOfflineSnapshots() {
  snapshots.clear()
  verified.clear()
}

/**
 * The folder holding the offline graphs: OFFLINE_MODELS_DIR, or the repo revision's snapshot in
 * the model cache (downloaded once per process and revision; a branch is resolved on first use).
 * A repo that cannot be used is an EngineUnavailableError that names the repo and what is missing.
 */
export async function offlineModelsDir(files: readonly string[] = []): Promise<string> {
  const source = offlineModelsSource()
  if (source.kind === 'folder') return source.folder
  const key = `${source.repo}@${source.revision}`
  let loading = snapshots.get(key)
  if (!loading) {
    loading = modelSnapshot(source.repo, source.revision).then((s) => s.dir)
    loading.catch(() => snapshots.delete(key))
    snapshots.set(key, loading)
  }
  let dir: string
  try {
    dir = await loading
  } catch (error) {
    if (error instanceof ModelRepoError) throw new EngineUnavailableError(undefined, error.message)
    throw error
  }
  const check = `${dir}\n${files.join('\n')}`
  if (verified.has(check)) return dir
  const missing = files.filter((file) => !fs.existsSync(path.join(dir, file)))
  if (missing.length > 0) throw new EngineUnavailableError(undefined, `${key}: missing ${missing.join(', ')}`)
  verified.add(check)
  return dir
}

const jsonFiles = processState('offlineJsonFiles', () => new Map<string, unknown>())

const folders = processState('offlineFolders', () => new Map<string, OfflineModels>())

/** The graph runner and JSON reader over one folder (a snapshot, OFFLINE_MODELS_DIR, or the training output). */
export function offlineFolder(dir: string): OfflineModels {
  let folder = folders.get(dir)
  if (!folder) folders.set(dir, (folder = folderModels(dir)))
  return folder
}

function folderModels(dir: string): OfflineModels {
  // Each graph's session by its name in this folder (the folder's runner is made once per process), so that a request
  // joins no paths; a session that failed to load is tried again on the next request.
  const sessions = new Map<string, Promise<ort.InferenceSession>>()
  const sessionOf = (graph: string) => {
    let loading = sessions.get(graph)
    if (!loading) {
      // The graphs are a few element-wise ops over at most a few thousand values: one thread is fastest.
      loading = ort.InferenceSession.create(path.join(dir, graph), { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' })
      loading.catch(() => sessions.delete(graph))
      sessions.set(graph, loading)
    }
    return loading
  }
  return {
    id: dir,
    runGraph: async (graph: string, feeds: Feeds): Promise<GraphOutputs> => {
      const tensors = Object.fromEntries(Object.entries(feeds).map(([name, feed]) => [name, new ort.Tensor(feed.type, feed.data, feed.dims)]))
      const outputs = await (await sessionOf(graph)).run(tensors)
      return Object.fromEntries(Object.entries(outputs).map(([name, tensor]) => [name, tensor.data as Float32Array]))
    },
    json<T>(file: string): T {
      const full = path.join(dir, file)
      if (!jsonFiles.has(full)) jsonFiles.set(full, JSON.parse(fs.readFileSync(full, 'utf8')))
      return jsonFiles.get(full) as T
    },
  }
}

/**
 * An engine over the offline graphs `files`. From a folder it is available while the files are
 * there; from a repo it is tried (the first run downloads the revision) and a repo that cannot
 * be used answers EngineUnavailableError with the reason.
 */
export function offlineEngine<Input, Output>(
  model: string,
  files: readonly string[],
  run: (models: OfflineModels, input: Input) => Promise<Output>,
): ModerationEngine<Input, Output> {
  return {
    get name() {
      return offlineEngineName(model)
    },
    available: () => {
      const source = offlineModelsSource()
      return source.kind === 'repo' || files.every((file) => fs.existsSync(path.join(source.folder, file)))
    },
    run: async (input) => run(offlineFolder(await offlineModelsDir(files)), input),
  }
}
