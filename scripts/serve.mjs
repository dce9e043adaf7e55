// Serves the built hub, as `next start` does, and tells the app who is on the other end of each
// connection. Next keeps a client's own X-Forwarded-For header and adds the socket address only
// when there is none, and route handlers cannot see the socket (NextRequest.ip is gone since
// Next 15), so without this a client picks the address that per-address rate limits count.
// Here every request's X-Forwarded-For ends with the TCP peer's address, exactly as a reverse proxy
// appends it; lib/ratelimit's clientIp then walks TRUST_PROXY_HOPS entries back from the end.
//
//   PORT=3000 node scripts/serve.mjs      (npm start; listens on every interface, as `next start`)
import http from 'node:http'
import path from 'node:path'
import next from 'next'

const port = Number(process.env.PORT || 3000)

/** IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d; the rest of the hub sees a.b.c.d. */
function peerAddress(socket) {
  const address = socket.remoteAddress ?? ''
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '')
}

const app = next({ dev: false, dir: path.resolve(import.meta.dirname, '..'), port })
await app.prepare()
const handle = app.getRequestHandler()

http
  .createServer((req, res) => {
    const peer = peerAddress(req.socket)
    const forwarded = req.headers['x-forwarded-for']
    req.headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${peer}` : peer
    void handle(req, res)
  })
  .listen(port, () => console.log(`ModHub listening on port ${port}`))
