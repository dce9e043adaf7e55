/**
 * What loading through the hub adds to a fresh process's first answer on a warm cache (child of
 * run.ts): the time of the first `modelSnapshot` of each repo in BENCH_REPOS (one statement to the
 * database, a stat per cached file against its stamp, the links checked), measured on its own,
 * since the difference of two noisy first-answer sums hides a few milliseconds on a shared machine.
 * Prints one JSON line: milliseconds per repo.
 */
import { db } from '@/lib/db'
import { modelSnapshot } from '@/lib/hub/model-cache'

async function main() {
  await import('@/app/rai/v1/raimoderationmodels/[check]/route')
  // As in first-answer.ts: a running hub has its database connection up.
  await db.user.count()
  const times: Record<string, number> = {}
  for (const repo of (process.env.BENCH_REPOS ?? '').split(',').filter(Boolean)) {
    const started = performance.now()
    await modelSnapshot(repo, 'main')
    times[repo] = performance.now() - started
  }
  console.log(JSON.stringify(times))
}

// A rejection exits with status 1 and the error; the open database pool would keep a clean end alive.
await main()
process.exit(0)
