// Changing one's password (Settings > Password): it needs the current password, checks the new one
// as sign-up does, changes nothing when refused, and ends every browser session signed in before it;
// wrong current passwords are limited as sign-in attempts are. An operator's reset, on the operator
// page or from a shell, for someone who lost theirs.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { ZodError } from 'zod'
import { db } from '@/lib/db'
import { setting } from '@/lib/config'
import { HubError } from '@/lib/http/errors'
import { changePassword, createUser, resetPasswordAsOperator } from '@/lib/hub/users'
import { signInWithPassword } from '@/lib/auth/sign-in'
import { sessionUser, signIn } from './sessions'

let userId: string

beforeAll(async () => {
  userId = (await createUser({ username: 'rekeyer', email: 'rekeyer@test.dev', password: 'first-password' })).id
})

const passwordHash = async () => (await db.user.findUniqueOrThrow({ where: { id: userId } })).passwordHash
const signsIn = async (password: string) => (await signInWithPassword('rekeyer', password, '203.0.113.9')).kind === 'ok'

/** The field problems of a refused change (components/Field shows each under its field). */
async function refusal(input: Parameters<typeof changePassword>[1]): Promise<Record<string, string>> {
  const error = await changePassword(userId, input).then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(ZodError)
  return Object.fromEntries((error as ZodError).issues.map((issue) => [String(issue.path[0]), issue.message]))
}

describe('changing a password', () => {
  it('is refused, changing nothing, with a wrong current password, a short or unconfirmed new one, or the same one', async () => {
    const before = await passwordHash()
    const session = await signIn('rekeyer', 'first-password')
    expect(await refusal({ currentPassword: 'not-it', newPassword: 'second-password', confirmPassword: 'second-password' })).toEqual({ currentPassword: 'is not your password' })
    expect(await refusal({ currentPassword: 'first-password', newPassword: 'short', confirmPassword: 'short' })).toEqual({ newPassword: 'must be at least 8 characters' })
    expect(await refusal({ currentPassword: 'first-password', newPassword: 'second-password', confirmPassword: 'second-passw0rd' })).toEqual({ confirmPassword: 'does not match the new password' })
    expect(await refusal({ currentPassword: 'first-password', newPassword: 'first-password', confirmPassword: 'first-password' })).toEqual({ newPassword: 'must differ from the current password' })
    expect(await passwordHash()).toBe(before)
    expect(await sessionUser(session)).toBe('rekeyer')
  })

  it('takes the new password, refuses the old one, and ends the sessions signed in before it', async () => {
    const laptop = await signIn('rekeyer', 'first-password')
    const phone = await signIn('rekeyer', 'first-password')
    expect(await sessionUser(phone)).toBe('rekeyer')
    // At once, most likely within the same second as their sign-in: they end all the same.
    await changePassword(userId, { currentPassword: 'first-password', newPassword: 'second-password', confirmPassword: 'second-password' })
    expect(await sessionUser(laptop)).toBeNull()
    expect(await sessionUser(phone)).toBeNull()
    expect(await signsIn('first-password')).toBe(false)
    expect(await signsIn('second-password')).toBe(true)
    const after = await signIn('rekeyer', 'second-password')
    expect(await sessionUser(after)).toBe('rekeyer')
  })

  it('limits wrong current passwords as sign-in attempts are: past the limit even the right one is refused', async () => {
    const wrong = { currentPassword: 'guess', newPassword: 'third-password', confirmPassword: 'third-password' }
    for (let i = 0; i < setting('SIGN_IN_ATTEMPTS_PER_ACCOUNT'); i++) await refusal(wrong)
    const before = await passwordHash()
    const limited = await changePassword(userId, { ...wrong, currentPassword: 'second-password' }).then(() => null, (e: unknown) => e)
    expect(limited).toBeInstanceOf(HubError)
    expect((limited as HubError).status).toBe(429)
    expect(await passwordHash()).toBe(before)
  })
})

describe('an operator resetting a password', () => {
  let lostId: string
  let operatorId: string
  beforeAll(async () => {
    lostId = (await createUser({ username: 'forgetful', email: 'forgetful@test.dev', password: 'lost-password' })).id
    operatorId = (await createUser({ username: 'resetter', email: 'resetter@test.dev', password: 'operator-password' }, { isOperator: true })).id
  })

  it('is for operators only, and names an account that does not exist', async () => {
    const before = (await db.user.findUniqueOrThrow({ where: { id: lostId } })).passwordHash
    await expect(resetPasswordAsOperator({ userId: lostId, principal: null }, 'forgetful', null)).rejects.toMatchObject({ status: 404 })
    await expect(resetPasswordAsOperator(null, 'forgetful', null)).rejects.toMatchObject({ status: 401 })
    await expect(resetPasswordAsOperator({ userId: operatorId, principal: null }, 'nobody-here', null)).rejects.toThrow('No account is named or has the e-mail address "nobody-here"')
    expect((await db.user.findUniqueOrThrow({ where: { id: lostId } })).passwordHash).toBe(before)
  })

  it('gives a random password, found by name or e-mail, that signs in where the old one no longer does, and ends their sessions', async () => {
    const session = await signIn('forgetful', 'lost-password')
    const reset = await resetPasswordAsOperator({ userId: operatorId, principal: null }, ' Forgetful@test.dev ', '203.0.113.4')
    expect(reset.username).toBe('forgetful')
    expect(reset.password).toMatch(/^[A-Za-z0-9_-]{20}$/)
    expect(await sessionUser(session)).toBeNull()
    expect((await signInWithPassword('forgetful', 'lost-password', '203.0.113.5')).kind).toBe('wrong')
    expect((await signInWithPassword('forgetful', reset.password, '203.0.113.5')).kind).toBe('ok')
  })

  it('from a shell: npm run users:reset-password takes HUB_NEW_PASSWORD, refuses a short one, and says when there is no such account', async () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/reset-password.ts', ...args], { env: { ...process.env, ...env } }).then(
        ({ stdout }) => ({ code: 0, out: stdout }),
        (e: { code: number; stderr: string }) => ({ code: e.code, out: e.stderr }),
      )
    expect(await run(['forgetful'], { HUB_NEW_PASSWORD: 'short' })).toEqual({ code: 1, out: expect.stringContaining('not reset: HUB_NEW_PASSWORD must be at least 8 characters') })
    expect(await run(['no-such-account'])).toEqual({ code: 1, out: expect.stringContaining('not reset: No account is named') })
    expect(await run(['forgetful'], { HUB_NEW_PASSWORD: 'chosen-by-operator' })).toEqual({ code: 0, out: 'password of forgetful reset to HUB_NEW_PASSWORD; their sessions are ended\n' })
    expect((await signInWithPassword('forgetful', 'chosen-by-operator', '203.0.113.6')).kind).toBe('ok')
  })
})
