import { readFields } from './protobuf'

/**
 * Reads ModelProto.metadata_props (field 14) from .onnx bytes without decoding the graph, so a runtime can
 * recover what the exporter recorded (for example the model config) from the file alone.
 */
export function readModelMetadata(modelBytes: Uint8Array): Record<string, string> {
  const decoder = new TextDecoder()
  const metadata: Record<string, string> = {}
  for (const field of readFields(modelBytes)) {
    if (field.field !== 14 || field.wireType !== 2) continue
    let key = ''
    let value = ''
    for (const entry of readFields(field.value)) {
      if (entry.wireType !== 2) continue
      if (entry.field === 1) key = decoder.decode(entry.value)
      if (entry.field === 2) value = decoder.decode(entry.value)
    }
    metadata[key] = value
  }
  return metadata
}
