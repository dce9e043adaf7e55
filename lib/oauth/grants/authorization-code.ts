// grant_type=authorization_code (RFC 6749 4.1.3 with PKCE). A public client may leave out
// client_id: the code names its client (@huggingface/hub's oauthHandleRedirect sends none).
import { db, readList } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { invalidGrant, invalidRequest } from '@/lib/oauth/errors'
import { verifierMatches } from '@/lib/oauth/pkce'
import { issueTokens, revokeFamily } from '@/lib/oauth/tokens'
import type { Grant } from '@/lib/oauth/grants/types'

export const authorizationCodeGrant: Grant = {
  type: 'authorization_code',
  required: ['code', 'redirect_uri'],
  async exchange({ params, credentials, authenticate }) {
    const code = await db.authorizationCode.findUnique({ where: { codeHash: sha256Hex(params.get('code')!) } })
    // Without a client_id the code says which client it is for; only a public client may rely on that.
    const client = await authenticate(credentials.clientId ?? code?.clientId ?? null)
    if (!code || code.clientId !== client.clientId) throw invalidGrant('Unknown authorization code')
    if (code.usedAt) {
      // RFC 6749 4.1.2: a code used twice was probably stolen; end what the first use issued.
      await revokeFamily(code.id)
      throw invalidGrant('Authorization code already used')
    }
    if (code.expiresAt <= new Date()) throw invalidGrant('Authorization code expired')
    if (params.get('redirect_uri') !== code.redirectUri) throw invalidGrant('redirect_uri does not match the authorization request')
    const verifier = params.get('code_verifier')
    if (code.codeChallenge) {
      if (!verifier) throw invalidRequest('Missing parameter: code_verifier')
      if (!verifierMatches(verifier, code.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge')
    } else if (verifier) {
      throw invalidGrant('No code_challenge was sent with the authorization request')
    }
    // Spent in the transaction that stores the tokens: a code that raced another use issues nothing.
    const issued = await issueTokens(
      { client, userId: code.userId, scopes: readList(code.scopes), orgIds: readList(code.orgIds), familyId: code.id },
      {
        nonce: code.nonce,
        refresh: true,
        consume: async (tx) => (await tx.authorizationCode.updateMany({ where: { id: code.id, usedAt: null }, data: { usedAt: new Date() } })).count === 1,
      },
    )
    if (!issued) {
      await revokeFamily(code.id)
      throw invalidGrant('Authorization code already used')
    }
    return issued
  },
}
