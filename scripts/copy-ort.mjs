// Serves onnxruntime-web's WebAssembly runtime from the hub itself (public/ort/): browsers must
// never fetch it from a CDN. transformers.js and onnxruntime-web load the asyncify build for both
// the wasm and the webgpu execution providers, and the plain build for ort.wasm.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// The package's exports hide package.json; its entry point sits in dist/ next to the wasm files.
const dist = path.dirname(require.resolve('onnxruntime-web'))
const target = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'public', 'ort')
fs.mkdirSync(target, { recursive: true })
const files = fs.readdirSync(dist).filter((f) => /^ort-wasm-simd-threaded(\.jsep|\.asyncify)?\.(mjs|wasm)$/.test(f))
for (const file of files) fs.copyFileSync(path.join(dist, file), path.join(target, file))
console.log(`copied ${files.length} onnxruntime-web files to public/ort/`)
