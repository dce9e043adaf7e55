// Fetching documents that a third party names (client metadata documents, CI issuers' discovery
// and JWKS) without letting that third party aim the hub at its own network (SSRF):
//   - https only; plain http only to loopback, and only when OAUTH_ALLOW_LOOPBACK_FETCH=1
//     (development and tests, where the "third party" runs on this machine);
//   - the host is resolved first and every address it resolves to must be public;
//   - the connection goes to the address that was checked (a custom lookup), so a second DNS
//     answer cannot swap in an internal address (DNS rebinding);
//   - redirects are never followed, only 200 counts, the whole exchange has a deadline and the
//     body a size cap enforced while streaming.
import http from 'node:http'
import https from 'node:https'
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'
import { classifyAddress, type AddressClass } from '@/lib/net/addresses'
import { setting } from '@/lib/config'

export type OutboundFailure = 'bad-url' | 'blocked-address' | 'dns' | 'redirect' | 'status' | 'too-large' | 'timeout' | 'network'

export class OutboundFetchError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message)
  }
}

export type OutboundResponse = {
  url: string
  body: Buffer
  contentType: string | null
  /** Cache-Control and Expires as the server sent them, for lib/net/cache's freshness. */
  cacheControl: string | null
  expires: string | null
}

export type OutboundOptions = {
  maxBytes: number
  timeoutMs?: number
  accept?: string
}

/** Loopback targets (and plain http to them) are for development and tests only. */
export function loopbackFetchAllowed(): boolean {
  return setting('OAUTH_ALLOW_LOOPBACK_FETCH')
}

function defaultTimeoutMs(): number {
  return setting('OUTBOUND_FETCH_TIMEOUT_MS')
}

type Target = { url: URL; address: string; family: 4 | 6 }

/** Parses and vets the URL, resolves its host and checks every address it resolves to. */
export async function resolveTarget(raw: string): Promise<Target> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OutboundFetchError('bad-url', 'Not a URL')
  }
  const loopbackOk = loopbackFetchAllowed()
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackOk)) throw new OutboundFetchError('bad-url', 'Only https URLs may be fetched')
  if (url.username || url.password) throw new OutboundFetchError('bad-url', 'URLs with credentials are not fetched')
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  let addresses: { address: string; family: number }[]
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }]
  } else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true })
    } catch {
      throw new OutboundFetchError('dns', unreachable(host))
    }
    if (addresses.length === 0) throw new OutboundFetchError('dns', unreachable(host))
  }
  const classes = addresses.map((a) => classifyAddress(a.address))
  const refused = classes.find((c): c is Exclude<AddressClass, 'public'> => c !== 'public' && !(c === 'loopback' && loopbackOk))
  if (refused) throw new OutboundFetchError('blocked-address', unreachable(host))
  // Plain http is allowed only to loopback, never to the public internet.
  if (url.protocol === 'http:' && classes.some((c) => c !== 'loopback')) throw new OutboundFetchError('bad-url', 'Only https URLs may be fetched')
  const chosen = addresses[0]!
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 }
}

/**
 * One message for a name that does not resolve and one that resolves to a private, loopback or
 * other refused address: these messages reach whoever named the URL (an authorization error page, a
 * token endpoint's answer), and two would tell them which internal names exist and where they point.
 */
function unreachable(host: string): string {
  return `${host} is not a public address the hub can fetch from`
}

/** GET a URL under the rules above; resolves with the body of a 200, rejects with OutboundFetchError otherwise. */
export async function fetchOutbound(raw: string, options: OutboundOptions): Promise<OutboundResponse> {
  const { url, address, family } = await resolveTarget(raw)
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs()
  // Every connection of this request goes to the checked address, whatever DNS says by now.
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false
    const fail = (error: OutboundFetchError) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      request.destroy()
      reject(error)
    }
    const request = client.request(
      url,
      {
        method: 'GET',
        lookup: pinnedLookup,
        agent: false,
        headers: { accept: options.accept ?? 'application/json', 'user-agent': 'ModHub (+outbound fetch)' },
      },
      (response) => {
        const status = response.statusCode ?? 0
        if (status >= 300 && status < 400) return fail(new OutboundFetchError('redirect', `Redirects are not followed (HTTP ${status})`))
        if (status !== 200) return fail(new OutboundFetchError('status', `HTTP ${status} (only 200 is accepted)`))
        const declared = Number(response.headers['content-length'] ?? NaN)
        if (declared > options.maxBytes) return fail(new OutboundFetchError('too-large', `Response is larger than ${options.maxBytes} bytes`))
        const chunks: Buffer[] = []
        let received = 0
        response.on('data', (chunk: Buffer) => {
          received += chunk.length
          if (received > options.maxBytes) return fail(new OutboundFetchError('too-large', `Response is larger than ${options.maxBytes} bytes`))
          chunks.push(chunk)
        })
        response.on('end', () => {
          if (settled) return
          settled = true
          clearTimeout(deadline)
          resolve({
            url: url.href,
            body: Buffer.concat(chunks),
            contentType: response.headers['content-type'] ?? null,
            cacheControl: response.headers['cache-control'] ?? null,
            expires: response.headers.expires ?? null,
          })
        })
        response.on('error', () => fail(new OutboundFetchError('network', 'The connection failed while reading the response')))
      },
    )
    const deadline = setTimeout(() => fail(new OutboundFetchError('timeout', `No complete answer within ${timeoutMs} ms`)), timeoutMs)
    request.on('error', (e) => fail(new OutboundFetchError('network', `Fetch failed: ${e.message}`)))
    request.end()
  })
}
