/**
 * One soak topology, run as its own process (lib/db binds to one DATABASE_URL per process):
 *   tsx bench/soak/topology.ts postgresql|sqlite      (SOAK_SHORT=1 for the CI form)
 * PostgreSQL: a throwaway cluster, `next start` instances behind the balancer, one of them with its
 * clock 5 s ahead (and, in the full run, one 3 s behind). SQLite: one instance on the embedded
 * file. Runs the load, injects the faults on schedule, checks the invariants from the database and
 * writes .tmp/soak/result-<topology>.json (run.ts prints and merges them).
 */
import fs from 'node:fs'
import path from 'node:path'
import { Instance, Postgres, fillBlobStore, holdSqliteWriteLock, killAll, mountBlobStore, remountBlobStore, soakDir, unmountBlobStore } from './cluster'
import { startBalancer } from './balancer'
import { Ledger, ambiguous, type RequestRecord } from './ledger'
import type { Invariant, LimitSnapshot } from './invariants'

const topology = process.argv[2]
if (topology !== 'postgresql' && topology !== 'sqlite') throw new Error('usage: topology.ts postgresql|sqlite')
const short = process.env.SOAK_SHORT === '1'
const LB_PORT = Number(process.env.SOAK_PORT ?? 3670)
const FIRST_INSTANCE_PORT = LB_PORT + 1
const PG_PORT = Number(process.env.SOAK_PGPORT ?? 55470)
const LIMIT_PER_MINUTE = 60

const seconds = { postgresql: short ? 40 : 150, sqlite: short ? 24 : 75 }[topology]
const rps = Number(process.env.SOAK_RPS ?? 12)
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 6)

// The orchestrator mints codes and approves device codes in-process: give it room for that.
process.env.DEVICE_CODE_GUESSES_PER_USER = '1000000'
// Every simulated client starts device logins from this one address (the balancer's client).
process.env.DEVICE_AUTHORIZATIONS_PER_IP = '1000000'
process.env.AUTH_SECRET ||= 'soak-only-secret'
// The issuer the in-process consent step writes into redirects (RFC 9207 iss) is the balancer's.
process.env.HUB_URL = `http://127.0.0.1:${LB_PORT}`

const cleanups: (() => void)[] = []
function cleanup() {
  for (const c of cleanups.splice(0).reverse()) {
    try {
      c()
    } catch {}
  }
  killAll()
}
process.on('exit', cleanup)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => process.exit(130))

type FaultRecord = { name: string; start: number; end: number; details: Record<string, unknown> }

/** What the run is doing now (a phase or a fault, and the last thing it started in it): printed if it overstays. */
const step = { name: 'setup', detail: 'starting', since: Date.now() }
function setStep(name: string, detail = 'starting', since = Date.now()) {
  Object.assign(step, { name, detail, since })
}
function enter(name: string) {
  setStep(name)
  console.log(`${topology}: ${name}`)
}
/** A fault step still running at its bound (see `fault`). */
class StepOverran extends Error {}
const progress = (detail: string) => void (step.detail = detail)
let ledgerOfRun: Ledger | null = null

async function main() {
  // Bounded whatever happens: a run that overstays its schedule (by 4 minutes, 2 in the short form)
  // stops, its processes killed, after saying what it was doing and which requests were unanswered.
  setTimeout(() => {
    console.error(`${topology}: the run overstayed its time in "${step.name}" (${step.detail}, ${((Date.now() - step.since) / 1000).toFixed(0)} s); stopping`)
    console.error(`${topology}: ${ledgerOfRun?.describeInFlight() ?? 'no request sent yet'}`)
    process.exit(1)
  }, (seconds + (short ? 120 : 240)) * 1000).unref()
  // ------------------------------------------------------------ database
  let postgres: Postgres | null = null
  if (topology === 'postgresql') {
    postgres = new Postgres(PG_PORT)
    cleanups.push(() => postgres!.stop())
    process.env.DATABASE_URL = postgres.start()
  } else {
    const file = path.join(soakDir, 'soak.db')
    ;(await import('../../scripts/db')).removeSqliteFiles(file)
    process.env.DATABASE_URL = `file:${file}`
  }
  // The blob store: a tmpfs of its own where mount is allowed (so it can turn read-only or full).
  const storeDir = path.join(soakDir, `blobs-${topology}`)
  unmountBlobStore(storeDir)
  fs.rmSync(storeDir, { recursive: true, force: true })
  const storeMounted = mountBlobStore(storeDir)
  if (storeMounted) cleanups.push(() => unmountBlobStore(storeDir))
  else console.log(`${topology}: mount(2) refused; the blob store is a plain folder and its read-only and full faults are skipped`)
  process.env.STORAGE_DIR = storeDir
  const { deploy } = await import('../../scripts/db')
  progress('migrating the database')
  await deploy(process.env.DATABASE_URL!)
  const { seed } = await import('../../scripts/seed')
  progress('seeding')
  await seed()
  const { prepareFixtures, Load, NOTES_APP, cutOffTokenRequest, abandonedRequest, slowClients, sleep } = await import('./load')
  const { checkInvariants, snapshotLimit } = await import('./invariants')
  const { FileLoad, checkFileInvariants } = await import('./files')
  const { issueToken } = await import('@/lib/auth/tokens')
  const { db } = await import('@/lib/db')
  const fx = await prepareFixtures()

  // ------------------------------------------------------------ instances and balancer
  const lbUrl = `http://127.0.0.1:${LB_PORT}`
  const env = {
    DATABASE_URL: process.env.DATABASE_URL!,
    HUB_URL: lbUrl,
    AUTH_SECRET: process.env.AUTH_SECRET!,
    TRUST_PROXY: '1',
    MODERATION_RATE_LIMIT_PER_MINUTE: String(LIMIT_PER_MINUTE),
    STORAGE_DIR: storeDir,
  }
  const skews = topology === 'sqlite' ? [0] : short ? [0, 5000] : [0, 5000, -3000]
  const instances = skews.map((clockOffsetMs, i) => new Instance({ port: FIRST_INSTANCE_PORT + i, env, clockOffsetMs }))
  progress('starting the instances')
  for (const instance of instances) instance.start()
  const startup = await Promise.all(instances.map((i) => i.ready()))
  const balancer = await startBalancer(LB_PORT, instances.map((i) => i.port))
  cleanups.push(() => void balancer.close())

  const ledger = new Ledger()
  ledger.instrumentFetch()
  ledgerOfRun = ledger
  progress('warming up')
  const until = Date.now() + 10 * 60_000 // set properly once warmed up
  const options = { lbUrl, instancePorts: () => instances.map((i) => i.port), concurrency, rps, limitedRps: 2, until }
  const load = new Load(ledger, fx, options)
  // Warm-up, not counted in the figures: discovery, and each route a few times through the balancer's
  // round robin, so every instance has loaded it (production builds load route code lazily). What
  // it was given stays in the ledger: the invariants account for it like any other client's.
  await ledger.scope.run('control', async () => {
    await load.discover()
    for (let i = 0; i < 2 * instances.length; i++) {
      await load.login()
      await load.exchange()
      await load.moderate()
      await load.readRepo()
    }
  })
  // File traffic: carol commits to repos of her own and downloads what she committed.
  const writeToken = (await issueToken({ kind: 'personal', userId: fx.byName.get('carol')!.id, displayName: 'soak-files', role: 'write' })).token
  const files = await ledger.scope.run('control', () => FileLoad.create(lbUrl, writeToken, 'carol', 3))
  load.addScenario('commit', 1, () => files.commitFiles())
  load.addScenario('download', 1.5, () => files.download())
  load.addScenario('download-dropped', 0.2, () => files.abandonDownload())

  // ------------------------------------------------------------ faults
  const faults: FaultRecord[] = []
  const t0 = Date.now()
  options.until = t0 + seconds * 1000

  // A fault step that is still running after this long is recorded as overrun (with what it was
  // doing and the requests it was waiting for) and the run goes on to the invariants, rather than
  // hanging until the run's own bound ends it with nothing checked.
  const stepBoundMs = (short ? 45 : 90) * 1000
  const overruns: string[] = []
  async function fault(name: string, run: () => Promise<Record<string, unknown>>) {
    const start = Date.now()
    console.log(`${topology} +${((start - t0) / 1000).toFixed(0)} s: ${name}`)
    setStep(name, 'starting', start)
    let details: Record<string, unknown>
    let bound: NodeJS.Timeout | undefined
    const overrun = new Promise<never>((_, reject) => {
      bound = setTimeout(() => reject(new StepOverran(`still running after ${stepBoundMs / 1000} s, at: ${step.detail}; ${ledger.describeInFlight()}`)), stepBoundMs)
    })
    try {
      details = await Promise.race([run(), overrun])
    } catch (error) {
      details = { error: String(error) }
      if (error instanceof StepOverran) {
        overruns.push(`${name}: ${String(error)}`)
        console.error(`${topology}: ${name}: ${String(error)}`)
      }
    } finally {
      clearTimeout(bound)
    }
    faults.push({ name, start, end: Date.now(), details })
  }
  async function killAndRestart(instance: Instance) {
    instance.kill9()
    await sleep(2000) // down for a moment, as a supervisor's restart delay would leave it
    const restarted = Date.now()
    instance.start()
    const ready = await instance.ready()
    return { port: instance.port, clockOffsetMs: instance.options.clockOffsetMs ?? 0, restartToHealthySeconds: ready, downSeconds: (Date.now() - restarted) / 1000 + 2 }
  }
  async function restartPostgres() {
    postgres!.crash()
    await sleep(3000)
    postgres!.resume()
    const back = Date.now()
    // Recovered when every instance answers its readiness probe (it queries the database).
    await Promise.all(instances.map((i) => i.ready()))
    return { downSeconds: 3, instancesHealthyAfterSeconds: (Date.now() - back) / 1000 }
  }
  async function cutOff() {
    for (let i = 0; i < 4; i++) {
      const port = instances[i % instances.length]!.port
      progress(`token request ${i + 1} of 4 cut off mid-body`)
      await cutOffTokenRequest(port, load, ledger, fx.byName.get('alice')!.id)
      const token = ledger.chains.find((c) => c.state === 'live')?.accessTokens.at(-1)
      progress(`whoami ${i + 1} of 4 abandoned`)
      if (token) await abandonedRequest(port, '/api/whoami-v2', token)
    }
    await sleep(1000)
    // The code a cut-off request carried must still be unused, and redeemable (codes live 60 s).
    for (const c of ledger.cutOffCodes.filter((c) => c.laterRedeemed === null)) {
      progress(`redeeming the cut-off code ${c.grantHash.slice(0, 8)}`)
      const row = await db.authorizationCode.findUnique({ where: { codeHash: c.grantHash } })
      c.unusedAfterCut = !!row && !row.usedAt
      const body = new URLSearchParams({ grant_type: 'authorization_code', code: c.code, redirect_uri: NOTES_APP.redirectUri, code_verifier: c.verifier })
      c.laterRedeemed = (await ledger.scope.run('control', () => load.postToken(LB_PORT, body))).status === 200
    }
    return { cutOffTokenRequests: 4, abandonedWhoami: 4 }
  }
  async function slow(holdMs: number) {
    const { trickledStatus } = await slowClients(instances[0]!.port, 20, holdMs, load, fx.byName.get('bob')!.id)
    return { slowConnections: 20, holdSeconds: holdMs / 1000, trickledTokenRequestStatus: trickledStatus }
  }
  async function sqliteWriter(holdMs: number) {
    return { heldWriteLockSeconds: holdMs / 1000, ...(await holdSqliteWriteLock(process.env.DATABASE_URL!, holdMs)) }
  }

  async function abortedUploads() {
    for (let i = 0; i < 3; i++) {
      progress(`upload ${i + 1} of 3 aborted after ${150 + i * 100} ms`)
      await ledger.run('commit-aborted', () => files.commitFiles(150 + i * 100))
    }
    return { abortedUploads: 3 }
  }
  async function storeReadOnly(holdMs: number) {
    if (!storeMounted) return { skipped: 'mount(2) refused' }
    remountBlobStore(storeDir, 'ro')
    await sleep(holdMs)
    remountBlobStore(storeDir, 'rw')
    return { readOnlySeconds: holdMs / 1000 }
  }
  async function storeFull(holdMs: number) {
    if (!storeMounted) return { skipped: 'mount(2) refused' }
    const free = fillBlobStore(storeDir)
    await sleep(holdMs)
    free()
    return { fullSeconds: holdMs / 1000 }
  }

  type Step = [number, string, () => Promise<Record<string, unknown>>]
  const schedule: Step[] =
    topology === 'postgresql'
      ? short
        ? [
            [4, 'kill -9 instance 1, restart', () => killAndRestart(instances[0]!)],
            [18, 'clients hang up mid-request and mid-upload', async () => ({ ...(await cutOff()), ...(await abortedUploads()) })],
            [24, 'PostgreSQL restart (immediate stop, 3 s down)', restartPostgres],
            [33, 'blob store read-only for 3 s', () => storeReadOnly(3000)],
          ]
        : [
            [15, 'kill -9 instance 1, restart', () => killAndRestart(instances[0]!)],
            [35, 'PostgreSQL restart (immediate stop, 3 s down)', restartPostgres],
            [52, 'clients hang up mid-request', cutOff],
            [60, 'slow clients hold 20 connections', () => slow(8000)],
            [72, 'clients abort uploads mid-way', abortedUploads],
            [80, 'blob store read-only for 4 s', () => storeReadOnly(4000)],
            [92, 'kill -9 instance 2 (clock +5 s), restart', () => killAndRestart(instances[1]!)],
            [106, 'blob store full for 4 s', () => storeFull(4000)],
            [118, 'PostgreSQL restart while instance 3 (clock -3 s) is killed', async () => {
              const [pg, killed] = await Promise.all([restartPostgres(), killAndRestart(instances[2]!)])
              return { ...pg, ...killed }
            }],
          ]
      : short
        ? [
            [3, 'kill -9 the instance, restart', () => killAndRestart(instances[0]!)],
            [13, 'clients hang up mid-request and mid-upload', async () => ({ ...(await cutOff()), ...(await abortedUploads()) })],
            [19, 'a long writer holds the SQLite write lock for 3 s', () => sqliteWriter(3000)],
          ]
        : [
            [10, 'kill -9 the instance, restart', () => killAndRestart(instances[0]!)],
            [28, 'a long writer holds the SQLite write lock for 7 s', () => sqliteWriter(7000)],
            [42, 'clients hang up mid-request and mid-upload', async () => ({ ...(await cutOff()), ...(await abortedUploads()) })],
            [50, 'slow clients hold 20 connections', () => slow(6000)],
            [58, 'blob store full for 4 s', () => storeFull(4000)],
            [66, 'kill -9 the instance, restart', () => killAndRestart(instances[0]!)],
          ]

  const limitSnapshot: LimitSnapshot = new Map()
  const limitKey = `moderation:user:${fx.limitedUserId}`
  let loadDone = false
  const snapshots = (async () => {
    while (!loadDone) {
      await snapshotLimit(limitKey, limitSnapshot).catch(() => {})
      await sleep(3000)
    }
  })()
  const faultsDone = (async () => {
    for (const [at, name, run] of schedule) {
      await sleep(t0 + at * 1000 - Date.now())
      await fault(name, run)
    }
  })()
  setStep('load', `${seconds} s of load`, t0)
  await load.run()
  console.log(`${topology}: load done, waiting for the fault schedule`)
  await faultsDone
  enter('checking the invariants')
  loadDone = true
  await snapshots
  const loadEnd = Date.now()

  // ------------------------------------------------------------ after the faults
  await Promise.all(instances.map((i) => i.ready()))
  await snapshotLimit(limitKey, limitSnapshot)
  // Every authorization a client still holds must still work: one more rotation each.
  const stillWorking: Invariant = { name: 'after the faults, every authorization a client holds still refreshes', checked: 0, violations: [] }
  await ledger.scope.run('control', async () => {
    for (const chain of ledger.chains.filter((c) => c.state === 'live' && c.refreshToken)) {
      stillWorking.checked++
      try {
        await load.refreshChain(chain)
      } catch (error) {
        stillWorking.violations.push(`${chain.kind} grant ${chain.grantHash.slice(0, 12)}: ${String(error).slice(0, 100)}`)
      }
    }
  })

  const invariants = await checkInvariants(ledger, { limitedUserId: fx.limitedUserId, limitPerMinute: LIMIT_PER_MINUTE, limitSnapshot, outsiderId: fx.outsider.id, instances: instances.length })
  invariants.push(stillWorking)
  invariants.push({ name: `every injected fault's step ended within ${stepBoundMs / 1000} s`, checked: faults.length, violations: overruns })
  const downloads = { name: 'every download a client finished had the sha256 of what was committed', checked: files.downloads.length, violations: files.downloads.filter((d) => !d.ok).map((d) => `${d.path}: ${d.got} instead of ${d.expected}`) }
  invariants.push(downloads, ...(await checkFileInvariants(files, storeDir)))

  // ------------------------------------------------------------ figures
  const margin = 5000
  const windows = faults.map((f) => ({ ...f, until: f.end + margin }))
  // A request belongs to the latest fault whose window (from its start until 5 s after it ended) it overlaps.
  const inFault = (r: RequestRecord) => windows.findLast((w) => r.end >= w.start && r.start <= w.until)
  const steadyFailures = invariantOf('no 5xx or unanswered request outside the fault windows', ledger.requests.filter((r) => !inFault(r) && r.scenario !== 'other'), (r) => `${r.scenario} ${r.path} → ${r.status} at +${((r.start - t0) / 1000).toFixed(1)} s`)
  invariants.push(steadyFailures)

  const phase = (records: RequestRecord[]) => {
    const failed = records.filter((r) => ambiguous(r.status))
    return {
      requests: records.length,
      errors5xxOrUnanswered: failed.length,
      errorRate: records.length ? failed.length / records.length : 0,
      statuses: count(records.map((r) => String(r.status))),
    }
  }
  const result = {
    topology,
    short,
    blobStore: storeMounted ? 'tmpfs (64 MB)' : 'folder (mount refused)',
    instances: instances.map((i) => ({ port: i.port, clockOffsetMs: i.options.clockOffsetMs ?? 0, starts: i.starts })),
    startupSeconds: startup,
    durationSeconds: (loadEnd - t0) / 1000,
    rpsTarget: rps,
    concurrency,
    requests: ledger.requests.length,
    rpsHeld: ledger.requests.filter((r) => r.scenario !== 'other').length / ((loadEnd - t0) / 1000),
    scenarios: summarizeScenarios(ledger),
    steady: phase(ledger.requests.filter((r) => !inFault(r))),
    faults: windows.map((w) => {
      const records = ledger.requests.filter((r) => inFault(r) === w)
      const lastFailure = Math.max(w.start, ...records.filter((r) => ambiguous(r.status)).map((r) => r.end))
      return { name: w.name, at: (w.start - t0) / 1000, ...w.details, recoverySeconds: (lastFailure - w.start) / 1000, ...phase(records) }
    }),
    // Requests per second of the run: answered 2xx-4xx, and 5xx or unanswered.
    timeline: Array.from({ length: Math.ceil((loadEnd - t0) / 1000) }, (_, second) => {
      const records = ledger.requests.filter((r) => Math.floor((r.start - t0) / 1000) === second)
      return { second, answered: records.filter((r) => !ambiguous(r.status)).length, failed: records.filter((r) => ambiguous(r.status)).length }
    }),
    invariants: invariants.map((i) => ({ name: i.name, checked: i.checked, violations: i.violations.length, examples: i.violations.slice(0, 5) })),
  }
  fs.writeFileSync(path.join(soakDir, `result-${topology}.json`), JSON.stringify(result, null, 2))
}

function invariantOf(name: string, records: RequestRecord[], describe: (r: RequestRecord) => string): Invariant {
  return { name, checked: records.length, violations: records.filter((r) => ambiguous(r.status)).map(describe) }
}

function count(values: string[]) {
  const out: Record<string, number> = {}
  for (const v of values) out[v] = (out[v] ?? 0) + 1
  return out
}

function summarizeScenarios(ledger: Ledger) {
  const out: Record<string, { runs: number; ok: number; errors: Record<string, number> }> = {}
  for (const s of ledger.scenarios) {
    const entry = (out[s.scenario] ??= { runs: 0, ok: 0, errors: {} })
    entry.runs++
    if (s.ok) entry.ok++
    else entry.errors[s.error ?? '?'] = (entry.errors[s.error ?? '?'] ?? 0) + 1
  }
  return out
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
