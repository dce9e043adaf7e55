// The clients the authorization server knows: apps registered on the hub (OAuthApp rows), and
// Client ID Metadata Document clients, whose https client_id names a document the app serves
// (lib/oauth-cimd). The rest of the server sees one Client shape.
import { processState } from '@/lib/config/process-state'
import { db, readList } from '@/lib/db'
import { ClientMetadataError, isMetadataDocumentClientId, resolveMetadataDocumentClient } from '@/lib/oauth/clients/metadata-document'
import { OAuthError } from '@/lib/oauth/errors'
import { SCOPE_NAMES } from '@/lib/oauth/scopes'

export type Client = {
  clientId: string
  /** The OAuthApp row that tokens and codes point at; null for metadata-document clients, which have none. */
  appId: string | null
  /** Registered automatically from a metadata document: consent marks it unverified and shows its host. */
  viaMetadataDocument: boolean
  name: string
  logoUrl: string | null
  homepage: string | null
  redirectUris: string[]
  /** Scopes the app registered; what it may ask for beyond openid and profile. */
  scopes: string[]
  /** Public clients have no secret and must use PKCE. */
  isPublic: boolean
  secretHash: string | null
  ownerUserId: string | null
  ownerOrgId: string | null
}

type AppRow = NonNullable<Awaited<ReturnType<typeof db.oAuthApp.findUnique>>>

export function clientFromApp(app: AppRow): Client {
  return {
    clientId: app.clientId,
    appId: app.id,
    name: app.name,
    logoUrl: app.logoUrl,
    homepage: app.homepage,
    redirectUris: readList(app.redirectUris),
    scopes: readList(app.scopes),
    isPublic: app.secretHash === null,
    secretHash: app.secretHash,
    ownerUserId: app.ownerUserId,
    ownerOrgId: app.ownerOrgId,
    viaMetadataDocument: false,
  }
}

/**
 * A registered app is read once per CLIENT_CACHE_MS per process: every token request needs it.
 * This process's own changes (lib/oauth/clients/apps) drop the cache at once; another instance
 * sees a changed, rotated or deleted registration within CLIENT_CACHE_MS (README "Several instances").
 */
export const CLIENT_CACHE_MS = 5000
const CLIENT_CACHE_MAX = 1000
// One cache per process, not per module copy (lib/config/process-state): a server action (which
// rotates a secret) and the token route are different copies of this module, and the action's
// invalidation must reach the route's cache.
const cachedClients = processState('oauthClientCache', () => new Map<string, { client: Client; until: number }>())

/** After any change to a registration. */
export function forgetCachedClients(): void {
  cachedClients.clear()
}

export async function findClient(clientId: string): Promise<Client | null> {
  if (isMetadataDocumentClientId(clientId)) return metadataDocumentClient(clientId)
  if (!clientId || clientId.length > 200) return null
  const cached = cachedClients.get(clientId)
  if (cached && cached.until > Date.now()) return cached.client
  const app = await db.oAuthApp.findUnique({ where: { clientId } })
  if (!app) return null // unknown ids are not kept: anyone can make up more of them
  if (cachedClients.size >= CLIENT_CACHE_MAX) cachedClients.clear()
  const client = clientFromApp(app)
  cachedClients.set(clientId, { client, until: Date.now() + CLIENT_CACHE_MS })
  return client
}

/**
 * A metadata-document client: public (PKCE, no secret) and with no registered scope list, so it
 * may ask for any scope and the user decides on the consent page. A document that cannot be
 * fetched or breaks a rule is invalid_client with the reason.
 */
async function metadataDocumentClient(clientId: string): Promise<Client> {
  try {
    const doc = await resolveMetadataDocumentClient(clientId)
    return {
      clientId: doc.clientId,
      appId: null,
      viaMetadataDocument: true,
      name: doc.name,
      logoUrl: doc.logoUri,
      homepage: doc.clientUri,
      redirectUris: doc.redirectUris,
      scopes: [...SCOPE_NAMES],
      isPublic: true,
      secretHash: null,
      ownerUserId: null,
      ownerOrgId: null,
    }
  } catch (error) {
    if (error instanceof ClientMetadataError) throw new OAuthError('invalid_client', error.message.slice(0, 300), 401)
    throw error
  }
}
