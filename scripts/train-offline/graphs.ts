import { DataType, GraphBuilder, attr } from '@/lib/onnx'

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
