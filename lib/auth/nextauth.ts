// Hub sign-in: next-auth v5 with username-or-e-mail and password, JWT sessions.
import NextAuth, { CredentialsSignin } from 'next-auth'
import Credentials from 'next-auth/providers/credentials'
import { authSecret } from '@/lib/config'
import { signInWithPassword } from '@/lib/auth/sign-in'
import { clientIp } from '@/lib/ratelimit'
import { authLogger } from '@/lib/auth/auth-log'
import { endSession, sessionEnded, sessionSuperseded } from '@/lib/auth/ended-sessions'
import { randomUUID } from 'node:crypto'

class TooManyAttempts extends CredentialsSignin {
  code = 'rate_limited'
}

class AccountDisabled extends CredentialsSignin {
  code = 'disabled'
}

const REFUSAL_WORDS = { wrong: 'wrong password', rate_limited: 'too many attempts', disabled: 'account disabled' } as const

declare module 'next-auth' {
  interface Session {
    user: { id: string; name?: string | null; email?: string | null; image?: string | null }
    /** When the user signed in with their password (epoch seconds): OIDC's auth_time; none in sessions from before it was kept. */
    authTime?: number
  }
}

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: authSecret(),
  trustHost: true,
  logger: authLogger,
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/login' },
  providers: [
    Credentials({
      credentials: { login: { label: 'Username or e-mail' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, request) {
        const login = typeof credentials?.login === 'string' ? credentials.login.slice(0, 254) : ''
        const password = typeof credentials?.password === 'string' ? credentials.password.slice(0, 200) : ''
        if (!login || !password) return null
        // Per account and per address: slows guessing one password and spraying many accounts.
        const ip = clientIp(request.headers)
        const result = await signInWithPassword(login, password, ip)
        if (result.kind !== 'ok') {
          // For the operator watching for guessing: the account (never what was typed for one that
          // does not exist, which is often a password in the wrong box) and the client's address.
          console.warn(`[auth] sign-in refused (${REFUSAL_WORDS[result.kind]}) for ${result.account ?? 'no such account'} from ${ip}`)
        }
        if (result.kind === 'rate_limited') throw new TooManyAttempts()
        if (result.kind === 'disabled') throw new AccountDisabled()
        if (result.kind === 'wrong') return null
        const { user } = result
        return { id: user.id, name: user.username, email: user.email, image: user.avatarUrl }
      },
    }),
  ],
  events: {
    // Sign-out (signOutAction, or POST /api/auth/signout) ends the session itself, not only this cookie.
    async signOut(message) {
      const token = 'token' in message ? message.token : null
      // Kept for a whole session's life from now: a copy of the cookie used since this one was read had its expiry moved on.
      if (typeof token?.sid === 'string') await endSession(token.sid, new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000))
    },
  },
  callbacks: {
    async jwt({ token, user }) {
      // `user` is there only when the password was just checked: that moment is the sign-in.
      if (user?.id) {
        token.uid = user.id
        const now = Date.now()
        token.authTime = Math.floor(now / 1000)
        // To the millisecond, for sessions ended by a change in the same second (lib/auth/ended-sessions).
        token.signedInAt = now
        token.sid = randomUUID()
        return token
      }
      // A session signed out elsewhere (a copy of its cookie) is no session: null clears the cookie.
      if (typeof token.sid === 'string' && (await sessionEnded(token.sid))) return null
      // So is one signed in before the account's password was changed (in another browser, say).
      const signedInAt = typeof token.signedInAt === 'number' ? token.signedInAt : typeof token.authTime === 'number' ? token.authTime * 1000 : undefined
      if (typeof token.uid === 'string' && (await sessionSuperseded(token.uid, signedInAt))) return null
      return token
    },
    session({ session, token }) {
      if (typeof token.uid === 'string') session.user.id = token.uid
      if (typeof token.authTime === 'number') session.authTime = token.authTime
      return session
    },
  },
})
