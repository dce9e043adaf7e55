// A grant type of the token endpoint. Each declares the parameters it needs, so the endpoint checks
// them in one place before the grant runs; unknown parameters are ignored.
import type { ClientCredentials } from '@/lib/oauth/clients/authenticate'
import type { Client } from '@/lib/oauth/clients'
import type { Params } from '@/lib/oauth/request'

export type GrantRequest = {
  params: Params
  credentials: ClientCredentials
  /** The client's address, for audit records. */
  ip: string
  /**
   * Authenticates the request's client (as `clientId` when the grant learns it from elsewhere, e.g.
   * the code) and counts the request against that client's budget, or a failure against the address.
   */
  authenticate(clientId?: string | null): Promise<Client>
}

export type Grant = {
  type: string
  required: readonly string[]
  /** The JSON body of a successful answer (a token response). */
  exchange(request: GrantRequest): Promise<Record<string, unknown>>
}
