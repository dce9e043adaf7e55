import { describe, expect, it } from 'vitest'
import { exactOfflineEngines } from '@/lib/moderation/engines/registry'
import { makeHandler, post } from './helpers'

/**
 * Replays the reads of the toolkit's moderation layer (responsible-ai-moderationlayer
 * service.py) against real answers of the offline deployment. The checks that have no engine
 * yet must answer the 503 that tells the operator what to install.
 */
const handler = makeHandler({ engines: exactOfflineEngines(), authRequired: false })
const NONE = { Authorization: 'None' }

describe("the moderation layer's reads", () => {
  it('PII.analyze: PIIresult[i].type/score/responseText/beginOffset/endOffset and modelcalltime', async () => {
    const { json } = await post(handler, 'privacy', { text: 'My PAN is ABCPD1234E and my Aadhaar is 2345 6789 0124.' }, NONE)
    const blocked = ['IN_AADHAAR', 'IN_PAN']
    const hits = json.PIIresult.filter((e: { type: string; score: number }) => blocked.includes(e.type) && e.score > 0.4)
    expect(hits.map((e: { responseText: string }) => e.responseText)).toEqual(['ABCPD1234E', '2345 6789 0124'])
    expect(`${json.modelcalltime}s`).toMatch(/^\d+(\.\d+)?s$/)
    for (const e of json.PIIresult) expect(Number.isInteger(e.beginOffset) && e.endOffset > e.beginOffset).toBe(true)
  })

  it("SentimentAnalysis: output['score']['compound'] < threshold and output['time_taken']", async () => {
    const { json } = await post(handler, 'sentimentmodel', { text: 'A really bad, horrible book.' }, NONE)
    expect(json.score.compound < -0.01).toBe(true)
    expect(typeof json.time_taken).toBe('string')
  })

  it("InvisibleText: len(output['result']) >= 1 and output['time_taken']", async () => {
    const { json } = await post(handler, 'invisibletextmodel', { text: 'hi\u200d\u202ethere', banned_categories: ['Cf', 'Co', 'Cn'] }, NONE)
    expect(json.result.length >= 1).toBe(true)
    expect(json.result).toEqual(['\u200d', '\u202e'])
    expect(typeof json.time_taken).toBe('string')
  })

  it.each([
    ['detoxifymodel', { text: 'hello' }, 'toxicity'], // toxicScore[0].metricScore
    ['promptinjectionmodel', { text: 'hello' }, 'promptInjection'], // output[0], output[1], output[2].time_taken
    ['restrictedtopicmodel', { text: 'hello', labels: ['Terrorism'], model: 'dberta' }, 'topic'], // labels[i], scores[i]
    ['multi_q_net_embedding', { text: ['hello'] }, 'embedding'], // json[0][0], json[1].time_taken
    ['multi-qa-mpnet-model_similarity', { text1: 'a', text2: 'b' }, 'embedding'], // json[0][0][0]
    ['gibberishmodel', { text: 'hello', labels: ['noise'] }, 'gibberish'], // result[].gibberish_label/score
    ['bancodemodel', { text: 'hello' }, 'bancode'], // result.label
  ])('%s without an engine: 503 naming models:pull %s', async (check, body, pullName) => {
    const { status, json } = await post(handler, check, body, NONE)
    expect(status).toBe(503)
    expect(json).toEqual({ detail: expect.stringContaining(`npm run models:pull ${pullName}`) })
  })
})

describe("the moderation layer's reads, against engines for every check", async () => {
  const { stubEngines } = await import('./helpers')
  const everything = makeHandler({ engines: stubEngines(), authRequired: false })

  it('Toxicity: toxicScore[0].metricScore, toxic_dict[0..6] by index, time_taken', async () => {
    const { json } = await post(everything, 'detoxifymodel', { text: 'x' }, NONE)
    const toxicity = json.toxicScore[0].metricScore
    expect(toxicity).toBe(0.91)
    expect(json.toxicScore.slice(0, 7).every((m: { metricScore: number }) => typeof m.metricScore === 'number')).toBe(true)
    expect(json.time_taken).toMatch(/s$/)
  })

  it('PromptInjection: output[0] == LEGIT ? 1 - output[1] : output[1]; output[2].time_taken', async () => {
    const { json: output } = await post(everything, 'promptinjectionmodel', { text: 'hello' }, NONE)
    const injectionScore = output[0] === 'LEGIT' ? 1 - output[1] : output[1]
    expect(injectionScore).toBeCloseTo(0.0013, 10)
    expect(output[2].time_taken).toMatch(/s$/)
  })

  it("Restrict_topic: d[output['labels'][i]] = output['scores'][i] for every requested label", async () => {
    const labels = ['Terrorism', 'Explosives', 'Weapons']
    const { json: output } = await post(everything, 'restrictedtopicmodel', { text: 't', labels, model: 'dberta' }, NONE)
    const d: Record<string, number> = {}
    for (let i = 0; i < labels.length; i++) d[output.labels[i]] = output.scores[i]
    expect(Object.keys(d).sort()).toEqual([...labels].sort())
  })

  it('Jailbreak: json[0][0] and json[1].time_taken; CustomTheme: json[0] last vector is the text', async () => {
    const { json } = await post(everything, 'multi_q_net_embedding', { text: ['theme a', 'the text'] }, NONE)
    expect(json[0][0]).toEqual([7, 1, 0])
    expect(json[0][json[0].length - 1]).toEqual([8, 1, 0])
    expect(json[1].time_taken).toMatch(/s$/)
  })

  it('promptResponseSimilarity: json[0][0][0]', async () => {
    const { json } = await post(everything, 'multi-qa-mpnet-model_similarity', { text1: 'ab', text2: 'cd' }, NONE)
    expect(typeof json[0][0][0]).toBe('number')
  })

  it('validate_gibberish: item.gibberish_score > 0.7 and item.gibberish_label == noise', async () => {
    const { json } = await post(everything, 'gibberishmodel', { text: 'qwpoe', labels: ['word salad', 'noise', 'mild gibberish', 'clean'] }, NONE)
    expect(json.result.some((r: { gibberish_label: string; gibberish_score: number }) => r.gibberish_label === 'noise' && r.gibberish_score > 0.7)).toBe(true)
  })

  it('BanCode: result.label == CODE', async () => {
    const { json } = await post(everything, 'bancodemodel', { text: 'print("x")' }, NONE)
    expect(json.result.label).toBe('CODE')
  })
})
