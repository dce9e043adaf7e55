// Serves the built hub, as `next start` does, and tells the app who is on the other end of each
// connection. Next keeps a client's own X-Forwarded-For header and adds the socket address only
// when there is none, and route handlers cannot see the socket (NextRequest.ip is gone since
// Next 15), so without this a client picks the address that per-address rate limits count.
// Here every request's X-Forwarded-For ends with the TCP peer's address, exactly as a reverse proxy
// appends it; lib/ratelimit's clientIp then walks TRUST_PROXY_HOPS entries back from the end.
//
// The hot API routes (token endpoint, whoami-v2, repo info, moderation, file resolve) are answered
// by the fast path of the build ({distDir}/front.mjs, from scripts/front.ts): the same route
// handlers without Next's request pipeline. Everything else goes to Next. FAST_PATH=0 turns it off.
//
//   PORT=3000 node scripts/serve.mjs      (npm start; listens on every interface, as `next start`)
import cluster from 'node:cluster'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import next from 'next'
import nextEnv from '@next/env'

const root = path.resolve(import.meta.dirname, '..')
// Relative paths of the settings (the SQLite file, data/auth-secret, the blob and model folders)
// are the project's, whichever folder the hub was started from (as the operator scripts: scripts/load-env.ts).
process.chdir(root)
const port = Number(process.env.PORT || 3000)
// HUB_WORKERS (lib/config/settings.ts; read here, where the settings module cannot be imported):
// that many processes, each a whole hub, share the port through node:cluster. Everything a request
// changes lives in the database, so they serve as one, as instances behind a load balancer do; a
// second process takes the second core (bench/oauth/RESULTS.md).
const workers = Number(process.env.HUB_WORKERS || 1)
if (!(Number.isInteger(workers) && workers >= 1 && workers <= 64)) {
  console.error(`ModHub cannot start: HUB_WORKERS must be an integer from 1 to 64, got "${process.env.HUB_WORKERS}" (see the configuration table in README.md)`)
  process.exit(1)
}

if (cluster.isPrimary && workers > 1) {
  let stopping = false
  /** The exit code to stop with once every worker is gone: set when a worker could not start. */
  let failed = 0
  const alive = () => Object.values(cluster.workers ?? {}).filter((worker) => worker && !worker.isDead()).length
  const stopAll = () => {
    stopping = true
    if (alive() === 0) process.exit(failed)
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
  }
  // A worker that ends before it ever listened could not start (a setting it refuses, a build that
  // is missing): another would fail the same way, forever, behind a primary that looks alive. So
  // the hub stops, with that worker's exit code, where a supervisor sees it.
  const listened = new Set()
  cluster.on('listening', (worker) => listened.add(worker.id))
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (alive() === 0) process.exit(failed)
      return
    }
    if (!listened.has(worker.id)) {
      console.error(`hub worker ${worker.process.pid} could not start (${signal ?? `exit code ${code}`}); stopping`)
      failed = code || 1
      stopAll()
      return
    }
    console.error(`hub worker ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another`)
    cluster.fork()
  })
  for (let i = 0; i < workers; i++) cluster.fork()
  // Each worker stops as npm start does on SIGTERM (its requests in flight finish, its last-used
  // times are written); a terminal's Ctrl-C reaches the workers too, and SIGTERM after it still lets them finish.
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, stopAll)
} else {
  await serve()
}

async function serve() {
// next.config.ts's distDir rule.
const distDir = path.join(root, process.env.NEXT_DIST_DIR || '.next')

/**
 * The TCP peer, read when the connection is accepted: a socket the client has reset since knows no
 * remote address, and a request pipelined on it must not let the client's own X-Forwarded-For
 * stand last. IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d; the hub sees a.b.c.d.
 */
const PEER = Symbol('peer')
function peerAddress(socket) {
  socket[PEER] ??= (socket.remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '')
  return socket[PEER]
}

// The configuration the build serialized (as Next's own standalone server.js passes it), so that
// starting does not transpile next.config.ts: that loads Next's SWC binary, 23 MB resident for the
// life of the process (bench/files/RESULTS.md: peak RSS). The .env files Next would read on that
// path are read here as before.
const serverFiles = path.join(distDir, 'required-server-files.json')
if (fs.existsSync(serverFiles) && !process.env.__NEXT_PRIVATE_STANDALONE_CONFIG) {
  nextEnv.loadEnvConfig(root, false, { info: () => {}, error: console.error })
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(JSON.parse(fs.readFileSync(serverFiles, 'utf8')).config)
}
const app = next({ dev: false, dir: root, port })
await app.prepare()
const handle = app.getRequestHandler()
// Loaded after prepare(): the route modules it requires need Next's server environment.
const frontFile = path.join(distDir, 'front.mjs')
const front = fs.existsSync(frontFile)
  ? await (await import(pathToFileURL(frontFile).href)).createFront({ distDir, publicDir: path.join(root, 'public'), port, next: handle })
  : null

/**
 * Whether the URL's path has a percent-escape that is not UTF-8 ("/a%ffb", a lone "%c3"). Next
 * answers those with a bare 500 (`next start` too); they are the client's error.
 */
function malformedPath(url = '/') {
  const query = url.indexOf('?')
  const pathname = query === -1 ? url : url.slice(0, query)
  if (!pathname.includes('%')) return false
  try {
    decodeURIComponent(pathname)
    return false
  } catch {
    return true
  }
}

const server = http
  .createServer((req, res) => {
    if (malformedPath(req.url)) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Bad Request: the path is not valid percent-encoded UTF-8\n')
      return
    }
    const peer = peerAddress(req.socket)
    const forwarded = req.headers['x-forwarded-for']
    req.headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${peer}` : peer
    if (front?.handle(req, res)) return
    void handle(req, res)
  })
  .on('connection', peerAddress)
  .listen(port, () => console.log(`ModHub listening on port ${port}${front ? '' : ' (fast path off)'}${cluster.isWorker ? ` (worker ${cluster.worker.id} of ${workers})` : ''}`))

// On SIGTERM/SIGINT: take no new connections, let the requests in flight finish (a download, an
// upload, a model run) for up to DRAIN_MS, then exit 0 (a clean stop, for systemd and Kubernetes).
// lib/auth/tokens writes its pending last-used times when the signal comes; it exits by itself only
// where no other SIGTERM listener is (a script), so the listener here stays registered.
const DRAIN_MS = 10_000
let draining = false
const stop = () => setTimeout(() => process.exit(0), 250) // the last writes a finished request started
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (draining) return
    draining = true
    server.close(stop)
    server.closeIdleConnections()
    setTimeout(() => process.exit(0), DRAIN_MS).unref()
  })
}
}
