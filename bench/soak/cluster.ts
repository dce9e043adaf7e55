// The processes of one soak topology: a throwaway PostgreSQL (Debian's, as scripts/pg-throwaway.sh
// starts it) and `next start` instances from the one production build. Every process is started in
// its own process group and written to a pid file, so the run's exit handlers (and soak.sh's trap,
// should this process itself be killed) can end all of them.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export const root = path.resolve(import.meta.dirname, '../..')
export const soakDir = path.join(root, '.tmp/soak')
export const pidFile = path.join(soakDir, 'pids')
fs.mkdirSync(soakDir, { recursive: true })

const groups = new Set<number>()

function remember(pid: number) {
  groups.add(pid)
  fs.appendFileSync(pidFile, `${pid}\n`)
}

/** Kills every process group this run started (SIGKILL: nothing of theirs needs to survive). */
export function killAll() {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {}
  }
  groups.clear()
}

// ---------------------------------------------------------------- PostgreSQL

const PGBIN = '/usr/lib/postgresql/15/bin'

export class Postgres {
  readonly root: string
  constructor(readonly port: number) {
    this.root = path.join(root, '.pgdata-soak')
  }

  private env() {
    return { ...process.env, PGPORT: String(this.port), PGROOT: this.root }
  }

  /**
   * A fresh cluster (scripts/pg-throwaway.sh), restarted with durable commits; returns its DATABASE_URL.
   * The throwaway cluster runs with synchronous_commit=off, which acknowledges a commit before its
   * WAL is written: the soak's immediate stops would then lose acknowledged writes, and the soak
   * would be measuring that setting. fsync=off stays: a stopped server loses nothing that reached the
   * kernel, and the soak never crashes the kernel.
   */
  start(): string {
    fs.writeFileSync(path.join(soakDir, 'pgroot'), this.root)
    const url = execFileSync('bash', [path.join(root, 'scripts/pg-throwaway.sh'), 'start'], { env: this.env(), encoding: 'utf8' }).trim()
    this.ctl('-m', 'fast', 'stop')
    this.resume()
    return url
  }

  private ctl(...args: string[]) {
    const command = [`${PGBIN}/pg_ctl`, '-D', `${this.root}/data`, ...args]
    const [file, ...rest] = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...command] : command
    execFileSync(file!, rest, { stdio: 'ignore' })
  }

  /** Stops the server the hard way (every backend killed, crash recovery at the next start). */
  crash() {
    this.ctl('-m', 'immediate', 'stop')
  }

  resume() {
    this.ctl('-l', `${this.root}/log`, '-w', '-o', `-p ${this.port} -k ${this.root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=on`, 'start')
  }

  stop() {
    try {
      this.crash()
    } catch {}
  }
}

// ---------------------------------------------------------------- app instances

const NEXT_BIN = path.join(root, 'node_modules/next/dist/bin/next')

export type InstanceOptions = { port: number; env: Record<string, string>; clockOffsetMs?: number }

export class Instance {
  child: ChildProcess | null = null
  starts = 0
  constructor(readonly options: InstanceOptions) {}

  get port() {
    return this.options.port
  }

  start() {
    const { port, env, clockOffsetMs } = this.options
    const log = fs.openSync(path.join(soakDir, `instance-${port}.log`), 'a')
    const preload = clockOffsetMs ? { NODE_OPTIONS: `--require ${path.join(import.meta.dirname, 'skew.cjs')}`, SOAK_CLOCK_OFFSET_MS: String(clockOffsetMs) } : {}
    this.child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: root,
      env: { ...process.env, ...env, ...preload },
      stdio: ['ignore', log, log],
      detached: true,
    })
    fs.closeSync(log)
    remember(this.child.pid!)
    this.starts++
  }

  /** kill -9 of the whole process group: no shutdown handlers, requests in flight are cut. */
  kill9() {
    if (!this.child) return
    try {
      process.kill(-this.child.pid!, 'SIGKILL')
    } catch {}
    this.child = null
  }

  /** Resolves when /api/health answers 200; returns the seconds it took. */
  async ready(timeoutMs = 120_000): Promise<number> {
    const start = Date.now()
    while (Date.now() - start < timeoutMs) {
      if (this.child?.exitCode != null) throw new Error(`instance ${this.port} exited with ${this.child.exitCode} (see .tmp/soak/instance-${this.port}.log)`)
      try {
        const res = await fetch(`http://127.0.0.1:${this.port}/api/health`, { signal: AbortSignal.timeout(2000) })
        if (res.ok) return (Date.now() - start) / 1000
      } catch {}
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`instance ${this.port} did not become healthy`)
  }
}

// ---------------------------------------------------------------- SQLite

/**
 * Another process takes SQLite's write lock and keeps it for `holdMs` (a long writer: a migration, a
 * backup). It must be another process: libSQL waits for a lock synchronously, so a waiter in this
 * process would also stop the timer that releases it.
 */
export async function holdSqliteWriteLock(url: string, holdMs: number): Promise<{ lockTakenAfterSeconds: number | 'never (15 s)' }> {
  // BEGIN IMMEDIATE can fail at once (SQLITE_BUSY without waiting while the WAL index is busy): try
  // again, for at most 15 s; exit code 2 says the lock never came free.
  const script = `
    const { createClient } = require('@libsql/client')
    const client = createClient({ url: process.argv[1], timeout: 1000 })
    const start = Date.now()
    const take = () => client.execute('BEGIN IMMEDIATE').then(
      () => {
        process.stdout.write(String(Date.now() - start))
        setTimeout(() => client.execute('COMMIT').then(() => process.exit(0)), ${holdMs})
      },
      () => (Date.now() - start > 15000 ? process.exit(2) : setTimeout(take, 20)),
    )
    take()`
  const child = spawn(process.execPath, ['-e', script, url], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true })
  remember(child.pid!)
  let waited = ''
  child.stdout!.on('data', (d) => (waited += d))
  const code = await new Promise((resolve) => child.once('exit', resolve))
  return { lockTakenAfterSeconds: code === 0 ? Number(waited) / 1000 : 'never (15 s)' }
}

// ---------------------------------------------------------------- the disk blob store

/**
 * The blob store's folder on a tmpfs of its own (64 MB), so it can be made read-only or full for a
 * few seconds. Needs root and mount(2) (a container may refuse it); returns false then, and the
 * store is a plain folder.
 */
export function mountBlobStore(dir: string): boolean {
  fs.mkdirSync(dir, { recursive: true })
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir], { stdio: 'ignore' })
    fs.appendFileSync(path.join(soakDir, 'mounts'), `${dir}\n`)
    return true
  } catch {
    return false
  }
}

export function unmountBlobStore(dir: string) {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' })
  } catch {}
}

export function remountBlobStore(dir: string, mode: 'ro' | 'rw') {
  execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'ignore' })
}

/** Fills the store's tmpfs to the last byte with one file; returns a function that frees it. */
export function fillBlobStore(dir: string): () => void {
  const filler = path.join(dir, 'soak-filler')
  const { bavail, bsize } = fs.statfsSync(dir)
  execFileSync('fallocate', ['-l', String(bavail * bsize), filler], { stdio: 'ignore' })
  return () => fs.rmSync(filler, { force: true })
}
