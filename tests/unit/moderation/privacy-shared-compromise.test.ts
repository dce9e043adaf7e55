import nlp from 'compromise'
import { describe, expect, it } from 'vitest'

/**
 * The privacy engine builds its own copy of compromise's post-tagger patterns. compromise parses
 * those patterns in place the first time its own tagger runs, so the engine must load after that
 * (and compromise's tagger must still work after the engine loaded), as in a bundle where another
 * copy of the engine module, or any other compromise user, ran first.
 */
describe('privacy engine next to other compromise users', () => {
  it('loads after compromise tagged a text itself, and leaves compromise working', async () => {
    expect(nlp('Dr. Smith flew to Paris on Monday.').people().out('array')).toEqual(['Dr. Smith'])
    const { analyzePii } = await import('@/lib/moderation/engines/privacy')
    const found = analyzePii('Please forward the contract to Mr. Dmitri Volkov before Friday.')
    expect(found.map((e) => e.type)).toEqual(['PERSON', 'DATE_TIME'])
    expect(nlp('Mrs. Jones lives in Berlin.').places().out('array')).toEqual(['Berlin.'])
  })
})
