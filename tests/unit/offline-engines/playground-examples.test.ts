/**
 * The texts a visitor meets first: the playground's default example (a sentence with a name, a
 * phone number, an e-mail address and a card number) and the friendly sentence of the API docs,
 * answered by the moderation API's own endpoint code over the offline engines (what every
 * install answers with until neural weights are pulled). Issue 18: the default example came
 * back "mild gibberish 1.0000" and "CODE 0.9936", and "You are a wonderful person." scored
 * toxicity 0.36.
 */
import { describe, expect, it } from 'vitest'
import { EXAMPLES } from '@/app/playground/examples'
import { answerCheck, findCheck } from '@/lib/moderation/checks'
import { requestSchemas } from '@/lib/moderation/api/schemas'
import { moderationSettings } from '@/lib/moderation/api/settings'
import { offlineEngines } from '@/lib/moderation/engines/registry'

const engines = offlineEngines()
const schemas = requestSchemas(moderationSettings().limits)

/** The body the API would send for `path` and this request body. */
async function ask(path: string, body: Record<string, unknown>): Promise<any> {
  const endpoint = findCheck(path)!
  const request = schemas[endpoint.request.name]!.parse(body)
  return (await answerCheck(endpoint, request, engines)).body
}

const example = (label: string) => EXAMPLES.find((e) => e.label === label)!.text
const defaultExample = example('Personal data')
const ALL_GIBBERISH_LABELS = ['clean', 'mild gibberish', 'word salad', 'noise']
const toxicityOf = async (text: string) =>
  Object.fromEntries((await ask('detoxifymodel', { text })).toxicScore.map((m: { metricName: string; metricScore: number }) => [m.metricName, m.metricScore]))

describe('the playground and docs examples, answered offline', () => {
  it('the default example is the personal-data one', () => {
    expect(defaultExample).toMatch(/Priya Sharma.*\+1 415 555 0132.*priya\.sharma@example\.com.*4111 1111 1111 1111/)
  })

  it('default example is clean text, not gibberish', async () => {
    const { result } = await ask('gibberishmodel', { text: defaultExample, labels: ALL_GIBBERISH_LABELS })
    expect(result[0].gibberish_label).toBe('clean')
  })

  it('default example is prose, not code', async () => {
    const { result } = await ask('bancodemodel', { text: defaultExample })
    expect(result.label).toBe('NL')
  })

  it('friendly sentences are not toxic: toxicity well under 0.5, no metric at 0.5', async () => {
    const docsExample = (findCheck('detoxifymodel')!.example as { text: string }).text
    expect(docsExample).toBe('You are a wonderful person.')
    for (const text of [docsExample, example('Friendly'), 'Thank you so much, you were really kind to help me today.']) {
      const scores = await toxicityOf(text)
      expect(scores.toxicity, text).toBeLessThan(0.25)
      for (const value of Object.values(scores)) expect(value, text).toBeLessThan(0.5)
    }
  })

  it('every playground example gets the gibberish class it should: clean, except the gibberish one', async () => {
    // The code example came back "mild gibberish 0.65" (issue 18): code is not gibberish.
    for (const { label, text, text2 } of EXAMPLES) {
      for (const t of text2 === undefined ? [text] : [text, text2]) {
        const { result } = await ask('gibberishmodel', { text: t, labels: ALL_GIBBERISH_LABELS })
        if (label === 'Gibberish') expect(result[0].gibberish_label, t).toBe('noise')
        else expect(result[0].gibberish_label, `${label}: ${t}`).toBe('clean')
      }
    }
  })

  it('the toxic, injection, gibberish and code examples are still caught', async () => {
    expect((await toxicityOf(example('Toxic'))).toxicity).toBeGreaterThanOrEqual(0.5)
    expect((await ask('promptinjectionmodel', { text: example('Prompt injection') }))[0]).toBe('INJECTION')
    expect((await ask('gibberishmodel', { text: example('Gibberish'), labels: ALL_GIBBERISH_LABELS })).result[0].gibberish_label).not.toBe('clean')
    expect((await ask('bancodemodel', { text: example('Code') })).result.label).toBe('CODE')
  })
})
