/**
 * Runs the offline engines' ONNX graphs (public/models/offline/, or OFFLINE_MODELS_DIR) on the
 * server with onnxruntime-node. The browser runs the same files with onnxruntime-web through
 * the same `GraphRunner` signature; pre- and post-processing live in lib/moderation/offline.
 */
import fs from 'node:fs'
import path from 'node:path'
import * as ort from 'onnxruntime-node'
import { setting } from '@/lib/config'
import type { Feeds, GraphOutputs, GraphRunner } from '@/lib/moderation/offline/graph-io'

export function offlineModelsDir(): string {
  return path.resolve(setting('OFFLINE_MODELS_DIR'))
}

export function graphInstalled(graph: string): boolean {
  return fs.existsSync(path.join(offlineModelsDir(), graph))
}

const sessions = new Map<string, Promise<ort.InferenceSession>>()

function session(graph: string): Promise<ort.InferenceSession> {
  const file = path.join(offlineModelsDir(), graph)
  let loading = sessions.get(file)
  if (!loading) {
    // The graphs are a few element-wise ops over at most a few thousand values: one thread is fastest.
    loading = ort.InferenceSession.create(file, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' })
    loading.catch(() => sessions.delete(file))
    sessions.set(file, loading)
  }
  return loading
}

export const runGraph: GraphRunner = async (graph: string, feeds: Feeds): Promise<GraphOutputs> => {
  const tensors = Object.fromEntries(Object.entries(feeds).map(([name, feed]) => [name, new ort.Tensor(feed.type, feed.data, feed.dims)]))
  const outputs = await (await session(graph)).run(tensors)
  return Object.fromEntries(Object.entries(outputs).map(([name, tensor]) => [name, tensor.data as Float32Array]))
}

const jsonFiles = new Map<string, unknown>()

/** A JSON file beside the graphs (vocabularies, metadata), read once. */
export function offlineJson<T>(file: string): T {
  const full = path.join(offlineModelsDir(), file)
  if (!jsonFiles.has(full)) jsonFiles.set(full, JSON.parse(fs.readFileSync(full, 'utf8')))
  return jsonFiles.get(full) as T
}
