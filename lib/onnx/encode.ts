import { ProtoWriter } from './protobuf'
import type { AttributeValue, GraphDef, ModelDef, NodeDef, TensorData, ValueInfo } from './types'

// Field numbers below are those of onnx/onnx.proto (IR version 8+).

const ATTRIBUTE_TYPE = { float: 1, int: 2, string: 3, tensor: 4, floats: 6, ints: 7 } as const

function tensorBytes(tensor: TensorData): Uint8Array {
  const { data } = tensor
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
}

export function encodeTensor(tensor: TensorData, name?: string): ProtoWriter {
  const elements = tensor.dims.reduce((a, b) => a * b, 1)
  if (elements !== tensor.data.length) {
    throw new Error(`onnx: tensor ${name ?? ''} has dims [${tensor.dims}] (${elements} elements) but ${tensor.data.length} values`)
  }
  const w = new ProtoWriter()
  if (tensor.dims.length > 0) w.packedVarints(1, tensor.dims)
  w.varint(2, tensor.dataType)
  if (name !== undefined) w.string(8, name)
  w.bytes(9, tensorBytes(tensor))
  return w
}

function encodeAttribute(name: string, value: AttributeValue): ProtoWriter {
  const w = new ProtoWriter().string(1, name).varint(20, ATTRIBUTE_TYPE[value.kind])
  switch (value.kind) {
    case 'float':
      return w.float32(2, value.value)
    case 'int':
      return w.varint(3, value.value)
    case 'string':
      return w.string(4, value.value)
    case 'tensor':
      return w.message(5, encodeTensor(value.value))
    case 'floats':
      return w.packedFloat32(7, value.value)
    case 'ints':
      return w.packedVarints(8, value.value)
  }
}

function encodeNode(node: NodeDef): ProtoWriter {
  const w = new ProtoWriter()
  for (const input of node.inputs) w.string(1, input)
  for (const output of node.outputs) w.string(2, output)
  w.string(3, node.name).string(4, node.opType)
  for (const [name, value] of Object.entries(node.attributes ?? {})) w.message(5, encodeAttribute(name, value))
  if (node.domain) w.string(7, node.domain)
  return w
}

function encodeValueInfo(info: ValueInfo): ProtoWriter {
  const shape = new ProtoWriter()
  for (const dim of info.dims) {
    const d = new ProtoWriter()
    if (typeof dim === 'number') d.varint(1, dim)
    else d.string(2, dim)
    shape.message(1, d)
  }
  const tensorType = new ProtoWriter().varint(1, info.elemType).message(2, shape)
  const type = new ProtoWriter().message(1, tensorType)
  const w = new ProtoWriter().string(1, info.name).message(2, type)
  if (info.doc) w.string(3, info.doc)
  return w
}

function encodeGraph(graph: GraphDef): ProtoWriter {
  const w = new ProtoWriter()
  for (const node of graph.nodes) w.message(1, encodeNode(node))
  w.string(2, graph.name)
  for (const init of graph.initializers) w.message(5, encodeTensor(init, init.name))
  if (graph.doc) w.string(10, graph.doc)
  for (const input of graph.inputs) w.message(11, encodeValueInfo(input))
  for (const output of graph.outputs) w.message(12, encodeValueInfo(output))
  return w
}

/** Serializes a model to the bytes of an .onnx file (ModelProto). */
export function encodeModel(model: ModelDef): Uint8Array {
  const w = new ProtoWriter().varint(1, model.irVersion)
  if (model.producerName) w.string(2, model.producerName)
  if (model.producerVersion) w.string(3, model.producerVersion)
  if (model.doc) w.string(6, model.doc)
  w.message(7, encodeGraph(model.graph))
  for (const [domain, version] of Object.entries(model.opsets)) {
    w.message(8, new ProtoWriter().string(1, domain).varint(2, version))
  }
  for (const [key, value] of Object.entries(model.metadata ?? {})) {
    w.message(14, new ProtoWriter().string(1, key).string(2, value))
  }
  return w.finish()
}
