import fs from 'node:fs'
import path from 'node:path'
import { GIBBERISH_LANGUAGES, type GibberishLanguages } from '@/lib/moderation/offline/gibberish'
import { lowercaseDictionaryWords, npmPackageDir } from './corpora'
import { log, OFFLINE_MODELS_DIR } from './output'

const STOPWORDS = { name: 'stopwords-iso', version: '1.1.0' }

/**
 * The function words by which the gibberish check tells a text in another language (gibberish.languages.json): the
 * stop-word lists of stopwords-iso (MIT) for every language but English, without the words SCOWL (`wamerican`)
 * writes in lower case ("die", "also", "war", "con"), so that no English text, sound or garbled, counts as another
 * language, and without single letters and words with digits. The language models were made from English prose: on
 * another language they read every word as a misspelling ("Ich habe morgen keine Zeit." came back mild gibberish),
 * so a text in another language is judged for noise only.
 */
export async function trainGibberishLanguages(): Promise<void> {
  const dir = npmPackageDir(STOPWORDS.name, STOPWORDS.version)
  if (!dir) throw new Error(`${STOPWORDS.name}@${STOPWORDS.version} unavailable (npm pack failed)`)
  const english = new Set(lowercaseDictionaryWords())
  if (english.size === 0) throw new Error('the wamerican dictionary is needed to leave out English words')
  const lists = JSON.parse(fs.readFileSync(path.join(dir, 'stopwords-iso.json'), 'utf8')) as Record<string, string[]>
  const languages: GibberishLanguages['languages'] = {}
  for (const code of Object.keys(lists).sort()) {
    if (code === 'en') continue
    const words = [...new Set(lists[code].map((w) => w.normalize('NFC').toLowerCase()))].filter((w) => /^\p{L}[\p{L}\p{M}'’]*$/u.test(w) && [...w].length >= 2 && !english.has(w)).sort()
    if (words.length >= 20) languages[code] = words.join(' ')
  }
  const file: GibberishLanguages = { source: `${STOPWORDS.name}@${STOPWORDS.version} without SCOWL's lower-case English words`, languages }
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, GIBBERISH_LANGUAGES), `${JSON.stringify(file)}\n`)
  const total = Object.values(languages).reduce((n, words) => n + words.split(' ').length, 0)
  log(`  wrote ${GIBBERISH_LANGUAGES}: ${Object.keys(languages).length} languages, ${total} words, ${(fs.statSync(path.join(OFFLINE_MODELS_DIR, GIBBERISH_LANGUAGES)).size / 1024).toFixed(0)} KiB`)
}
