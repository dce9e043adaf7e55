/**
 * The longest texts a moderation request may carry (MODERATION_MAX_TEXT_LENGTH, 50,000 characters),
 * in shapes that make pattern matchers and tokenizers work hardest (runs of the characters e-mail
 * addresses, URLs, IP addresses and phone numbers are made of; one long word; no spaces), through
 * every check's offline engine in process: how long one request holds the event loop.
 * Prints a markdown table (milliseconds, one run each after a warm-up) and the slowest cell.
 *
 * Run: `npx tsx bench/moderation/worst-case.ts` on a migrated and seeded database (the offline
 * engines' graphs come from the hub's model repo), e.g. DATABASE_URL=file:./.tmp/eval.db after
 * `npx tsx scripts/db.ts deploy && npx tsx scripts/seed.ts`.
 */
import { answerCheck, CHECKS } from '@/lib/moderation/checks'
import { deploymentEngines } from '@/lib/moderation/engines/registry'
import { requestSchemas } from '@/lib/moderation/api/schemas'
import { moderationSettings } from '@/lib/moderation/api/settings'

const N = 49_000
const SHAPES: [string, string][] = [
  ['spaces', ' '.repeat(N)],
  ['one digit', '1'.repeat(N)],
  ['"1 " repeated', '1 '.repeat(N / 2)],
  ['"a@" repeated', 'a@'.repeat(N / 2)],
  ['"a." repeated', 'a.'.repeat(N / 2)],
  ['e-mail-like', ('a'.repeat(60) + '@').repeat(Math.floor(N / 61))],
  ['URL-like', 'http://' + 'a.'.repeat(N / 2 - 4)],
  ['"Aa " repeated', 'Aa '.repeat(Math.floor(N / 3))],
  ['a name repeated', 'John Smith '.repeat(Math.floor(N / 11))],
  ['a name and a kind of place repeated', 'Michael Bay '.repeat(Math.floor(N / 12))],
  ['abbreviations repeated', 'Mt. '.repeat(Math.floor(N / 4))],
  ['hyphens', '-'.repeat(N)],
  ['"(555) " repeated', '(555) '.repeat(Math.floor(N / 6))],
  ['"1.1.1." repeated', '1.1.1.'.repeat(Math.floor(N / 6))],
  ['IBAN-like', 'GB82 '.repeat(Math.floor(N / 5))],
  ['emoji and accents', '😀é'.repeat(Math.floor(N / 3))],
  ['brackets', '(['.repeat(N / 2)],
  ['base64', 'QUFB'.repeat(N / 4)],
  ['zero-width spaces', 'a\u200b'.repeat(N / 2)],
  ['newlines', 'a\n'.repeat(N / 2)],
  ['one long word', 'a'.repeat(N)],
  ['CJK', '漢字'.repeat(N / 2)],
  ['prose with a name and a number', 'Please call John Smith at 555-0199 tomorrow about the invoice. '.repeat(Math.floor(N / 64))],
]

const schemas = requestSchemas(moderationSettings().limits)
const engines = deploymentEngines()

/** The check's example body with each of its texts replaced (labels and other short fields kept). */
function withText(value: unknown, text: string): unknown {
  if (typeof value === 'string') return value.length > 8 ? text : value
  if (Array.isArray(value)) return value.map((item) => withText(item, text))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, /label|categor|model/i.test(k) ? v : withText(v, text)]))
  return value
}

async function timed(check: (typeof CHECKS)[number], text: string): Promise<number> {
  const body = schemas[check.request.name]!.parse(withText(check.example, text))
  const started = performance.now()
  await answerCheck(check, body, engines)
  return performance.now() - started
}

for (const check of CHECKS) await timed(check, 'warm up the engines') // graphs load on first use
console.log(`| text (${N.toLocaleString('en')} characters) | ${CHECKS.map((c) => c.path).join(' | ')} |`)
console.log(`|---|${CHECKS.map(() => '---').join('|')}|`)
let slowest = { ms: 0, cell: '' }
for (const [name, text] of SHAPES) {
  const cells: string[] = []
  for (const check of CHECKS) {
    const ms = await timed(check, text)
    if (ms > slowest.ms) slowest = { ms, cell: `${check.path} on ${name}` }
    cells.push(ms.toFixed(0))
  }
  console.log(`| ${name} | ${cells.join(' | ')} |`)
}
console.log(`\nslowest: ${slowest.ms.toFixed(0)} ms (${slowest.cell})`)
