import { freemem } from 'node:os'
import * as ort from 'onnxruntime-node'
import type { InferenceRuntime } from './types'

export interface NodeRuntimeOptions {
  /** Threads for one operator (intra-op); default: ONNX Runtime's choice (all cores). */
  threads?: number
  /** Execution providers in order of preference, e.g. ["cuda", "cpu"]; default CPU. */
  executionProviders?: string[]
}

/** The session options of both Node runtimes (this one and node-worker.ts): their numbers are the same. */
export function sessionOptions(options: NodeRuntimeOptions): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: options.executionProviders ?? ['cpu'],
    graphOptimizationLevel: 'all',
    // Without the CPU arena, activations are freed back to the allocator after each run instead of kept in
    // blocks that grow by powers of two; without the memory pattern, no block sized for the whole run is planned
    // (it held the float32 copies the CPU provider makes of float16 weights). Lower peak RSS at the same speed:
    // bench/transformer2d/RESULTS.md.
    enableCpuMemArena: false,
    enableMemPattern: false,
    ...(options.threads ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : {}),
  }
}

/** onnxruntime-node with all graph optimizations (fusions such as MatMul+scale and GELU), without the CPU memory arena. */
export function nodeRuntime(options: NodeRuntimeOptions = {}): InferenceRuntime {
  const executionProviders = options.executionProviders ?? ['cpu']
  return {
    device: executionProviders[0],
    weightsAsInputs: true,
    // The CPU provider has float16 MatMul and Cast kernels (MLAS; bench/transformer2d/RESULTS.md); other providers
    // are not checked here.
    float16: executionProviders[0] === 'cpu',
    availableMemoryBytes,
    async createSession(model) {
      return ort.InferenceSession.create(model, sessionOptions(options))
    },
    tensor: (type, data, dims) => new ort.Tensor(type, data, dims),
  }
}

/**
 * Memory this process may still take: the system's available memory (MemAvailable on Linux), or less when a cgroup
 * limit leaves less room above what the process already uses.
 */
function availableMemoryBytes(): number {
  const limit = process.constrainedMemory?.() ?? 0
  const free = freemem()
  return limit > 0 && limit < Number.MAX_SAFE_INTEGER ? Math.min(free, limit - process.memoryUsage().rss) : free
}
