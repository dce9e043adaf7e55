// The soak's load balancer: round robin over the app instances, a few lines of node:http.
// Request bodies stream through (an upload cut off by its client is cut off at the instance too),
// and a copy is kept so that, like haproxy's "retry on connection failure", a request whose upstream
// refuses the connection (so nothing reached it) goes to the next instance; one that fails after it
// was sent is a 502, because the upstream may have acted on it. An upstream that refused is skipped
// for a second. It appends the client address to X-Forwarded-For, as the README's TRUST_PROXY expects.
import http from 'node:http'

export type Balancer = { server: http.Server; close(): Promise<void> }

export function startBalancer(port: number, upstreams: number[]): Promise<Balancer> {
  const downUntil = new Map<number, number>()
  let next = 0
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

  function pick(tried: Set<number>): number | null {
    for (let i = 0; i < upstreams.length; i++) {
      const port = upstreams[(next + i) % upstreams.length]!
      if (tried.has(port) || (downUntil.get(port) ?? 0) > Date.now()) continue
      next = (next + i + 1) % upstreams.length
      return port
    }
    // Every instance is marked down: try one that was not tried yet anyway, rather than fail at once.
    return upstreams.find((p) => !tried.has(p)) ?? null
  }

  const server = http.createServer((req, res) => {
    const seen: Buffer[] = []
    let ended = false
    let out: http.ClientRequest | null = null
    const tried = new Set<number>()
    req.on('data', (chunk: Buffer) => {
      seen.push(chunk)
      out?.write(chunk)
    })
    req.on('end', () => {
      ended = true
      out?.end()
    })
    // The client went away (mid-upload or before the answer): so does the request to the instance.
    res.on('close', () => {
      if (!res.writableFinished) out?.destroy()
    })

    function forward() {
      const upstream = pick(tried)
      if (upstream === null) {
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('no instance available')
        return
      }
      tried.add(upstream)
      const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ')
      const request = http.request(
        { host: '127.0.0.1', port: upstream, method: req.method, path: req.url, agent, headers: { ...req.headers, 'x-forwarded-for': forwarded } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-soak-upstream': String(upstream) })
          answer.pipe(res)
          answer.on('error', () => res.destroy())
        },
      )
      out = request
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (out !== request) return
        // Only a refused connection is certain to have reached nobody.
        if (error.code === 'ECONNREFUSED' && !res.headersSent) {
          downUntil.set(upstream, Date.now() + 1000)
          return forward()
        }
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream ${upstream} failed: ${error.code ?? error.message}`)
        else res.destroy()
      })
      for (const chunk of seen) request.write(chunk)
      if (ended) request.end()
    }
    forward()
  })
  server.keepAliveTimeout = 5000
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        server,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
            agent.destroy()
          }),
      }),
    ),
  )
}
