/** The offline similarity engine's reading of a pair of texts (lib/moderation/offline/pair-similarity.ts) on the committed model. */
import { describe, expect, it } from 'vitest'
import { similarityOfTexts } from '@/lib/moderation/checks/similarity'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { EMBEDDING_VOCABULARY, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { checkedPairModel, contentWords, PAIR_FEATURES, PAIR_MAX_WORDS, PAIR_SIMILARITY_MODEL, pairFeatures, readPair, readSide, type PairSimilarityModel } from '@/lib/moderation/offline/pair-similarity'
import { baseForms, related, sameBase } from '@/lib/moderation/offline/word-relations'
import { EXAMPLES } from '@/app/playground/examples'
import { similarityCheck } from '@/lib/moderation/checks/similarity'

const engine = offlineEngines().similarity
const folder = offlineFolder('public/models/offline')
const model = folder.json<PairSimilarityModel>(PAIR_SIMILARITY_MODEL)
const vocabulary = folder.json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)
const similarity = async (a: string, b: string) => similarityOfTexts(await engine.run([a, b]))
const vocabularyWords = new Set(vocabulary.words)
const known = (word: string) => vocabularyWords.has(word)

describe('offline similarity: the pair reader', () => {
  it('names itself as the embedding read with word alignment', () => {
    expect(engine.name).toBe('offline:sif-glove-wordnet+char-ngrams+word-alignment')
  })

  it('judges the playground and API examples similar', async () => {
    const playground = EXAMPLES.find((e) => e.text2 !== undefined)!
    expect(await similarity(playground.text, playground.text2!)).toBeGreaterThanOrEqual(0.5)
    const api = similarityCheck.example as { text1: string; text2: string }
    expect(await similarity(api.text1, api.text2)).toBeGreaterThanOrEqual(0.5)
  })

  it('reads a text and its copy as the same, and unrelated texts as far apart', async () => {
    expect(await similarity('The parcel arrives on Tuesday.', 'The parcel arrives on Tuesday.')).toBeGreaterThan(0.95)
    expect(await similarity('The parcel arrives on Tuesday.', 'the parcel arrives on tuesday')).toBeGreaterThan(0.9)
    expect(await similarity('The parcel arrives on Tuesday.', 'My grandmother grows tomatoes in her garden.')).toBeLessThan(0.2)
  })

  it('is the same both ways round', async () => {
    const pairs = [
      ['The library opens at nine on weekdays.', 'On weekdays the library is not open before nine.'],
      ['She sold her old car to a neighbour.', 'She bought a used car from her neighbour.'],
      ['Can I bring my dog on the bus?', 'Are cats allowed on buses?'],
    ]
    for (const [a, b] of pairs) expect(await similarity(a!, b!)).toBeCloseTo(await similarity(b!, a!), 6)
  })

  // Each contrast below is what the texts' cosine alone got wrong: it put the second pair of each at or above the first.
  it('puts a paraphrase above the same sentence negated or with one detail swapped', async () => {
    const paraphrase = await similarity('The museum is closed on Mondays.', 'The museum shuts every Monday.')
    expect(paraphrase).toBeGreaterThan(await similarity('The museum is closed on Mondays.', 'The museum is not closed on Mondays.'))
    expect(paraphrase).toBeGreaterThan(await similarity('The museum is closed on Mondays.', 'The museum is closed on Fridays.'))
    // Not held: "Take one pill every four hours." reads closer to "... every eight hours." (0.65) than to "Swallow a
    // single tablet every four hours." (0.62); see bench/offline/TUNING-issue18.md, twenty-ninth round.
  })

  it('reads a reversal by antonym as far from a paraphrase', async () => {
    const reversal = await similarity('Prices rose sharply last year.', 'Prices fell sharply last year.')
    const paraphrase = await similarity('Prices rose sharply last year.', 'Last year prices went up steeply.')
    expect(reversal).toBeLessThan(paraphrase)
    expect(reversal).toBeLessThan(0.6)
  })

  // From a review's probes: words that change nothing a text says must not turn a paraphrase into a stranger.
  it('reads past sign-offs, courtesies, links and reference numbers', async () => {
    const paraphrase = ['The shop shuts at noon.', 'The store closes at midday.'] as const
    expect(await similarity(paraphrase[0], `${paraphrase[1]} No worries.`)).toBeGreaterThan(0.7)
    expect(await similarity(paraphrase[0], `${paraphrase[1]} Please.`)).toBeGreaterThan(0.7)
    expect(await similarity('I have two cats.', 'I own 2 cats. See https://example.com/help/2024')).toBeGreaterThan(0.5)
    expect(await similarity('I have two cats.', 'I own 2 cats (ref #4471).')).toBeGreaterThan(0.5)
    // The same link under two unrelated texts makes them no closer.
    expect(await similarity('The concert was amazing. https://example.com/x', 'Tax returns are due in April. https://example.com/x')).toBeLessThan(0.3)
  })

  it('opens contractions as the embedding does, and reads texts without words as saying nothing', async () => {
    expect(await similarity("We can't make it tonight.", 'We cannot make it tonight.')).toBeGreaterThan(0.8)
    expect(await similarity("I won't go.", 'I will not go.')).toBeGreaterThan(0.8)
    expect(await similarity('ok', 'ok!')).toBeGreaterThan(0.9)
    expect(await similarity('?', 'How do I reset my password?')).toBeLessThan(0.2)
    expect(await similarity('zzqxv blorf', 'qwpoe zmxn')).toBeLessThan(0.3)
    expect(await similarity('aaaa', 'bbbb')).toBeLessThan(0.3)
  })

  it('answers a finite number in [0, 1] for any pair of texts, long or without words', async () => {
    const long = 'The committee reviewed every proposal in detail before the vote. '.repeat(80)
    for (const [a, b] of [
      ['', ''],
      ['🙂🙂', '...'],
      ['the of and', 'a an'],
      [long, 'The committee voted.'],
      ['zzqxv blorf', 'qwpoe zmxn'],
      ['12 345 6789', '12 345 6790'],
    ]) {
      const answer = await similarity(a!, b!)
      expect(Number.isFinite(answer), `${a.slice(0, 20)} / ${b}`).toBe(true)
      expect(answer).toBeGreaterThanOrEqual(0)
      expect(answer).toBeLessThanOrEqual(1)
    }
  })

  it('matches only the first content words of a long text', async () => {
    expect(contentWords(readSide('word '.repeat(10) + 'alpha beta gamma '.repeat(100)).words)).toHaveLength(PAIR_MAX_WORDS)
    const pair = await readPair(folder.runGraph, vocabulary, 'one two three '.repeat(100), 'four five six')
    expect(pair.words1).toHaveLength(PAIR_MAX_WORDS)
    expect(pairFeatures(pair, model.relations)).toHaveLength(PAIR_FEATURES.length)
  })

  it('answers the cosine of the vectors for one text, as for an embedding given in the request', async () => {
    const output = await engine.run(['How do I reset my password?'])
    expect(output.similarity).toBeUndefined()
    expect(output.vectors).toHaveLength(1)
  })

  it('refuses a malformed model file instead of answering NaN', () => {
    expect(() => checkedPairModel(model)).not.toThrow()
    expect(() => checkedPairModel({ ...model, mean: model.mean.slice(1) })).toThrow(/not a pair similarity model/)
    expect(() => checkedPairModel({ ...model, calibration: { raw: [0.5, 0.4], similarity: [0, 1] } })).toThrow(/not a pair similarity model/)
    expect(() => checkedPairModel({ ...model, networks: [] })).toThrow(/not a pair similarity model/)
    expect(() => checkedPairModel({ ...model, relations: { ...model.relations, bits: model.relations.bits * 2 } })).toThrow(/not a pair similarity model/)
    expect(() => checkedPairModel({ ...model, relations: { ...model.relations, hashes: 0 } })).toThrow(/not a pair similarity model/)
    expect(() => checkedPairModel({ ...model, relations: { ...model.relations, filter: `!${model.relations.filter.slice(1)}` } })).toThrow(/not a pair similarity model/)
    expect(() => checkedPairModel({ ...model, cosineCalibration: { raw: [0, 1], similarity: [0, 1.5] } })).toThrow(/not a pair similarity model/)
  })
})

describe('offline similarity: word relations', () => {
  it('undoes regular and irregular inflections', () => {
    expect(baseForms('departs')).toContain('depart')
    expect(baseForms('studies')).toContain('study')
    expect(baseForms('stopped')).toContain('stop')
    expect(baseForms('fell')).toContain('fall')
    expect(sameBase('exercising', 'exercise', known)).toBe(true)
    expect(sameBase('cat', 'dog', known)).toBe(false)
    // Words that name an Object property are words like any other.
    expect(baseForms('constructor')).toEqual(['constructor'])
  })

  it("knows WordNet's synonyms and antonyms, and not a swapped thing of the same kind", () => {
    expect(related(model.relations, 'synonym', 'morning', 'next', known)).toBe(false)
    expect(related(model.relations, 'synonym', 'shut', 'close', known)).toBe(true)
    expect(related(model.relations, 'synonym', 'purchased', 'bought', known)).toBe(true)
    expect(related(model.relations, 'antonym', 'rose', 'fell', known)).toBe(true)
    expect(related(model.relations, 'antonym', 'win', 'lose', known)).toBe(true)
    expect(related(model.relations, 'synonym', 'rome', 'madrid', known)).toBe(false)
    expect(related(model.relations, 'synonym', 'dog', 'cat', known)).toBe(false)
    expect(related(model.relations, 'synonym', 'sister', 'brother', known)).toBe(false)
  })
})
