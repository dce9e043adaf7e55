// Signing out ends the session itself: a copy of its cookie taken before (a shared computer, a
// stolen cookie) no longer signs anyone in, (next-auth's session endpoint reads it as pages and the API do, through lib/auth/nextauth's jwt callback). An attack
// run found the cookie still valid for its 30 days after sign-out.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createUser } from '@/lib/hub/users'
import { db } from '@/lib/db'
import { endEverySession } from '@/lib/auth/ended-sessions'
import { sessionUser, signIn, signOut } from './sessions'

beforeAll(async () => {
  await createUser({ username: 'leaver', email: 'leaver@test.dev', password: 'leaver-password' })
})

describe('signing out', () => {
  it('ends the session: a copy of the cookie taken before signs nobody in afterwards', async () => {
    const copy = await signIn('leaver', 'leaver-password')
    expect(await sessionUser(copy)).toBe('leaver')
    await signOut(copy)
    expect(await sessionUser(copy)).toBeNull()
  })

  it('ends only that session: the same user signed in elsewhere stays signed in', async () => {
    const laptop = await signIn('leaver', 'leaver-password')
    const phone = await signIn('leaver', 'leaver-password')
    await signOut(laptop)
    expect(await sessionUser(laptop)).toBeNull()
    expect(await sessionUser(phone)).toBe('leaver')
  })
})

describe('a refused sign-in', () => {
  it('is logged once, with the account and the client address, never with what was typed for no account', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      await expect(signIn('leaver', 'not-the-password')).rejects.toThrow()
      await expect(signIn('my-secret-password-typed-here', 'x')).rejects.toThrow()
      const lines = warn.mock.calls.map((call) => call.join(' ')).filter((line) => line.startsWith('[auth]'))
      expect(lines).toEqual([
        '[auth] sign-in refused (wrong password) for leaver from 198.51.100.77',
        '[auth] sign-in refused (wrong password) for no such account from 198.51.100.77',
      ])
    } finally {
      warn.mockRestore()
    }
  })
})

describe('signing out everywhere (Settings > Password)', () => {
  it('ends every session of the account signed in before it, and none of another account', async () => {
    const laptop = await signIn('leaver', 'leaver-password')
    const phone = await signIn('leaver', 'leaver-password')
    await createUser({ username: 'bystander', email: 'bystander@test.dev', password: 'bystander-password' })
    const someoneElse = await signIn('bystander', 'bystander-password')
    await endEverySession((await db.user.findUniqueOrThrow({ where: { username: 'leaver' } })).id)
    expect(await sessionUser(laptop)).toBeNull()
    expect(await sessionUser(phone)).toBeNull()
    expect(await sessionUser(someoneElse)).toBe('bystander')
    expect(await sessionUser(await signIn('leaver', 'leaver-password'))).toBe('leaver')
  })
})
