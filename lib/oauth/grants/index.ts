// The token endpoint's grants, keyed by grant_type. Device code, token exchange and trusted
// publishers join this table as their own modules.
import { authorizationCodeGrant } from '@/lib/oauth/grants/authorization-code'
import { refreshTokenGrant } from '@/lib/oauth/grants/refresh-token'
import type { Grant } from '@/lib/oauth/grants/types'
import { deviceCodeGrant } from '@/lib/oauth-device'
import { tokenExchangeGrant } from '@/lib/oauth/grants/token-exchange'

export const GRANTS: ReadonlyMap<string, Grant> = new Map([authorizationCodeGrant, refreshTokenGrant, deviceCodeGrant, tokenExchangeGrant].map((g) => [g.type, g]))
