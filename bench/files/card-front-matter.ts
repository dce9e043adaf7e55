/**
 * How long reading a model card's front matter (parseFrontMatter) takes on the shapes that make
 * YAML's parser work hardest, 60 KB each (it reads at most 64 KB): one run each, milliseconds, and how
 * many keys were kept. A card is read on a request (once per commit), so this is how long one
 * hostile README can hold the event loop.
 *
 * Run: `npx tsx bench/files/card-front-matter.ts`
 */
import { parseFrontMatter } from '@/lib/hub/files/model-card'

const N = 60_000
/** Lines made by `line(i)`, as many as fit in N characters. */
function lines(line: (i: number) => string, head = ''): string {
  const out = [head]
  for (let i = 0, length = head.length; length < N; i++) {
    out.push(line(i))
    length += out.at(-1)!.length + 1
  }
  return out.filter(Boolean).join('\n')
}
const SHAPES: [string, string][] = [
  ['"[" repeated', 'k: ' + '['.repeat(N)],
  ['"[a]" repeated after a nested flow', '[{'.repeat(16) + '}]'.repeat(16) + '\nk: ' + '[a]'.repeat(N / 3)],
  ['"&a " repeated', '&a '.repeat(N / 3)],
  ['"!x " repeated', 'k: ' + '!x '.repeat(N / 3) + 'v'],
  ['"? " repeated', '? '.repeat(N / 2)],
  ['"- " repeated on one line', '- '.repeat(N / 2)],
  ['a key per line', lines((i) => `key${i}: value`)],
  ['one alias per line', lines((i) => `k${i}: *a`, 'a: &a [x]')],
  ['a long list', lines(() => '  - abcdefgh', 'tags:')],
  ['a long flow list', 'k: [' + 'a, '.repeat(N / 3) + 'a]'],
  ['brackets 30 deep, repeated', lines((i) => `k${i}: ` + '['.repeat(30) + ']'.repeat(30))],
  ['a long model-index', lines(() => '      - task: {type: t}\n        metrics: [{type: accuracy, value: 0.5}]', 'license: mit\nmodel-index:\n  - name: m\n    results:')],
]

console.log('| front matter (about 60 KB) | ms | keys kept |\n|---|---|---|')
let slowest = 0
for (const [name, yaml] of SHAPES) {
  const started = performance.now()
  const { metadata } = await parseFrontMatter(`---\n${yaml}\n---\nbody`)
  const ms = performance.now() - started
  slowest = Math.max(slowest, ms)
  console.log(`| ${name} | ${ms.toFixed(0)} | ${Object.keys(metadata).length} |`)
}
console.log(`\nslowest: ${slowest.toFixed(0)} ms`)
