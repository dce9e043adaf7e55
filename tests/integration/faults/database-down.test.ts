// While the database cannot answer, the hub API, the OAuth endpoints and moderation answer 503 with
// Retry-After in their own shapes (the soak saw 500s while PostgreSQL restarted, so clients and the
// load balancer could not tell "try again" from "broken"). Three outages a restart goes through,
// each against the real route handlers in a process of their own: nothing listening (refused), a
// server that drops every connection, and one that is starting up (FATAL 57P03).
import { execFile } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../../..')
const servers: net.Server[] = []

/** A TCP server on a free port that does `onConnection` with every client; returns its port. */
async function fakeServer(onConnection: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer(onConnection)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as net.AddressInfo).port
}

/** A PostgreSQL ErrorResponse message (protocol 3): severity, SQLSTATE, message. */
function pgError(sqlstate: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${sqlstate}\0M${message}\0\0`)
  const header = Buffer.alloc(5)
  header.write('E')
  header.writeInt32BE(fields.length + 4, 1)
  return Buffer.concat([header, fields])
}

let ports: Record<'refused' | 'dropped' | 'startingUp', number>

beforeAll(async () => {
  // A port that was free a moment ago: nothing listens there any more.
  const refused = await fakeServer(() => {})
  await new Promise((resolve) => servers.pop()!.close(resolve))
  ports = {
    refused,
    dropped: await fakeServer((socket) => socket.destroy()),
    startingUp: await fakeServer((socket) => socket.once('data', () => socket.end(pgError('57P03', 'the database system is starting up')))),
  }
})

afterAll(() => {
  for (const server of servers) server.close()
})

type Answer = { name: string; status: number; retryAfter: string | null; body: Record<string, unknown> }

function handlersAgainst(databaseUrl: string): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(import.meta.dirname, 'database-down-child.ts')],
      { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const last = stdout.trim().split('\n').at(-1) ?? ''
        if (error || !last.startsWith('[')) return reject(new Error(`child failed: ${error?.message}\n${stdout}\n${stderr}`))
        resolve(JSON.parse(last) as Answer[])
      },
    )
  })
}

describe('a database that cannot answer', () => {
  it.each(['refused', 'dropped', 'startingUp'] as const)('%s: hub API, token endpoint and moderation answer 503 with Retry-After', async (outage) => {
    const answers = await handlersAgainst(`postgresql://postgres@127.0.0.1:${ports[outage]}/modhub`)
    expect(answers.map((a) => [a.name, a.status, a.retryAfter]), JSON.stringify(answers)).toEqual([
      ['whoami', 503, '5'],
      ['repo', 503, '5'],
      ['token', 503, '5'],
      ['moderation', 503, '5'],
    ])
    expect(answers[0]!.body.error).toMatch(/database is unavailable/)
    // RFC 6749 5.2's JSON, with the code for "try again later".
    expect(answers[2]!.body).toMatchObject({ error: 'temporarily_unavailable' })
  })
})
