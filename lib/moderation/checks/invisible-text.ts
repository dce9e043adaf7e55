import { z } from 'zod'
import { invisibleTextEngine as invisibleTextRules } from '@/lib/moderation/engines/invisible-text'
import { defineCheck, defineEngine, formatTimeTaken } from './check'
import { checkedText, engineField, listOf, timeTaken } from './schema-parts'

const DEFAULT_BANNED_CATEGORIES = ['Cf', 'Co', 'Cn', 'So', 'Sc']

export const invisibleTextEngine = defineEngine({ key: 'invisibleText', exact: invisibleTextRules })

export const invisibleTextCheck = defineCheck({
  path: 'invisibletextmodel',
  title: 'Invisible text',
  summary: 'Invisible text: banned-category characters, in order, with duplicates',
  request: {
    name: 'InvisibleTextRequest',
    build: (limits) =>
      z.object({
        text: checkedText(limits),
        banned_categories: listOf(limits, z.string()).default(DEFAULT_BANNED_CATEGORIES).describe('Unicode general categories that are banned'),
      }),
  },
  response: { name: 'invisibleTextResponse', schema: z.object({ result: z.array(z.string()), time_taken: timeTaken, engine: engineField }) },
  engine: invisibleTextEngine,
  example: { text: 'pass\u200bword \u{1f600}', banned_categories: ['Cf', 'Co', 'Cn', 'So', 'Sc'] },
  async answer({ text, banned_categories }, run) {
    const { output, seconds, engine } = await run({ text, bannedCategories: banned_categories })
    return { body: { result: output, time_taken: formatTimeTaken(seconds), engine }, engine }
  },
})
