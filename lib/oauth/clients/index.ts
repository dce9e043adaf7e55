// The clients the authorization server knows. Today: apps registered on the hub (OAuthApp rows).
// Client ID Metadata Document clients plug in here later: findClient resolves an https client_id
// by fetching its document, and the rest of the server sees the same Client shape.
import { db, readList } from '@/lib/db'

export type Client = {
  clientId: string
  /** The OAuthApp row; tokens and codes point at it. */
  appId: string
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
  }
}

export async function findClient(clientId: string): Promise<Client | null> {
  if (!clientId || clientId.length > 200) return null
  const app = await db.oAuthApp.findUnique({ where: { clientId } })
  return app ? clientFromApp(app) : null
}
