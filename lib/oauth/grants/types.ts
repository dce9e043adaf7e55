// A grant type of the token endpoint. Each declares the parameters it needs, so the endpoint checks
// them in one place before the grant runs; unknown parameters are ignored.
import type { ClientCredentials } from '@/lib/oauth/clients/authenticate'
import type { Params } from '@/lib/oauth/request'

/** ip: the client's address, for audit records. */
export type GrantRequest = { params: Params; credentials: ClientCredentials; ip: string }

export type Grant = {
  type: string
  required: readonly string[]
  /** The JSON body of a successful answer (a token response). */
  exchange(request: GrantRequest): Promise<Record<string, unknown>>
}
