import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import nlp from 'compromise'
import { DEBIAN_CORPORA_DIR, geonamesCatalogueFile, lowercaseDictionaryWords } from './corpora'

/**
 * The place names the personal-data engine knows besides compromise's own (lib/moderation/engines/
 * privacy/places.json): country names (ISO 3166-1), the names of countries' subdivisions (ISO 3166-2:
 * provinces, counties, regions, municipalities, which are also the names of most of their capitals),
 * both from Debian's `iso-codes` (LGPL-2.1+), and the cities of the IANA time-zone database as the
 * runtime's Intl lists them (not the ocean and polar zones), and GeoNames' cities (geonamesCities). A name is kept in its own spelling and without diacritics ("Bāmyān",
 * "Bamyan"). Single words that are also lowercase English words ("Nice", "Orange", "Central") are left
 * out, and so are names under four letters: in running text they are far more often not places.
 */
export const PLACES_FILE = path.resolve('lib/moderation/engines/privacy/places.json')

function isoCodesDir(): string | null {
  const installed = '/usr/share/iso-codes/json'
  const unpacked = path.join(DEBIAN_CORPORA_DIR, 'root', installed)
  for (const dir of [unpacked, installed]) if (fs.existsSync(path.join(dir, 'iso_3166-2.json'))) return dir
  fs.mkdirSync(DEBIAN_CORPORA_DIR, { recursive: true })
  if (spawnSync('apt-get', ['download', 'iso-codes'], { cwd: DEBIAN_CORPORA_DIR, stdio: 'inherit' }).status !== 0) return null
  const deb = fs.readdirSync(DEBIAN_CORPORA_DIR).find((f) => f.startsWith('iso-codes_') && f.endsWith('.deb'))
  if (deb) spawnSync('dpkg-deb', ['-x', path.join(DEBIAN_CORPORA_DIR, deb), path.join(DEBIAN_CORPORA_DIR, 'root')], { stdio: 'inherit' })
  return fs.existsSync(unpacked) ? unpacked : null
}

/**
 * The English names of GeoNames' cities (about 28,000, CC-BY-4.0) as Debian's `libgeonames-common` ships them: the
 * msgstr side of its English gettext catalogue (GeoNames ids to names), fetched with the other Debian corpora.
 * Empty when the package cannot be had.
 */
function geonamesCities(): string[] {
  const catalogue = geonamesCatalogueFile()
  if (!catalogue) return []
  // A GNU .mo file: a header of five little-endian 32-bit words (magic, revision, count, offset of the original
  // strings' table, offset of the translations' table); each table entry is a length and an offset.
  const mo = fs.readFileSync(catalogue)
  const count = mo.readUInt32LE(8)
  const translations = mo.readUInt32LE(16)
  const names: string[] = []
  for (let i = 0; i < count; i++) {
    const length = mo.readUInt32LE(translations + 8 * i)
    const offset = mo.readUInt32LE(translations + 8 * i + 4)
    const name = mo.toString('utf8', offset, offset + length)
    if (name && !name.includes('\n')) names.push(name)
  }
  return names
}

const withoutDiacritics = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').replace(/[‘’ʻ]/g, "'")

export async function trainPlaces(): Promise<void> {
  const dir = isoCodesDir()
  if (!dir) throw new Error('iso-codes unavailable (apt-get download iso-codes failed)')
  const read = (file: string, key: string) => (JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Record<string, Record<string, string>[]>)[key]
  const raw: string[] = []
  for (const country of read('iso_3166-1.json', '3166-1')) raw.push(country.name, ...(country.common_name ? [country.common_name] : []))
  for (const subdivision of read('iso_3166-2.json', '3166-2')) raw.push(subdivision.name)
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    const city = zone.split('/').at(-1)!
    // Ocean and polar zones are named after islands and stations ("Indian/Christmas", "Pacific/Easter") that read as other words.
    if (zone.includes('/') && !/^(?:Etc|Indian|Pacific|Atlantic|Antarctica|Arctic)\//.test(zone)) raw.push(city.replace(/_/g, ' '))
  }
  // GeoNames' cities are many and some are also people's names ("Florence", "Jackson", "Eugene"): a one-word city that
  // compromise reads as a person's name is left out, so "Florence said" stays a person (compromise's own places and
  // the other sources above are kept as they were).
  const cities = geonamesCities()
  if (cities.length === 0) console.log('  libgeonames-common unavailable: no GeoNames cities')
  for (const city of cities) if (city.includes(' ') || !nlp(city).has('#Person')) raw.push(city)
  const common = new Set(lowercaseDictionaryWords())
  if (common.size === 0) throw new Error('the wamerican dictionary is needed to leave out common words')
  const places = new Set<string>()
  for (let name of raw) {
    // "Valenciana, Comunidad" and "Bonaire, Sint Eustatius and Saba" are catalogue forms, not how text names them.
    // Marks such as "Čair †" (a former municipality) are not part of the name either.
    if (name.includes(',') || name.includes('(') || name.includes('[')) continue
    name = name.replace(/[^\p{L}\p{M}\s'’‘ʻ.-]/gu, '').replace(/\s+/g, ' ').trim()
    for (const spelling of [name, withoutDiacritics(name)]) {
      const letters = spelling.replace(/[^\p{L}]/gu, '')
      if (letters.length < 4 || !/^\p{Lu}/u.test(spelling)) continue
      if (!spelling.includes(' ') && common.has(spelling.toLowerCase())) continue
      places.add(spelling)
    }
  }
  const sorted = [...places].sort()
  fs.writeFileSync(PLACES_FILE, `${JSON.stringify(sorted)}\n`)
  console.log(`  wrote ${path.relative(process.cwd(), PLACES_FILE)} (${sorted.length} names, ${(fs.statSync(PLACES_FILE).size / 1024).toFixed(0)} KiB)`)
}
