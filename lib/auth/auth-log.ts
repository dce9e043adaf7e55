// What Auth.js logs. Its default prints every error with its stack and cause; a session cookie that cannot be read
// (tampered, or sealed with a secret since rotated) or a sign-in form without its CSRF token is the client's doing,
// and anyone could fill the log with stacks by sending such requests. Those are one line each; anything else is
// logged whole, as before.
import type { NextAuthConfig } from 'next-auth'

/** Auth.js error types a client causes by what it sends: the request is refused (signed out, 4xx), nothing failed here. */
const CLIENT_ERRORS = new Set(['JWTSessionError', 'MissingCSRF', 'InvalidCallbackUrl', 'UnknownAction'])
/** Refused sign-ins: lib/auth/nextauth logged them already, with the account and address. */
const LOGGED_ALREADY = new Set(['CredentialsSignin'])

export const authLogger: NonNullable<NextAuthConfig['logger']> = {
  error(error: Error) {
    const { type, cause } = error as Error & { type?: string; cause?: { err?: unknown } }
    if (type && LOGGED_ALREADY.has(type)) return
    if (type && CLIENT_ERRORS.has(type)) {
      // Auth.js wraps the reason (jose's "Invalid Compact JWE", say) as cause.err; its own message is a link.
      const reason = (cause?.err instanceof Error ? cause.err.message : error.message).split('\n')[0]!.slice(0, 200)
      // A reason that is only Auth.js's link to its error page says nothing the type does not.
      console.warn(reason.startsWith('Read more at ') ? `[auth] ${type}` : `[auth] ${type}: ${reason}`)
      return
    }
    console.error('[auth]', error)
  },
}
