/** The offline embeddings, and the similarity evaluation of the offline engine on the committed model. */
import { beforeAll, describe, expect, it } from 'vitest'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { cosineSimilarity } from '@/lib/moderation/vectors'
import { evaluateSimilarity } from '@/scripts/train-offline/checks'
import type { EvalReport } from '@/scripts/train-offline/evaluate'

const offlineEmbeddingEngine = offlineEngines().embedding

let report: EvalReport
beforeAll(async () => {
  report = await evaluateSimilarity(offlineEngines().similarity)
})

describe('offline embedding engine', () => {
  it('names itself as not mpnet', () => {
    expect(offlineEngines().embedding.name).toBe('offline:sif-glove-wordnet+char-ngrams')
    expect(offlineEmbeddingEngine.available()).toBe(true)
  })

  it('is evaluated on at least 200 labelled pairs', () => {
    expect(report.examples).toBeGreaterThanOrEqual(200)
  })

  it('ranks paraphrases above unrelated pairs (AUC >= 0.90)', () => {
    expect(report.measures.auc).toBeGreaterThanOrEqual(0.9)
  })

  it('returns one finite vector per text, in order, for any text', async () => {
    const texts = ['How do I reset my password?', '', '🙂🙂', 'zzqxv blorf', 'Steps to change a forgotten password', 'How do I reset my password?']
    const vectors = await offlineEmbeddingEngine.run(texts)
    expect(vectors).toHaveLength(texts.length)
    for (const v of vectors) {
      expect(v).toHaveLength(vectors[0].length)
      expect(v.every(Number.isFinite)).toBe(true)
    }
    expect(cosineSimilarity(vectors[0], vectors[5])).toBeCloseTo(1, 5)
    expect(cosineSimilarity(vectors[0], vectors[4])).toBeGreaterThan(cosineSimilarity(vectors[0], vectors[3]))
  })

  it('embeds a text alike alone and in a batch, also when a long list is split into several runs', async () => {
    const { offlineFolder } = await import('@/lib/moderation/engines/offline-graphs')
    const { EMBEDDING_VOCABULARY, embedText, embedTexts } = await import('@/lib/moderation/offline/embedding')
    const { runGraph, json } = offlineFolder('public/models/offline')
    const vocabulary = json<{ words: string[] }>(EMBEDDING_VOCABULARY)
    const runs: number[] = []
    const counted: typeof runGraph = (graph, feeds) => (runs.push(feeds.negated!.dims[0]!), runGraph(graph, feeds))
    // Short texts go together; 4,000 characters each (the embedded length) make a batch of several runs.
    const long = (i: number) => `Paragraph ${i}: ` + 'the quick brown fox jumps over the lazy dog and never looks back '.repeat(70)
    const texts = ['I do not like cats.', '', 'zzqxv blorf', ...Array.from({ length: 30 }, (_, i) => long(i)), 'Steps to change a forgotten password']
    const together = await embedTexts(counted, texts, vocabulary)
    expect(runs.length).toBeGreaterThan(1)
    expect(runs.length).toBeLessThan(texts.length)
    expect(runs.reduce((a, b) => a + b, 0)).toBe(texts.length)
    for (const [i, text] of texts.entries()) {
      const alone = await embedText(runGraph, text, vocabulary)
      expect(together[i]).toHaveLength(alone.length)
      together[i]!.forEach((v, k) => expect(v, `text ${i}, dimension ${k}`).toBeCloseTo(alone[k]!, 5))
    }
  })

  it('embeds a contraction like its spelled-out form (GloVe has "will" and "not", no "won\'t")', async () => {
    const [contracted, spelled, other] = await offlineEmbeddingEngine.run(["won't", 'will not', 'shall'])
    expect(cosineSimilarity(contracted, spelled)).toBeGreaterThan(0.9)
    expect(cosineSimilarity(contracted, spelled)).toBeGreaterThan(cosineSimilarity(contracted, other))
  })
})
