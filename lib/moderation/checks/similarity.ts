import { z } from 'zod'
import { validationError } from '@/lib/moderation/api/errors'
import { EMBEDDING_ENGINE, EMBEDDING_GRAPH, EMBEDDING_VOCABULARY, embedTexts, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { checkedPairModel, PAIR_READER, PAIR_SIMILARITY_MODEL, pairSimilarity, readPair, type PairSimilarityModel } from '@/lib/moderation/offline/pair-similarity'
import { clsEmbeddings } from '@/lib/moderation/runtime/neural-steps'
import { cosineSimilarity } from '@/lib/moderation/vectors'
import { defineCheck, defineEngine, formatTimeTaken } from './check'
import { timing } from './schema-parts'

/** The request's texts' vectors, and, where the engine reads the pair itself (the offline engine, two texts), its similarity. */
export type SimilarityOutput = { vectors: number[][]; similarity?: number }

/**
 * The embedding engine's vectors for one or two texts; given two, the offline engine also reads them as a pair
 * (lib/moderation/offline/pair-similarity.ts). The neural engine's answer is the cosine of its vectors, as mpnet's is.
 */
export const similarityEngine = defineEngine({
  key: 'similarity',
  offline: {
    model: `${EMBEDDING_ENGINE}+${PAIR_READER}`,
    files: [EMBEDDING_GRAPH, EMBEDDING_VOCABULARY, PAIR_SIMILARITY_MODEL],
    run: async (models, texts: string[]): Promise<SimilarityOutput> => {
      const vocabulary = models.json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)
      if (texts.length !== 2) return { vectors: await embedTexts(models.runGraph, texts, vocabulary) }
      const model = checkedPairModel(models.json<PairSimilarityModel>(PAIR_SIMILARITY_MODEL))
      const pair = await readPair(models.runGraph, vocabulary, texts[0]!, texts[1]!)
      return { vectors: pair.vectors, similarity: pairSimilarity(model, pair) }
    },
  },
  neural: { models: ['embedding'], run: async (model, texts: string[]): Promise<SimilarityOutput> => ({ vectors: await clsEmbeddings(model, texts) }) },
})

/** The answer for two texts: the engine's reading of the pair where it has one, else the cosine of their vectors. */
export function similarityOfTexts(output: SimilarityOutput): number {
  return output.similarity ?? cosineSimilarity(output.vectors[0]!, output.vectors[1]!)
}

/** Similarity from given embeddings alone needs no engine; the answer says so. */
const GIVEN_EMBEDDINGS_ENGINE = 'input:embeddings'

export const similarityCheck = defineCheck({
  path: 'multi-qa-mpnet-model_similarity',
  title: 'Similarity',
  summary: 'Similarity: [[[similarity]], {time_taken}] of text1/text2 (the cosine of emb1/emb2, or of the neural engine\'s embeddings)',
  request: {
    name: 'SimilarityRequest',
    build: (limits) => {
      const optionalText = z.string().min(1).max(limits.maxTextLength).nullish()
      const embedding = z.array(z.number()).nullish()
      return z
        .object({
          text1: optionalText.describe('First text'),
          text2: optionalText.describe('Second text'),
          emb1: embedding.describe('Embedding of the first text (used when text1 is absent)'),
          emb2: embedding.describe('Embedding of the second text (used when text2 is absent)'),
        })
        .superRefine((body, context) => {
          const sides = [
            { text: body.text1, embedding: body.emb1, name: 'text1', fallback: 'emb1' },
            { text: body.text2, embedding: body.emb2, name: 'text2', fallback: 'emb2' },
          ]
          for (const side of sides) {
            if (side.text == null && (side.embedding == null || side.embedding.length === 0)) {
              context.addIssue({ code: 'custom', path: [side.name], message: `give ${side.name} or a non-empty ${side.fallback}` })
            }
          }
          if (body.text1 == null && body.text2 == null && body.emb1 && body.emb2 && body.emb1.length !== body.emb2.length) {
            context.addIssue({ code: 'custom', path: ['emb2'], message: 'emb1 and emb2 must have the same length' })
          }
        })
    },
  },
  response: { name: 'similarityResponse', schema: z.tuple([z.array(z.array(z.number())).describe('[[similarity]]: the offline engine reads two texts as a pair (0 to 1); the cosine of given or neural embeddings'), timing]) },
  // The toolkit's document declares the header as a parameter on this path only.
  openApiParameters: [{ name: 'authorization', in: 'header', required: false, schema: { type: 'string' } }],
  engine: similarityEngine,
  example: { text1: 'How do I reset my password?', text2: 'Steps to change a forgotten password' },
  runsEngine: ({ text1, text2 }) => text1 != null || text2 != null,
  async answer({ text1, text2, emb1, emb2 }, run) {
    const texts = [text1, text2].filter((t): t is string => t != null)
    let output: SimilarityOutput = { vectors: [] }
    let seconds = 0
    let engine = GIVEN_EMBEDDINGS_ENGINE
    if (texts.length > 0) ({ output, seconds, engine } = await run(texts))
    const first = text1 != null ? output.vectors[0]! : emb1!
    const second = text2 != null ? output.vectors[output.vectors.length - 1]! : emb2!
    if (first.length !== second.length) {
      // Named as the client sent it: the embedding given for the side without a text (two embeddings are refused by the schema, at emb2).
      const [field, given, computed, text] = text2 == null ? (['emb2', second, first, 'text1'] as const) : (['emb1', first, second, 'text2'] as const)
      throw validationError([
        {
          type: 'value_error',
          loc: ['body', field],
          msg: `Value error, ${field} has ${given.length} numbers but the embedding of ${text} has ${computed.length}`,
          input: given,
        },
      ])
    }
    const started = performance.now()
    const similarity = similarityOfTexts({ vectors: [first, second], similarity: output.similarity })
    seconds += (performance.now() - started) / 1000
    return { body: [[[similarity]], { time_taken: formatTimeTaken(seconds), engine }], engine }
  },
})
