// Hub sign-in: next-auth v5 with username-or-e-mail and password, JWT sessions.
import NextAuth, { CredentialsSignin } from 'next-auth'
import Credentials from 'next-auth/providers/credentials'
import { checkCredentials } from '@/lib/hub/users'
import { authSecret } from '@/lib/config'
import { clientIp, hit, resetLimit } from '@/lib/ratelimit'

class TooManyAttempts extends CredentialsSignin {
  code = 'rate_limited'
}

// Per account and per address: slows guessing one password and spraying many accounts.
const ATTEMPTS_PER_ACCOUNT = 10
const ATTEMPTS_PER_IP = 50
const WINDOW_SECONDS = 15 * 60

declare module 'next-auth' {
  interface Session {
    user: { id: string; name?: string | null; email?: string | null; image?: string | null }
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: authSecret(),
  trustHost: true,
  session: { strategy: 'jwt', maxAge: 30 * 24 * 3600 },
  pages: { signIn: '/login' },
  providers: [
    Credentials({
      credentials: { login: { label: 'Username or e-mail' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, request) {
        const login = typeof credentials?.login === 'string' ? credentials.login.slice(0, 254) : ''
        const password = typeof credentials?.password === 'string' ? credentials.password.slice(0, 200) : ''
        if (!login || !password) return null
        const ip = clientIp(request.headers)
        const account = await hit(`login:account:${login.toLowerCase()}`, ATTEMPTS_PER_ACCOUNT, WINDOW_SECONDS)
        const address = await hit(`login:ip:${ip}`, ATTEMPTS_PER_IP, WINDOW_SECONDS)
        if (!account.allowed || !address.allowed) throw new TooManyAttempts()
        const user = await checkCredentials(login, password)
        if (!user) return null
        await resetLimit(`login:account:${login.toLowerCase()}`)
        return { id: user.id, name: user.username, email: user.email, image: user.avatarUrl }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.uid = user.id
      return token
    },
    session({ session, token }) {
      if (typeof token.uid === 'string') session.user.id = token.uid
      return session
    },
  },
})
