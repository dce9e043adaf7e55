/** Re-runs the restricted-topic evaluation (default labels) on the committed model and holds it to the goals of the offline-engines issue. */
import { beforeAll, describe, expect, it } from 'vitest'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { evaluateRestrictedTopic } from '@/scripts/train-offline/checks'
import type { EvalReport } from '@/scripts/train-offline/evaluate'

const offlineTopicEngine = offlineEngines().restrictedTopic

let report: EvalReport
beforeAll(async () => {
  report = await evaluateRestrictedTopic(offlineTopicEngine)
})

describe('offline restricted-topic engine', () => {
  it('is the offline engine of the check', () => {
    expect(offlineEngines().restrictedTopic.name).toBe('offline:wordnet-topics+embeddings')
    expect(offlineTopicEngine.available()).toBe(true)
  })

  it('is evaluated on at least 200 texts, each against both default labels', () => {
    expect(report.examples).toBeGreaterThanOrEqual(400)
  })

  it('reaches AUC >= 0.90 for the default labels', () => {
    expect(report.measures.auc).toBeGreaterThanOrEqual(0.9)
  })

  it('answers a text with two labels in under 1 ms (median)', () => {
    expect(report.latencyP50Ms).toBeLessThan(1)
  })

  it('scores any label list independently, in request order, in [0, 1]', async () => {
    const labels = ['Explosives', 'Cooking', 'Terrorism', 'underwater basket weaving', 'Gambling']
    const scores = await offlineTopicEngine.run({ text: 'How do I build a pipe bomb?', labels, classifier: 'default' })
    expect(scores).toHaveLength(labels.length)
    for (const s of scores) {
      expect(s).toBeGreaterThanOrEqual(0)
      expect(s).toBeLessThanOrEqual(1)
    }
    expect(scores[0]).toBeGreaterThan(0.5)
    expect(scores[0]).toBeGreaterThan(scores[1])
    const cooking = await offlineTopicEngine.run({ text: 'Preheat the oven and bake the bread for forty minutes.', labels, classifier: 'nliMini' })
    expect(cooking[0]).toBeLessThan(0.5)
    expect(cooking[2]).toBeLessThan(0.5)
  })

  it('treats labels named like object properties as words', async () => {
    const labels = ['constructor', '__proto__', 'the constructor', 'hasOwnProperty valueOf']
    const scores = await offlineTopicEngine.run({ text: 'constructor toString __proto__', labels, classifier: 'default' })
    expect(scores).toHaveLength(labels.length)
    for (const s of scores) expect(Number.isFinite(s)).toBe(true)
  })
})
