import fs from 'node:fs'
import path from 'node:path'
import { DataType, GraphBuilder, attr } from '@/lib/onnx'
import {
  INJECTION_GRAPH,
  INJECTION_THRESHOLD,
  INJECTION_VOCABULARY,
  STRUCTURE_FEATURES,
  guardrailTerms,
  structureFeatures,
} from '@/lib/moderation/offline/prompt-injection'
import { proseChunks, NODE_MODULES } from './corpora'
import { OPSET } from './graphs'
import { trainDense } from './dense-logistic'
import { injectionTrainingSet } from './injection-data'
import { log, OFFLINE_MODELS_DIR, writeModel } from './output'

/** llm_guardrail's exported sklearn model (ISC): TF-IDF vocabulary and idf, logistic regression coefficients. */
type GuardrailModel = { vocabulary: Record<string, number>; idf: number[]; coefficients: number[][]; intercept: number[]; ngram_range: number[] }

function readGuardrail(): GuardrailModel {
  const model = JSON.parse(fs.readFileSync(path.join(NODE_MODULES, 'llm_guardrail/model/prompt_injection_model.json'), 'utf8')) as GuardrailModel
  if (model.ngram_range.join() !== '1,2') throw new Error(`llm_guardrail: expected 1-2-grams, got ${model.ngram_range}`)
  return model
}

/** llm_guardrail's logit: L2-normalised raw-count TF-IDF dotted with the coefficients (what the graph computes). */
function guardrailLogit(model: GuardrailModel, text: string): number {
  const size = model.idf.length
  const { ids, counts } = guardrailTerms(text, model.vocabulary, size)
  let dot = 0
  let norm = 0
  ids.forEach((id, i) => {
    if (id === size) return
    const value = counts[i] * model.idf[id]
    norm += value * value
    dot += value * model.coefficients[0][id]
  })
  return dot / Math.max(Math.sqrt(norm), 1e-12) + model.intercept[0]
}

function injectionGraph(model: GuardrailModel, guardrailWeight: number, structureWeights: number[], bias: number): Uint8Array {
  const size = model.idf.length
  const g = new GraphBuilder('prompt_injection')
  const ids = g.input('term_ids', DataType.INT64, ['terms'], 'llm_guardrail vocabulary columns; the sentinel column (vocabulary size) is always present')
  const counts = g.input('term_counts', DataType.FLOAT, ['terms'], 'raw counts of the terms')
  const structure = g.input('structure', DataType.FLOAT, [structureWeights.length], STRUCTURE_FEATURES.map((f) => f.name).join(', '))
  const idf = g.initializer('guardrail_idf', { dataType: DataType.FLOAT, dims: [size + 1], data: Float32Array.from([...model.idf, 0]) })
  const coefficients = g.initializer('guardrail_coefficients', {
    dataType: DataType.FLOAT,
    dims: [size + 1],
    data: Float32Array.from([...model.coefficients[0], 0]),
  })
  const axis0 = g.int64s([0])
  const keep = { keepdims: attr.int(1) }
  const tfidf = g.op('Mul', [g.op('Gather', [idf, ids], { axis: attr.int(0) }), counts])
  const norm = g.op('Max', [g.op('Sqrt', [g.op('ReduceSum', [g.op('Mul', [tfidf, tfidf]), axis0], keep)]), g.scalarFloat(1e-12)])
  const dot = g.op('ReduceSum', [g.op('Mul', [g.op('Gather', [coefficients, ids], { axis: attr.int(0) }), tfidf]), axis0], keep)
  const guardrailLogitValue = g.op('Add', [g.op('Div', [dot, norm]), g.scalarFloat(model.intercept[0])])
  g.output(g.op('Sigmoid', [guardrailLogitValue]), 'guardrail_probability', DataType.FLOAT, [1])
  const weights = g.initializer('structure_weights', { dataType: DataType.FLOAT, dims: [structureWeights.length], data: Float32Array.from(structureWeights) })
  const structureSum = g.op('ReduceSum', [g.op('Mul', [structure, weights]), axis0], keep)
  const combined = g.op('Add', [g.op('Add', [g.op('Mul', [guardrailLogitValue, g.scalarFloat(guardrailWeight)]), structureSum]), g.scalarFloat(bias)])
  g.output(g.op('Sigmoid', [combined]), 'probability', DataType.FLOAT, [1])
  return g.toBytes({ opset: OPSET, producerName: 'modhub-train-offline', producerVersion: '1', metadata: { check: 'promptInjection' } })
}

export async function trainPromptInjection(): Promise<void> {
  const model = readGuardrail()
  log(`promptInjection: llm_guardrail model with ${model.idf.length} terms`)
  const rows = injectionTrainingSet(proseChunks(4000, 21), 6000, 22)
  log(`  second stage on ${rows.length} generated texts (${rows.filter((r) => r.label).length} injections)`)
  const x = rows.map((r) => [guardrailLogit(model, r.text), ...structureFeatures(r.text)])
  const { weights, bias } = trainDense(x, rows.map((r) => r.label), 3000, 0.5, 1e-3)
  log(`  guardrail weight ${weights[0].toFixed(3)}, bias ${bias.toFixed(3)}; ${STRUCTURE_FEATURES.map((f, i) => `${f.name} ${weights[i + 1].toFixed(2)}`).join(', ')}`)
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, INJECTION_VOCABULARY), JSON.stringify(model.vocabulary))
  writeModel(INJECTION_GRAPH, injectionGraph(model, weights[0], weights.slice(1), bias), {
    check: 'promptInjection',
    engine: 'offline:guardrail-tfidf+phrases',
    graph: INJECTION_GRAPH,
    vocabulary: INJECTION_VOCABULARY,
    vocabularySize: model.idf.length,
    threshold: INJECTION_THRESHOLD,
    stages: {
      guardrail: 'llm_guardrail 2.1.2 prompt_injection_model.json (ISC): TF-IDF 1-2-grams, raw counts, L2 norm, logistic regression',
      calibration: { guardrailWeight: weights[0], structureWeights: Object.fromEntries(STRUCTURE_FEATURES.map((f, i) => [f.name, weights[i + 1]])), bias },
    },
    training: { generatedTexts: rows.length, injections: rows.filter((r) => r.label).length },
  })
}
