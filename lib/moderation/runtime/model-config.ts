// What a loaded model's manifest entry and config say, read the same way by the Node runtime and
// the browser runner. Browser-safe: no node: modules, no onnxruntime.
import type { ModelEntry, PostProcessing } from './manifest'

type DescribedModel = { entry: ModelEntry; id2label: Record<string, string> }

/** The model's post-processing, checked to be the kind the caller implements. */
export function postProcessing<K extends PostProcessing['kind']>(model: DescribedModel, kind: K): Extract<PostProcessing, { kind: K }> {
  const configured = model.entry.postProcessing
  if (configured.kind !== kind) throw new Error(`${model.entry.id} is configured for ${configured.kind}, not ${kind}`)
  return configured as Extract<PostProcessing, { kind: K }>
}

/** The output index of a label name in the model's config (id2label). */
export function labelIndex(model: DescribedModel, label: string): number {
  const found = Object.entries(model.id2label).find(([, name]) => name === label)
  if (!found) throw new Error(`${model.entry.id} has no label "${label}"`)
  return Number(found[0])
}
