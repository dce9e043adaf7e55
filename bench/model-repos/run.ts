/**
 * Time to first answer of the moderation checks whose models come from hub repositories, per
 * check, in fresh processes: cold (empty model cache: the revision is copied from the blob store
 * and checked), warm (the cache from the run before: each cached file is checked against its stamp),
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

const emptyCache = () => fs.rmSync(cache, { recursive: true, force: true })
const neuralRepos = {
  MODERATION_MODEL_TOXICITY: 'hub-models/unbiased-toxic-roberta-tiny',
  MODERATION_MODEL_PROMPT_INJECTION: 'hub-models/deberta-v3-base-injection-tiny',
}
type Config = { label: string; env: NodeJS.ProcessEnv; checks: string[]; before?: () => void }
const configs: Config[] = [
  { label: 'offline graphs, repo, cold cache', env: base, checks: OFFLINE_CHECKS, before: emptyCache },
  { label: 'offline graphs, repo, warm cache', env: base, checks: OFFLINE_CHECKS },
  { label: 'offline graphs, folder (OFFLINE_MODELS_DIR)', env: { ...base, OFFLINE_MODELS_DIR: path.join(root, 'public/models/offline') }, checks: OFFLINE_CHECKS },
  { label: 'tiny neural, repo, cold cache', env: { ...base, ...neuralRepos }, checks: NEURAL_CHECKS, before: emptyCache },
  { label: 'tiny neural, repo, warm cache', env: { ...base, ...neuralRepos }, checks: NEURAL_CHECKS },
  { label: 'tiny neural, folder (MODELS_DIR)', env: { ...base, MODELS_DIR: path.join(root, 'tests/fixtures/tiny-models') }, checks: NEURAL_CHECKS },
]

// Rounds on the outside: each round runs every configuration once, one after the other, so a
// warm row and its folder row are measured under the same load (the machine is shared).
const SNAPSHOT_REPOS = ['hub-models/offline-moderation', ...Object.values(neuralRepos)]
/** The offline repo in one fresh process, the neural pair in another, as the rows above load them. */
function snapshotTimes(): Record<string, number> {
  const one = (repos: string[]) => {
    const out = spawnSync('npx', ['tsx', 'bench/model-repos/snapshot-time.ts'], { cwd: root, env: { ...base, BENCH_REPOS: repos.join(',') }, encoding: 'utf8' })
    if (out.status !== 0) throw new Error(out.stderr)
    return JSON.parse(out.stdout.trim().split('\n').pop()!) as Record<string, number>
  }
  // The neural cold row emptied the cache (the offline repo's files too): a first process fills it, the second is measured.
  one(SNAPSHOT_REPOS)
  return { ...one(SNAPSHOT_REPOS.slice(0, 1)), ...one(SNAPSHOT_REPOS.slice(1)) }
}

const loadBefore = os.loadavg()[0]!
const runs: Times[][] = configs.map(() => [])
const snapshots: Record<string, number>[] = []
for (let round = 0; round < ROUNDS; round++) {
  configs.forEach((config, i) => {
    config.before?.()
    runs[i]!.push(oneProcess(config.env, config.checks))
  })
  snapshots.push(snapshotTimes())
  console.error(`round ${round + 1}/${ROUNDS}`)
}
const rows: [string, Times][] = configs.map((config, i) => [
  config.label,
  Object.fromEntries(config.checks.map((c) => [c, { first: median(runs[i]!.map((r) => r[c]!.first)), second: median(runs[i]!.map((r) => r[c]!.second)) }])),
])

const total = (t: Times) => Object.values(t).reduce((a, b) => a + b.first, 0)
const overhead = (warm: Times, folder: Times) => `${(((total(warm) - total(folder)) / total(folder)) * 100).toFixed(1)}%`
/** The median over rounds of (warm - folder) / folder, each round's pair measured back to back. */
const pairedOverhead = (warm: number, folder: number) => {
  const ratios = runs[warm]!.map((r, i) => (total(r) - total(runs[folder]![i]!)) / total(runs[folder]![i]!))
  return `${(median(ratios) * 100).toFixed(1)}%`
}
const fmt = (ms: number) => ms.toFixed(1)
const lines = [
  '# Models from hub repositories: time to first answer',
  '',
  `\`npx tsx bench/model-repos/run.ts\` on ${os.cpus().length} CPU cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version},`,
  `${new Date().toISOString().slice(0, 10)}. Each row is the median of ${ROUNDS} fresh processes (each round runs every row once, in turn) calling the real route handler in-process`,
  '(the database connection opened before timing, as in a running hub)',
  '(SQLite hub, disk blob store, seeded by `scripts/seed.ts`). "first" is the first request of that check in the process',
  '(resolving the revision, copying/checking the files, creating the ONNX sessions, answering; the first check of a',
  'process also pays the repo snapshot for all the offline graphs), "second" the next request. Milliseconds.',
  `Load average (1 min) at the start ${loadBefore.toFixed(1)}, at the end ${os.loadavg()[0]!.toFixed(1)}: the machine is shared, so compare rows of one run only.`,
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
  '| models | of the medians | median of the rounds\' paired ratios |',
  '|---|---|---|',
  `| offline graphs | ${overhead(rows[1]![1], rows[2]![1])} | ${pairedOverhead(1, 2)} |`,
  `| tiny neural models | ${overhead(rows[4]![1], rows[5]![1])} | ${pairedOverhead(4, 5)} |`,
  '',
  '## What loading through the hub adds, measured on its own (warm cache)',
  '',
  'The first `modelSnapshot` of each repo in a fresh process (the route module loaded and the database connection up, as',
  'above): one raw statement (the repo, its access facts, the branch head), a stat per cached file against its stamp, the',
  'links checked. Median of the rounds; against the folder rows\' sum of first answers.',
  '',
  '| repo | warm snapshot (ms) | share of the folder\'s first answers |',
  '|---|---|---|',
  ...SNAPSHOT_REPOS.map((repo) => {
    const ms = median(snapshots.map((s) => s[repo]!))
    const folder = repo === 'hub-models/offline-moderation' ? total(rows[2]![1]) : total(rows[5]![1])
    return `| ${repo} | ${fmt(ms)} | ${((ms / folder) * 100).toFixed(1)}% of ${fmt(folder)} ms |`
  }),
  `| both neural repos together | ${fmt(median(snapshots.map((s) => s[SNAPSHOT_REPOS[1]!]! + s[SNAPSHOT_REPOS[2]!]!)))} | ${((median(snapshots.map((s) => s[SNAPSHOT_REPOS[1]!]! + s[SNAPSHOT_REPOS[2]!]!)) / total(rows[5]![1])) * 100).toFixed(1)}% of ${fmt(total(rows[5]![1]))} ms |`,
  '',
  'Browser timings (cold/warm, the playground loading the same repos) are in bench/playground/RESULTS.md.',
  '',
)
fs.writeFileSync(path.join(root, 'bench/model-repos/RESULTS.md'), lines.join('\n'))
console.log(lines.join('\n'))
