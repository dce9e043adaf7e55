// Serves onnxruntime-web's WebAssembly runtimes from the hub itself (public/ort/): browsers must
// never fetch them from a CDN. Two builds: the playground's own onnxruntime-web (the offline graphs;
// its "jsep" flavour runs WebGPU and WASM) in public/ort/, and the exact version transformers.js
// bundles (the neural models, loaded through transformers.js; it runs the asyncify flavour and would
// fetch it from jsDelivr) in public/ort/<version>/.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const root = path.join(path.dirname(new URL(import.meta.url).pathname), '..')
const target = path.join(root, 'public', 'ort')

function copy(dist, into, pattern) {
  fs.mkdirSync(into, { recursive: true })
  const files = fs.readdirSync(dist).filter((f) => pattern.test(f))
  for (const file of files) fs.copyFileSync(path.join(dist, file), path.join(into, file))
  return files.length
}

// The package's exports hide package.json; its entry point sits in dist/ next to the wasm files.
const own = copy(path.dirname(require.resolve('onnxruntime-web')), target, /^ort-wasm-simd-threaded(\.jsep|\.asyncify)?\.(mjs|wasm)$/)
// transformers.js's own onnxruntime-web (a nested copy when its version differs from ours).
const transformersDir = path.dirname(path.dirname(require.resolve('@huggingface/transformers')))
const nested = [path.join(transformersDir, 'node_modules', 'onnxruntime-web'), path.join(root, 'node_modules', 'onnxruntime-web')].find((d) => fs.existsSync(path.join(d, 'package.json')))
const { version } = JSON.parse(fs.readFileSync(path.join(nested, 'package.json'), 'utf8'))
const theirs = copy(path.join(nested, 'dist'), path.join(target, version), /^ort-wasm-simd-threaded\.asyncify\.(mjs|wasm)$/)
fs.writeFileSync(path.join(target, 'transformers-ort.json'), JSON.stringify({ version, files: ['ort-wasm-simd-threaded.asyncify.wasm', 'ort-wasm-simd-threaded.asyncify.mjs'] }) + '\n')
console.log(`copied ${own} onnxruntime-web files to public/ort/ and ${theirs} of transformers.js's ${version} to public/ort/${version}/`)
