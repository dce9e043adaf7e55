// Hub sign-in: next-auth v5 with username-or-e-mail and password, JWT sessions.
import NextAuth, { CredentialsSignin } from 'next-auth'
import Credentials from 'next-auth/providers/credentials'
import { authSecret } from '@/lib/config'
import { signInWithPassword } from '@/lib/auth/sign-in'
import { clientIp } from '@/lib/ratelimit'
import { authLogger } from '@/lib/auth/auth-log'

class TooManyAttempts extends CredentialsSignin {
  code = 'rate_limited'
}

declare module 'next-auth' {
  interface Session {
    user: { id: string; name?: string | null; email?: string | null; image?: string | null }
    /** When the user signed in with their password (epoch seconds): OIDC's auth_time; none in sessions from before it was kept. */
    authTime?: number
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: authSecret(),
  trustHost: true,
  logger: authLogger,
  session: { strategy: 'jwt', maxAge: 30 * 24 * 3600 },
  pages: { signIn: '/login' },
  providers: [
    Credentials({
      credentials: { login: { label: 'Username or e-mail' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, request) {
        const login = typeof credentials?.login === 'string' ? credentials.login.slice(0, 254) : ''
        const password = typeof credentials?.password === 'string' ? credentials.password.slice(0, 200) : ''
        if (!login || !password) return null
        // Per account and per address: slows guessing one password and spraying many accounts.
        const result = await signInWithPassword(login, password, clientIp(request.headers))
        if (result.kind === 'rate_limited') throw new TooManyAttempts()
        if (result.kind === 'wrong') return null
        const { user } = result
        return { id: user.id, name: user.username, email: user.email, image: user.avatarUrl }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      // `user` is there only when the password was just checked: that moment is the sign-in.
      if (user?.id) {
        token.uid = user.id
        token.authTime = Math.floor(Date.now() / 1000)
      }
      return token
    },
    session({ session, token }) {
      if (typeof token.uid === 'string') session.user.id = token.uid
      if (typeof token.authTime === 'number') session.authTime = token.authTime
      return session
    },
  },
})
