/**
 * Time to first answer of the moderation checks whose models come from hub repositories, per
 * check, in fresh processes: cold (empty model cache: the revision is copied from the blob store
 * and checked), warm (the cache from the run before: each cached file's sha256 is checked once),
 * and the direct folder of before (OFFLINE_MODELS_DIR / MODELS_DIR). Median of ROUNDS processes.
 *
 *   npx tsx bench/model-repos/run.ts            # writes bench/model-repos/RESULTS.md
 *
 * Everything lives under .tmp/bench-model-repos/ (a seeded SQLite hub and its blob store).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const root = path.resolve(import.meta.dirname, '../..')
const work = path.join(root, '.tmp', 'bench-model-repos')
const cache = path.join(work, 'cache')
const OFFLINE_CHECKS = ['detoxifymodel', 'promptinjectionmodel', 'gibberishmodel', 'bancodemodel', 'multi_q_net_embedding', 'restrictedtopicmodel']
const NEURAL_CHECKS = ['detoxifymodel', 'promptinjectionmodel']

fs.rmSync(work, { recursive: true, force: true })
fs.mkdirSync(work, { recursive: true })
const base: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: `file:${path.join(work, 'hub.db')}`,
  STORAGE_DIR: path.join(work, 'blobs'),
  AUTH_SECRET: 'bench-only-secret',
  MODERATION_AUTH: 'off',
  MODERATION_RATE_LIMIT_PER_MINUTE: '0',
  MODELS_CACHE_DIR: cache,
  MODELS_DIR: path.join(work, 'no-models'),
  OFFLINE_MODELS_DIR: '',
}
execFileSync('npx', ['tsx', 'scripts/db.ts', 'deploy'], { cwd: root, env: base, stdio: 'ignore' })
execFileSync('npx', ['tsx', 'scripts/seed.ts'], { cwd: root, env: base, stdio: 'ignore' })

type Times = Record<string, { first: number; second: number }>

function oneProcess(env: NodeJS.ProcessEnv, checks: string[]): Times {
  const out = spawnSync('npx', ['tsx', 'bench/model-repos/first-answer.ts'], { cwd: root, env: { ...env, BENCH_CHECKS: checks.join(',') }, encoding: 'utf8' })
  if (out.status !== 0) throw new Error(out.stderr)
  return JSON.parse(out.stdout.trim().split('\n').pop()!)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

function measure(label: string, env: NodeJS.ProcessEnv, checks: string[], before?: () => void): Record<string, { first: number; second: number }> {
  const runs: Times[] = []
  for (let i = 0; i < ROUNDS; i++) {
    before?.()
    runs.push(oneProcess(env, checks))
  }
  const result = Object.fromEntries(checks.map((c) => [c, { first: median(runs.map((r) => r[c]!.first)), second: median(runs.map((r) => r[c]!.second)) }]))
  console.log(label, JSON.stringify(result))
  return result
}

const emptyCache = () => fs.rmSync(cache, { recursive: true, force: true })
const neuralRepos = {
  MODERATION_MODEL_TOXICITY: 'hub-models/unbiased-toxic-roberta-tiny',
  MODERATION_MODEL_PROMPT_INJECTION: 'hub-models/deberta-v3-base-injection-tiny',
}
const rows: [string, Times][] = [
  ['offline graphs, repo, cold cache', measure('offline cold', base, OFFLINE_CHECKS, emptyCache)],
  ['offline graphs, repo, warm cache', measure('offline warm', base, OFFLINE_CHECKS)],
  ['offline graphs, folder (OFFLINE_MODELS_DIR)', measure('offline folder', { ...base, OFFLINE_MODELS_DIR: path.join(root, 'public/models/offline') }, OFFLINE_CHECKS)],
  ['tiny neural, repo, cold cache', measure('neural cold', { ...base, ...neuralRepos }, NEURAL_CHECKS, emptyCache)],
  ['tiny neural, repo, warm cache', measure('neural warm', { ...base, ...neuralRepos }, NEURAL_CHECKS)],
  ['tiny neural, folder (MODELS_DIR)', measure('neural folder', { ...base, MODELS_DIR: path.join(root, 'tests/fixtures/tiny-models') }, NEURAL_CHECKS)],
]

const total = (t: Times) => Object.values(t).reduce((a, b) => a + b.first, 0)
const overhead = (warm: Times, folder: Times) => `${(((total(warm) - total(folder)) / total(folder)) * 100).toFixed(1)}%`
const fmt = (ms: number) => ms.toFixed(1)
const lines = [
  '# Models from hub repositories: time to first answer',
  '',
  `\`npx tsx bench/model-repos/run.ts\` on ${os.cpus().length} CPU cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version},`,
  `${new Date().toISOString().slice(0, 10)}. Each row is the median of ${ROUNDS} fresh processes calling the real route handler in-process`,
  '(the database connection opened before timing, as in a running hub)',
  '(SQLite hub, disk blob store, seeded by `scripts/seed.ts`). "first" is the first request of that check in the process',
  '(resolving the revision, copying/checking the files, creating the ONNX sessions, answering; the first check of a',
  'process also pays the repo snapshot for all the offline graphs), "second" the next request. Milliseconds.',
  '',
]
for (const [label, times] of rows) {
  lines.push(`## ${label}`, '', '| check | first | second |', '|---|---|---|')
  for (const [check, t] of Object.entries(times)) lines.push(`| ${check} | ${fmt(t.first)} | ${fmt(t.second)} |`)
  lines.push(`| **sum of first answers** | **${fmt(total(times))}** | |`, '')
}
lines.push(
  '## Overhead of loading through the hub (warm cache) against the direct folder',
  '',
  `- offline graphs: ${overhead(rows[1]![1], rows[2]![1])} (sum of first answers)`,
  `- tiny neural models: ${overhead(rows[4]![1], rows[5]![1])} (sum of first answers)`,
  '',
  'Browser timings (cold/warm in the playground) are not measured here.',
  '',
)
fs.writeFileSync(path.join(root, 'bench/model-repos/RESULTS.md'), lines.join('\n'))
console.log(lines.join('\n'))
