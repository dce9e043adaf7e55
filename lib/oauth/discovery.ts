// OpenID Provider / RFC 8414 metadata: the single source of the server's endpoints and abilities,
// served at both /.well-known paths.
import { hubUrl } from '@/lib/config'
import { GRANTS } from '@/lib/oauth/grants'
import { SIGNING_ALG } from '@/lib/oauth/keys'
import { SCOPE_NAMES } from '@/lib/oauth/scopes'

export function serverMetadata() {
  const base = hubUrl()
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    userinfo_endpoint: `${base}/oauth/userinfo`,
    device_authorization_endpoint: `${base}/oauth/device`,
    jwks_uri: `${base}/oauth/jwks`,
    scopes_supported: SCOPE_NAMES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    grant_types_supported: [...GRANTS.keys()],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [SIGNING_ALG],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'auth_time', 'name', 'preferred_username', 'picture', 'profile', 'website', 'isPro', 'email', 'email_verified', 'canPay', 'orgs'],
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    client_id_metadata_document_supported: true,
  }
}
