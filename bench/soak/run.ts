/**
 * The soak: sustained mixed load with faults injected on a schedule, then invariants checked from
 * the database. PostgreSQL with several instances behind a load balancer, then SQLite with one.
 *   npm run soak                 # full run, a few minutes
 *   npm run soak -- --short      # the CI form: SQLite, about a minute, run by scripts/test.sh
 *   npm run soak -- --only=sqlite   # one topology (or --only=postgresql; with --short too)
 * Prints every invariant with its count of violations and the figures per phase; writes
 * .tmp/report-soak.json (one test per invariant, read by scripts/test-summary.mjs) and
 * .tmp/soak/summary.md (the tables of bench/soak/RESULTS.md). Needs a production build (.next).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { root, soakDir } from './cluster'

const short = process.argv.includes('--short') || process.env.SOAK_SHORT === '1'
// --only=sqlite or --only=postgresql runs one topology. The short form (CI) runs the SQLite one
// (about a minute); its PostgreSQL form (two instances, 40 s of load) takes as long again, so it
// runs only when asked for (--short --only=postgresql).
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? (short ? 'sqlite' : undefined)
const topologies = (fs.existsSync('/usr/lib/postgresql/15/bin/postgres') ? ['postgresql', 'sqlite'] : ['sqlite']).filter((t) => !only || t === only)
const lines: string[] = []
const out = (line = '') => {
  console.log(line)
  lines.push(line)
}

let passed = 0
let failed = 0
const started = Date.now()
out(`# soak ${short ? '(short)' : '(full)'}: ${new Date().toISOString()}, ${os.cpus().length} CPUs, load average before ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
if (!only && !topologies.includes('postgresql')) out('PostgreSQL 15 (Debian) is not installed: the PostgreSQL topology is skipped.')
// Ctrl-C or kill ends the topology in progress (its child cleans up) and skips the ones after it.
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (stopping = true))
for (const topology of topologies) {
  if (stopping) break
  const resultFile = path.join(soakDir, `result-${topology}.json`)
  fs.rmSync(resultFile, { force: true })
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(import.meta.dirname, 'topology.ts'), topology], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SOAK_SHORT: short ? '1' : '0' },
    })
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal))
    if (stopping) child.kill('SIGTERM')
    child.on('exit', (c) => resolve(c ?? 1))
  })
  if (code !== 0 || !fs.existsSync(resultFile)) {
    out(`\n## ${topology}: the run failed (exit ${code}); logs in .tmp/soak/`)
    failed++
    continue
  }
  const r = JSON.parse(fs.readFileSync(resultFile, 'utf8'))
  out(`\n## ${topology}: blob store on a ${r.blobStore}, ${r.instances.length} instance(s) (clock offsets ${r.instances.map((i: { clockOffsetMs: number }) => `${i.clockOffsetMs / 1000} s`).join(', ')}), ${r.durationSeconds.toFixed(0)} s, ${r.concurrency} workers at ${r.rpsTarget} scenarios/s`)
  out(`\n${r.requests} requests, ${r.rpsHeld.toFixed(1)} requests/s held; instance start ${r.startupSeconds.map((s: number) => s.toFixed(1)).join(', ')} s\n`)
  out('| phase | at | requests | 5xx or unanswered | error rate | recovery | details |')
  out('|---|---|---|---|---|---|---|')
  out(`| steady (outside fault windows) | | ${r.steady.requests} | ${r.steady.errors5xxOrUnanswered} | ${pct(r.steady.errorRate)} | | ${statuses(r.steady.statuses)} |`)
  for (const f of r.faults) {
    const { name, at, recoverySeconds, requests, errors5xxOrUnanswered, errorRate, statuses: st, ...details } = f
    out(`| ${name} | +${at.toFixed(0)} s | ${requests} | ${errors5xxOrUnanswered} | ${pct(errorRate)} | ${recoverySeconds.toFixed(1)} s | ${statuses(st)}; ${Object.entries(details).map(([k, v]) => `${k} ${typeof v === 'number' ? +v.toFixed(1) : v}`).join(', ')} |`)
  }
  out('\n| scenario | runs | ok | failures |')
  out('|---|---|---|---|')
  for (const [name, s] of Object.entries(r.scenarios as Record<string, { runs: number; ok: number; errors: Record<string, number> }>)) {
    out(`| ${name} | ${s.runs} | ${s.ok} | ${Object.entries(s.errors).map(([e, n]) => `${e} ×${n}`).join('; ')} |`)
  }
  out('\n| invariant | checked | violations |')
  out('|---|---|---|')
  for (const i of r.invariants) {
    out(`| ${i.name} | ${i.checked} | ${i.violations} |`)
    if (i.violations === 0 && i.checked > 0) passed++
    else failed++
    for (const e of i.examples) out(`|   ${e} | | |`)
  }
}
out(`\nsoak: ${passed} invariants held, ${failed} violated or not checked (${((Date.now() - started) / 1000).toFixed(0)} s)`)
fs.writeFileSync(path.join(soakDir, 'summary.md'), lines.join('\n') + '\n')
fs.writeFileSync(path.join(root, '.tmp/report-soak.json'), JSON.stringify({ name: 'soak', passed, failed }))
process.exit(failed ? 1 : 0)

function pct(x: number) {
  return `${(x * 100).toFixed(1)} %`
}
function statuses(s: Record<string, number>) {
  return Object.entries(s)
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')
}
