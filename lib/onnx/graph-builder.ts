import { encodeModel } from './encode'
import { DataType, type AttributeValue, type Dim, type NodeDef, type TensorData, type ValueInfo } from './types'

export interface BuildOptions {
  opset: number
  /** Extra operator sets, e.g. { 'com.microsoft': 1 } for ONNX Runtime contrib ops. */
  extraOpsets?: Readonly<Record<string, number>>
  producerName?: string
  producerVersion?: string
  doc?: string
  metadata?: Readonly<Record<string, string>>
}

/** ONNX IR version that goes with each opset range (onnx/helper.py VERSION_TABLE). */
function irVersionForOpset(opset: number): number {
  if (opset <= 8) return 3
  if (opset <= 9) return 4
  if (opset <= 10) return 5
  if (opset <= 11) return 6
  if (opset <= 14) return 7
  if (opset <= 18) return 8
  if (opset <= 20) return 9
  if (opset <= 22) return 10
  return 11
}

/**
 * Collects nodes, initializers, inputs and outputs of one ONNX graph and serializes it.
 *
 * Value names are generated from a scope stack (`withScope`) so that a node's outputs read like the module
 * path that produced them (e.g. `transformer_blocks.0/attn1/MatMul_12`), which makes a graph easy to debug in
 * Netron or in runtime error messages.
 */
export class GraphBuilder {
  private readonly nodes: NodeDef[] = []
  private readonly initializers: (TensorData & { name: string })[] = []
  private readonly inputs: ValueInfo[] = []
  private readonly outputs: ValueInfo[] = []
  private readonly usedNames = new Set<string>()
  private readonly scopes: string[] = []
  private readonly constantCache = new Map<string, string>()
  private counter = 0

  constructor(readonly name: string) {}

  input(name: string, elemType: DataType, dims: readonly Dim[], doc?: string): string {
    this.claim(name)
    this.inputs.push({ name, elemType, dims, doc })
    return name
  }

  /** Declares `value` as a graph output named `name` (an Identity node renames it when needed). */
  output(value: string, name: string, elemType: DataType, dims: readonly Dim[], doc?: string): void {
    if (value !== name) {
      this.claim(name)
      this.nodes.push({ opType: 'Identity', inputs: [value], outputs: [name], name: `${name}/Identity` })
    }
    this.outputs.push({ name, elemType, dims, doc })
  }

  /** Adds a named initializer (typically a weight); the name is kept as given so it matches the checkpoint. */
  initializer(name: string, tensor: TensorData): string {
    this.claim(name)
    this.initializers.push({ ...tensor, name })
    return name
  }

  /** Small constant tensors (shapes, axes, scalars), deduplicated by value. */
  constant(tensor: TensorData): string {
    const key = `${tensor.dataType}:${tensor.dims.join('x')}:${Array.from(tensor.data as ArrayLike<unknown>, String).join(',')}`
    const cached = this.constantCache.get(key)
    if (cached) return cached
    const name = this.fresh('const')
    this.initializers.push({ ...tensor, name })
    this.constantCache.set(key, name)
    return name
  }

  int64s(values: readonly number[]): string {
    return this.constant({ dataType: DataType.INT64, dims: [values.length], data: BigInt64Array.from(values, BigInt) })
  }

  scalarFloat(value: number): string {
    return this.constant({ dataType: DataType.FLOAT, dims: [], data: Float32Array.of(value) })
  }

  /** Adds one node with a single output and returns that output's name. */
  op(opType: string, inputs: readonly string[], attributes?: Record<string, AttributeValue>, domain?: string): string {
    return this.opMulti(opType, inputs, 1, attributes, domain)[0]
  }

  /** Adds one node with `outputCount` outputs. An empty input name ('') marks an omitted optional input. */
  opMulti(
    opType: string,
    inputs: readonly string[],
    outputCount: number,
    attributes?: Record<string, AttributeValue>,
    domain?: string,
  ): string[] {
    const base = this.fresh(opType)
    const outputs = outputCount === 1 ? [base] : Array.from({ length: outputCount }, (_, i) => this.claimed(`${base}:${i}`))
    this.nodes.push({ opType, inputs, outputs, name: base, attributes, domain })
    return outputs
  }

  /** Runs `body` with `scope` appended to the name prefix of every value it creates. */
  withScope<T>(scope: string, body: () => T): T {
    this.scopes.push(scope)
    try {
      return body()
    } finally {
      this.scopes.pop()
    }
  }

  toBytes(options: BuildOptions): Uint8Array {
    return encodeModel({
      irVersion: irVersionForOpset(options.opset),
      opsets: { '': options.opset, ...options.extraOpsets },
      producerName: options.producerName,
      producerVersion: options.producerVersion,
      doc: options.doc,
      metadata: options.metadata,
      graph: {
        name: this.name,
        nodes: this.nodes,
        initializers: this.initializers,
        inputs: this.inputs,
        outputs: this.outputs,
      },
    })
  }

  private fresh(kind: string): string {
    const prefix = this.scopes.length ? `${this.scopes.join('/')}/` : ''
    return this.claimed(`${prefix}${kind}_${this.counter++}`)
  }

  private claimed(name: string): string {
    this.claim(name)
    return name
  }

  private claim(name: string): void {
    if (this.usedNames.has(name)) throw new Error(`onnx: value name "${name}" is defined twice`)
    this.usedNames.add(name)
  }
}
