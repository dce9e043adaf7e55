import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { lowercaseDictionaryWords, npmPackageDir } from './corpora'

/**
 * The given names the personal-data engine knows besides compromise's own (lib/moderation/engines/privacy/
 * given-names.json): the first names of every locale of @faker-js/faker (MIT) written in Latin letters, about
 * 16,000, from Yoruba, Igbo, Ghanaian, Indian, Polish, Portuguese, Vietnamese, Turkish and forty other lists.
 * compromise knows mostly English names, so "I met Priya Ramaswamy" found nobody. A name that is also a lowercase
 * English word ("Will", "Grace", "Summer", "Hope") is left out, and so are names under three letters: in running
 * text they are far more often the word.
 */
export const GIVEN_NAMES_FILE = path.resolve('lib/moderation/engines/privacy/given-names.json')
const FAKER = { name: '@faker-js/faker', version: '9.9.0' }

type RawDefinitions = { person?: { first_name?: string[] | Record<string, string[]> } }

export async function trainGivenNames(): Promise<void> {
  const dir = npmPackageDir(FAKER.name, FAKER.version)
  if (!dir) throw new Error(`${FAKER.name}@${FAKER.version} unavailable (npm pack failed)`)
  const common = new Set(lowercaseDictionaryWords())
  if (common.size === 0) throw new Error('the wamerican dictionary is needed to leave out common words')
  const localeDir = path.join(dir, 'dist', 'locale')
  const names = new Set<string>()
  for (const file of fs.readdirSync(localeDir).filter((f) => f.endsWith('.js')).sort()) {
    const locale = (await import(pathToFileURL(path.join(localeDir, file)).href)) as { faker?: { rawDefinitions?: RawDefinitions } }
    const first = locale.faker?.rawDefinitions?.person?.first_name
    if (!first) continue
    for (const name of Array.isArray(first) ? first : Object.values(first).flat()) {
      if (!/^\p{Lu}[\p{Ll}\p{M}'’-]{2,}$/u.test(name) || common.has(name.toLowerCase())) continue
      names.add(name)
    }
  }
  const sorted = [...names].sort()
  fs.writeFileSync(GIVEN_NAMES_FILE, `${JSON.stringify(sorted)}\n`)
  console.log(`  wrote ${path.relative(process.cwd(), GIVEN_NAMES_FILE)} (${sorted.length} names, ${(fs.statSync(GIVEN_NAMES_FILE).size / 1024).toFixed(0)} KiB)`)
}
