// Reads `Authorization: Bearer <token>` and resolves it to a principal.
import { principalFromToken } from '@/lib/auth/tokens'
import type { Principal } from '@/lib/policy/principal'

/** The raw token of an Authorization header, or null when there is none or it is not a Bearer credential. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)
  return match ? match[1]! : null
}

/** null: no header, a malformed one, or an unknown / expired / revoked token. */
export async function principalFromAuthorization(header: string | null): Promise<Principal | null> {
  const token = bearerToken(header)
  return token ? principalFromToken(token) : null
}
