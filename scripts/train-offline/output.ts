import fs from 'node:fs'
import path from 'node:path'

export const OFFLINE_MODELS_DIR = path.resolve('public/models/offline')

/** Writes a graph and its metadata (what it was trained on, with which settings) next to each other. */
export function writeModel(graphFile: string, graph: Uint8Array, metadata: Record<string, unknown>): void {
  fs.mkdirSync(OFFLINE_MODELS_DIR, { recursive: true })
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, graphFile), graph)
  const metadataFile = graphFile.replace(/\.onnx$/, '.json')
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, metadataFile), `${JSON.stringify(metadata, null, 1)}\n`)
  console.log(`  wrote ${graphFile} (${(graph.length / 1024).toFixed(0)} KiB) and ${metadataFile}`)
}

export function log(line: string): void {
  console.log(line)
}
