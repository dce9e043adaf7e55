// Client authentication at the token endpoint (RFC 6749 2.3.1): HTTP Basic, client_secret_post,
// or none for public clients. Secrets are compared by hash in constant time.
import { constantTimeEqual, sha256Hex } from '@/lib/auth/secrets'
import { findClient, type Client } from '@/lib/oauth/clients'
import { invalidClient, invalidRequest } from '@/lib/oauth/errors'
import type { Params } from '@/lib/oauth/request'

export type ClientCredentials = {
  clientId: string | null
  secret: string | null
  method: 'client_secret_basic' | 'client_secret_post' | 'none'
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '))
  } catch {
    throw invalidRequest('Malformed Basic credentials')
  }
}

/** What the request claims about its client; nothing is checked yet. */
export function credentialsFrom(request: Request, params: Params): ClientCredentials {
  const header = request.headers.get('authorization')
  const basic = header ? /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null
  if (header && !basic) throw invalidClient('Unsupported Authorization header', true)
  if (basic) {
    if (params.has('client_secret')) throw invalidRequest('Use one client authentication method')
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) throw invalidClient('Malformed Basic credentials', true)
    const clientId = formDecode(decoded.slice(0, colon))
    const fromBody = params.get('client_id')
    if (fromBody && fromBody !== clientId) throw invalidRequest('client_id does not match the Authorization header')
    return { clientId, secret: formDecode(decoded.slice(colon + 1)), method: 'client_secret_basic' }
  }
  const secret = params.get('client_secret') ?? null
  return { clientId: params.get('client_id') ?? null, secret, method: secret ? 'client_secret_post' : 'none' }
}

// Hashing a dummy secret for unknown clients keeps their answer as slow as a wrong secret's.
const DUMMY_HASH = sha256Hex('no client has this secret')

/** The client the credentials prove, or invalid_client. Public clients authenticate by id alone. */
export async function authenticateClient(credentials: ClientCredentials, clientId = credentials.clientId): Promise<Client> {
  const usedBasic = credentials.method === 'client_secret_basic'
  if (!clientId) throw invalidClient('Client authentication is required', usedBasic)
  const client = await findClient(clientId)
  if (!client) {
    if (credentials.secret) constantTimeEqual(sha256Hex(credentials.secret), DUMMY_HASH)
    throw invalidClient('Unknown client', usedBasic)
  }
  if (client.isPublic) {
    if (credentials.secret) throw invalidClient('This is a public app: it has no client secret', usedBasic)
    return client
  }
  if (!credentials.secret) throw invalidClient('This app must authenticate with its client secret', usedBasic)
  if (!constantTimeEqual(sha256Hex(credentials.secret), client.secretHash!)) throw invalidClient('Wrong client secret', usedBasic)
  return client
}
