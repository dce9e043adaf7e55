/** Re-runs the bancode evaluation on the committed model and holds it to the goals of the offline-engines issue. */
import fs from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { BANCODE_HASH_BITS } from '@/lib/moderation/offline/bancode'
import { evaluateBancode } from '@/scripts/train-offline/checks'
import type { EvalReport } from '@/scripts/train-offline/evaluate'

const offlineBanCodeEngine = offlineEngines().banCode

let report: EvalReport
beforeAll(async () => {
  report = await evaluateBancode(offlineBanCodeEngine)
})

describe('offline bancode engine', () => {
  it('is the offline engine of the check, with metadata matching the shared pre-processing', () => {
    expect(offlineEngines().banCode.name).toBe('offline:bancode-ngram-lr')
    expect(offlineBanCodeEngine.available()).toBe(true)
    const metadata = JSON.parse(fs.readFileSync('public/models/offline/bancode.json', 'utf8'))
    expect(metadata.hashBits).toBe(BANCODE_HASH_BITS)
  })

  it('is evaluated on at least 200 labelled examples of both labels', () => {
    expect(report.examples).toBeGreaterThanOrEqual(200)
  })

  it('reaches AUC >= 0.98', () => {
    expect(report.measures.auc).toBeGreaterThanOrEqual(0.98)
  })

  it('keeps precision and recall at the default threshold above 0.9', () => {
    expect(report.measures.precision).toBeGreaterThanOrEqual(0.9)
    expect(report.measures.recall).toBeGreaterThanOrEqual(0.9)
  })

  it('reads short messages as prose and short lines of code as code (fourteenth round)', async () => {
    for (const text of ['Hello', 'Hi!', 'lol', '👍', 'Perfect', 'Good morning', 'Привет'])
      expect((await offlineBanCodeEngine.run(text)).label, text).toBe('NL')
    for (const text of ['y = 2', 'import sys', 'foo()', 'DROP TABLE users;', 'i++;', '</div>', "print('hi')"])
      expect((await offlineBanCodeEngine.run(text)).label, text).toBe('CODE')
  })

  it('answers CODE/NL with the probability of that label', async () => {
    expect(await offlineBanCodeEngine.run('def add(a, b): return a + b')).toEqual({ label: 'CODE', score: expect.any(Number) })
    const prose = await offlineBanCodeEngine.run('Could you summarize this article in three bullet points?')
    expect(prose.label).toBe('NL')
    expect(prose.score).toBeGreaterThan(0.5)
  })
})
