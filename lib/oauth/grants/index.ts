// The token endpoint's grants, keyed by grant_type: a new grant type is one module in this folder
// (declaring its grant_type and required parameters) plus one entry here.
import { authorizationCodeGrant } from '@/lib/oauth/grants/authorization-code'
import { refreshTokenGrant } from '@/lib/oauth/grants/refresh-token'
import type { Grant } from '@/lib/oauth/grants/types'
import { deviceCodeGrant } from '@/lib/oauth/grants/device-code'
import { tokenExchangeGrant } from '@/lib/oauth/grants/token-exchange'

export const GRANTS: ReadonlyMap<string, Grant> = new Map([authorizationCodeGrant, refreshTokenGrant, deviceCodeGrant, tokenExchangeGrant].map((g) => [g.type, g]))
