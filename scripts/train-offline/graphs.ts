import { DataType, GraphBuilder, attr } from '@/lib/onnx'
import type { Mlp } from './mlp'

/** The ONNX graphs of the offline engines, written with the project's ONNX writer (opset 13). */
export const OPSET = 13

const producer = { opset: OPSET, producerName: 'modhub-train-offline', producerVersion: '1' }

/**
 * Sparse logistic regression: `probability = sigmoid(Σ weights[ids[i]] · values[i])`, with the
 * bias at id 0. Outputs `logit` and `probability`, both of shape [1].
 */
export function sparseLogisticGraph(name: string, weights: Float32Array, metadata: Record<string, string>): Uint8Array {
  const g = new GraphBuilder(name)
  const ids = g.input('ids', DataType.INT64, ['features'], 'hashed feature ids; id 0 is the bias (value 1)')
  const values = g.input('values', DataType.FLOAT, ['features'], 'feature values')
  const table = g.initializer('weights', { dataType: DataType.FLOAT, dims: [weights.length], data: weights })
  const picked = g.op('Gather', [table, ids], { axis: attr.int(0) })
  const logit = g.op('ReduceSum', [g.op('Mul', [picked, values]), g.int64s([0])], { keepdims: attr.int(1) })
  g.output(logit, 'logit', DataType.FLOAT, [1])
  g.output(g.op('Sigmoid', [logit]), 'probability', DataType.FLOAT, [1])
  return g.toBytes({ ...producer, metadata })
}

/**
 * Appends a one-hidden-layer perceptron (standardise, MatMul, ReLU, MatMul, Softmax) reading
 * the [features] vector `x`; returns the [classes] probabilities.
 */
export function mlpHead(g: GraphBuilder, x: string, model: Mlp, prefix: string): string {
  const inputs = model.mean.length
  const f = (name: string, dims: number[], data: Float32Array) => g.initializer(`${prefix}_${name}`, { dataType: DataType.FLOAT, dims, data })
  const standardised = g.op('Div', [g.op('Sub', [x, f('mean', [inputs], model.mean)]), f('std', [inputs], model.std)])
  const row = g.op('Unsqueeze', [standardised, g.int64s([0])])
  const hidden = g.op('Relu', [g.op('Add', [g.op('MatMul', [row, f('w1', [inputs, model.hidden], model.w1)]), f('b1', [model.hidden], model.b1)])])
  const logits = g.op('Add', [g.op('MatMul', [hidden, f('w2', [model.hidden, model.classes], model.w2)]), f('b2', [model.classes], model.b2)])
  return g.op('Reshape', [g.op('Softmax', [logits], { axis: attr.int(-1) }), g.int64s([model.classes])])
}

/** A uint8 table read back as floats: `(q - zeroPoint) * scale` for the gathered ids. */
export function gatherQuantized(g: GraphBuilder, table: string, ids: string, scale: number, zeroPoint: number): string {
  const gathered = g.op('Gather', [table, ids], { axis: attr.int(0) })
  const zero = g.constant({ dataType: DataType.UINT8, dims: [], data: Uint8Array.of(zeroPoint) })
  return g.op('DequantizeLinear', [gathered, g.scalarFloat(scale), zero])
}
