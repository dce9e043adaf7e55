/**
 * One fresh server process's time to first answer per check (child of run.ts): the real route
 * handler, the models from wherever the environment says (a repo through the model cache, or a
 * folder). Prints one JSON line: milliseconds to the first and to the second answer per check.
 */
import { db } from '@/lib/db'
import { findCheck } from '@/lib/moderation/checks'

const CHECKS = (process.env.BENCH_CHECKS ?? '').split(',').filter(Boolean)

async function main() {
  const route = await import('@/app/rai/v1/raimoderationmodels/[check]/route')
  // A running hub has its database connection up long before a check's first request (sign-in, tokens).
  await db.user.count()
  const times: Record<string, { first: number; second: number }> = {}
  for (const check of CHECKS) {
    const example = findCheck(check)!.example
    const once = async () => {
      const started = performance.now()
      const response = await route.POST(
        new Request(`http://bench.test/rai/v1/raimoderationmodels/${check}`, {
          method: 'POST',
          headers: { Authorization: 'None', 'Content-Type': 'application/json' },
          body: JSON.stringify(example),
        }),
        { params: Promise.resolve({ check }) },
      )
      await response.json()
      if (response.status !== 200) throw new Error(`${check}: HTTP ${response.status}`)
      return { ms: performance.now() - started, engine: response.headers.get('X-Moderation-Engine') }
    }
    const first = await once()
    const second = await once()
    times[check] = { first: first.ms, second: second.ms }
    if (process.env.BENCH_SHOW_ENGINE) console.error(check, first.engine)
  }
  console.log(JSON.stringify(times))
}

// A rejection exits with status 1 and the error; the open database pool would keep a clean end alive.
await main()
process.exit(0)
