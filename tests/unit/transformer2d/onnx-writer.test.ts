import * as ort from 'onnxruntime-node'
import { describe, expect, it } from 'vitest'
import { attr, DataType, GraphBuilder, ProtoWriter, readFields, readModelMetadata } from '@/lib/onnx'

describe('lib/onnx writer', () => {
  it('encodes varints, negative int64 and length-delimited fields as protobuf does', () => {
    const bytes = new ProtoWriter().varint(1, 300).varint(2, -1).string(3, 'hi').finish()
    expect([...bytes.subarray(0, 3)]).toEqual([0x08, 0xac, 0x02])
    const fields = [...readFields(bytes)]
    expect(fields.map((f) => f.field)).toEqual([1, 2, 3])
    expect(fields[1].value).toBe(2n ** 64n - 1n)
    expect(new TextDecoder().decode(fields[2].value as Uint8Array)).toBe('hi')
  })

  it('builds a model that onnxruntime runs, with metadata readable from the bytes', async () => {
    const g = new GraphBuilder('tiny')
    const x = g.input('x', DataType.FLOAT, ['batch', 3])
    const w = g.initializer('w', { dataType: DataType.FLOAT, dims: [3, 2], data: Float32Array.from([1, 2, 3, 4, 5, 6]) })
    const y = g.withScope('block', () => g.op('Softmax', [g.op('MatMul', [x, w])], { axis: attr.int(-1) }))
    const flat = g.op('Reshape', [y, g.int64s([-1])])
    g.output(flat, 'y', DataType.FLOAT, ['n'])
    const bytes = g.toBytes({ opset: 17, metadata: { purpose: 'test' } })
    expect(readModelMetadata(bytes)).toEqual({ purpose: 'test' })
    const session = await ort.InferenceSession.create(bytes)
    const out = await session.run({ x: new ort.Tensor('float32', Float32Array.from([1, 0, 0, 0, 0, 1]), [2, 3]) })
    const e = (a: number, b: number) => [Math.exp(a) / (Math.exp(a) + Math.exp(b)), Math.exp(b) / (Math.exp(a) + Math.exp(b))]
    expect([...(out.y.data as Float32Array)].map((v) => +v.toFixed(6))).toEqual([...e(1, 2), ...e(5, 6)].map((v) => +v.toFixed(6)))
    await session.release()
  })

  it('rejects a value name defined twice and a tensor whose dims do not match its data', () => {
    const g = new GraphBuilder('bad')
    g.input('x', DataType.FLOAT, [1])
    expect(() => g.input('x', DataType.FLOAT, [1])).toThrow(/defined twice/)
    g.initializer('w', { dataType: DataType.FLOAT, dims: [2, 2], data: new Float32Array(3) })
    expect(() => g.toBytes({ opset: 17 })).toThrow(/dims \[2,2\] \(4 elements\) but 3 values/)
  })
})
