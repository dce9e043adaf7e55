import fs from 'node:fs'
import path from 'node:path'
import { lowercaseDictionaryWords } from './corpora'
import { inflectionStems } from '@/lib/moderation/engines/privacy/common-words'

/**
 * The English words the personal-data engine reads as words, not names (lib/moderation/engines/privacy/
 * common-words.json): every word SCOWL (`wamerican`) writes in lower case, which is its common vocabulary
 * ("salad", "tower", "kindle", "van"); its proper nouns are capitalised and stay out. A capitalised word that is none
 * of these ("Chukwuemeka", "Tesfaye", "Subramaniam") may be a name where the context says so. Regular inflections
 * whose stem is listed are left out ("towers", "kindled"): the engine finds them through their stems, which halves
 * the file.
 */
export const COMMON_WORDS_FILE = path.resolve('lib/moderation/engines/privacy/common-words.json')

export async function trainCommonWords(): Promise<void> {
  const words = new Set(lowercaseDictionaryWords().filter((w) => /^\p{Ll}+$/u.test(w)))
  if (words.size === 0) throw new Error('the wamerican dictionary is needed for the common words')
  const kept = [...words].filter((w) => !inflectionStems(w).some((stem) => words.has(stem))).sort()
  fs.writeFileSync(COMMON_WORDS_FILE, `${JSON.stringify(kept)}\n`)
  console.log(`  wrote ${path.relative(process.cwd(), COMMON_WORDS_FILE)} (${kept.length} of ${words.size} words, ${(fs.statSync(COMMON_WORDS_FILE).size / 1024).toFixed(0)} KiB)`)
}
