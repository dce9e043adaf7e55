/** Re-runs the gibberish evaluation on the committed model and holds it to the goals of the offline-engines issue. */
import { beforeAll, describe, expect, it } from 'vitest'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { GIBBERISH_LABELS } from '@/lib/moderation/engines/types'
import { GIBBERISH_CLASSES } from '@/lib/moderation/offline/gibberish'
import { evaluateGibberish } from '@/scripts/train-offline/checks'
import type { EvalReport } from '@/scripts/train-offline/evaluate'

const offlineGibberishEngine = offlineEngines().gibberish

let report: EvalReport
beforeAll(async () => {
  report = await evaluateGibberish(offlineGibberishEngine)
})

describe('offline gibberish engine', () => {
  it('is the offline engine of the check, with the contract labels in graph order', () => {
    expect(offlineEngines().gibberish.name).toBe('offline:gibberish-lm-mlp')
    expect(offlineGibberishEngine.available()).toBe(true)
    expect([...GIBBERISH_CLASSES]).toEqual([...GIBBERISH_LABELS])
  })

  it('is evaluated on at least 200 labelled examples covering the four classes', () => {
    expect(report.examples).toBeGreaterThanOrEqual(200)
    for (const label of GIBBERISH_LABELS) expect(report.measures[`f1:${label}`]).toBeDefined()
  })

  it('reaches macro-F1 >= 0.85', () => {
    expect(report.measures.macroF1).toBeGreaterThanOrEqual(0.85)
  })

  it('answers in under 1 ms per text (median)', () => {
    expect(report.latencyP50Ms).toBeLessThan(1)
  })

  it('answers a label with its probability, for any input including empty and symbol-only text', async () => {
    for (const text of ['', '   ', '🙂', '#$%^&*', 'x'.repeat(5000), 'How are you today?']) {
      const { label, probability } = await offlineGibberishEngine.run(text)
      expect(GIBBERISH_LABELS).toContain(label)
      expect(probability).toBeGreaterThanOrEqual(0.25)
      expect(probability).toBeLessThanOrEqual(1)
    }
    expect((await offlineGibberishEngine.run('The meeting has been moved to Thursday afternoon.')).label).toBe('clean')
    expect((await offlineGibberishEngine.run('qwpoeiru zxmcnv alskdj')).label).toBe('noise')
  })
})
