/**
 * The real route handler with no neural model installed (MODELS_DIR empty): every one of the ten
 * checks answers 200 from an offline engine, and says which one (header and `engine` field).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CHECKS } from '@/lib/moderation/checks'
import * as runtime from '@/lib/moderation/runtime'
import { postToRoute, type ModerationRoute } from '../moderation/helpers'

let route: ModerationRoute
let empty: string

const post = (check: string, body: unknown) => postToRoute(route, check, body)

beforeAll(async () => {
  vi.stubEnv('MODERATION_AUTH', 'off')
  vi.stubEnv('MODERATION_RATE_LIMIT_PER_MINUTE', '0')
  empty = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-no-models-'))
  await runtime.configureModelRuntime({ modelsDir: empty, loading: 'lazy', microBatching: false })
  route = await import('@/app/rai/v1/raimoderationmodels/[check]/route')
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await runtime.configureModelRuntime()
  fs.rmSync(empty, { recursive: true, force: true })
})

const OFFLINE_ENGINE: Record<string, string> = {
  detoxifymodel: 'offline:toxicity-lexicon-lr',
  privacy: 'offline:presidio-rules',
  promptinjectionmodel: 'offline:guardrail-tfidf+phrases',
  restrictedtopicmodel: 'offline:wordnet-topics+embeddings',
  multi_q_net_embedding: 'offline:sif-glove-wordnet+char-ngrams',
  'multi-qa-mpnet-model_similarity': 'offline:sif-glove-wordnet+char-ngrams+word-alignment',
  sentimentmodel: 'offline:vader',
  invisibletextmodel: 'offline:unicodedata',
  gibberishmodel: 'offline:gibberish-lm-mlp',
  bancodemodel: 'offline:bancode-ngram-lr',
}

describe('every check answers offline', () => {
  it.each(CHECKS.map((e) => [e.path, e.example] as const))('%s', async (check, example) => {
    const { status, json, engine } = await post(check, example)
    expect(status, JSON.stringify(json)).toBe(200)
    expect(engine).toBe(OFFLINE_ENGINE[check])
    expect(json.engine ?? json.at?.(-1)?.engine).toBe(engine)
  })

  it('gibberish and toxicity keep the contract shapes', async () => {
    const gibberish = await post('gibberishmodel', { text: 'asdkjh qwe zzxq lorp' })
    expect(gibberish.json.result).toEqual([{ gibberish_label: expect.any(String), gibberish_score: expect.any(Number) }])
    const toxicity = await post('detoxifymodel', { text: 'I will find you and hurt you.' })
    expect(toxicity.json.toxicScore.map((m: { metricName: string }) => m.metricName)).toEqual([
      'toxicity', 'severe_toxicity', 'obscene', 'threat', 'insult', 'identity_attack', 'sexual_explicit',
    ])
  })
})
