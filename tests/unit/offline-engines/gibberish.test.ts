/** Re-runs the gibberish evaluation on the committed model and holds it to the goals of the offline-engines issue. */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { GIBBERISH_LABELS } from '@/lib/moderation/engines/types'
import { codeLike, GIBBERISH_CLASSES, GIBBERISH_LANGUAGES, otherLanguage, type GibberishLanguages } from '@/lib/moderation/offline/gibberish'
import { evaluateGibberish } from '@/scripts/train-offline/checks'
import type { EvalReport } from '@/scripts/train-offline/evaluate'

const offlineGibberishEngine = offlineEngines().gibberish

const modelFile = <T>(name: string): T => JSON.parse(fs.readFileSync(path.join(process.cwd(), 'public/models/offline', name), 'utf8')) as T

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

  it('judges code for noise only: code in several languages is clean, prose with code-like punctuation is not taken for code', async () => {
    const code = [
      'import os\nfor f in os.listdir("/"):\n    os.remove(f)',
      'from collections import defaultdict',
      'const total = items.reduce((sum, item) => sum + item.price, 0);',
      'if (!user) {\n  throw new Error("missing user");\n}',
      "SELECT name, email FROM members WHERE joined > '2024-01-01';",
      'func main() {\n\tfmt.Println("hi")\n}',
      'docker run --rm -p 8080:80 nginx',
    ]
    for (const text of code) {
      expect(codeLike(text), text).toBe(true)
      expect((await offlineGibberishEngine.run(text)).label, text).toBe('clean')
    }
    const prose = [
      'Note: the meeting is at 5.',
      'If you want, we can go later: just call me.',
      'I love it (really!) and so does she; he does not.',
      'For what it is worth, I agree with the plan.',
      'Import duties on steel rose again this year.',
    ]
    for (const text of prose) expect(codeLike(text), text).toBe(false)
    // Keyboard mash with code punctuation may pass the gate, but the gate keeps the graph's noise.
    expect((await offlineGibberishEngine.run('qwpoeiru(zxmcnv); alskdj{}')).label).toBe('noise')
  })

  it('judges short sentences of other languages for noise only, and no English text, garbled or not, as another language', async () => {
    const otherLanguages = ['Ich habe morgen keine Zeit.', 'Merci beaucoup pour votre aide.', 'Saya sudah makan siang.', 'Kiitos paljon avustasi.', 'Jag vet inte vad du menar.']
    for (const text of otherLanguages) expect((await offlineGibberishEngine.run(text)).label, text).toBe('clean')
    const languages = modelFile<GibberishLanguages>(GIBBERISH_LANGUAGES)
    for (const text of ['Dinner the cooked she for family yesterday we.', 'I has went to the store and buyed three apple.', 'Teh meeting was moved becuase of teh wether.'])
      expect(otherLanguage(text, languages), text).toBe(false)
    expect(otherLanguage('qwpoe qwpoe qwpoe', languages)).toBe(false)
  })

  it('keeps everyday sentences clean (twelve written after the engine was trained, TUNING-issue18 run 146)', async () => {
    const everyday = [
      'Could you send me the slides from this morning?',
      'I left my umbrella on the train again.',
      'The kids are finally asleep, so we can watch a film.',
      'Our flight was delayed by two hours because of fog.',
      'She bought fresh bread and some cheese at the market.',
      "Don't forget to lock the back door before you leave.",
      'The new coffee machine in the kitchen makes a strange noise.',
      'We should book the restaurant before Friday.',
      'My phone battery dies really quickly these days.',
      'Thanks for helping me move the sofa yesterday.',
      'The bus was so crowded that I had to stand all the way.',
      'Let me know if you need anything else from the shop.',
    ]
    const labels = await Promise.all(everyday.map(async (text) => (await offlineGibberishEngine.run(text)).label))
    expect(labels.filter((label) => label === 'clean').length, JSON.stringify(labels)).toBeGreaterThanOrEqual(11)
  })
})

describe('offline model files', () => {
  it('fit the browser budget of issue 18: under 10 MB for all checks together', () => {
    const dir = path.join(process.cwd(), 'public/models/offline')
    const bytes = fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.onnx') || name.endsWith('.json'))
      .reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0)
    expect(bytes).toBeGreaterThan(1_000_000)
    expect(bytes).toBeLessThan(10_000_000)
  })
})
