// The signing key is stored encrypted under AUTH_SECRET (lib/oauth/keys). A process with another
// secret (an instance configured differently, `npm run keys:rotate` run from a shell without the
// servers' secret) cannot read it: it says so, and a rotation from such a process is refused, since
// it would leave the servers a key they cannot use (every token request then answered 500).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { checkSigningKeyReadable, rotateSigningKey, signingKey, SigningKeyUnreadable } from '@/lib/oauth/keys'

const run = promisify(execFile)

afterEach(async () => {
  vi.unstubAllEnvs()
  // The test files share one database: leave a signing key the next ones (their AUTH_SECRET) can read.
  await rotateSigningKey({ force: true })
})

describe('a signing key stored under another AUTH_SECRET', () => {
  it('is named as unreadable, and rotation from that process is refused unless forced', async () => {
    vi.stubEnv('AUTH_SECRET', 'the-servers-secret')
    const kid = await rotateSigningKey({ force: true })
    await expect(checkSigningKeyReadable()).resolves.toBeUndefined()

    vi.stubEnv('AUTH_SECRET', 'another-secret')
    await expect(checkSigningKeyReadable()).rejects.toBeInstanceOf(SigningKeyUnreadable)
    await expect(checkSigningKeyReadable()).rejects.toThrow(`signing key ${kid} cannot be decrypted with this process's AUTH_SECRET`)
    await expect(rotateSigningKey()).rejects.toBeInstanceOf(SigningKeyUnreadable)
    expect(await db.signingKey.findFirst({ where: { retiredAt: null }, orderBy: { createdAt: 'desc' } })).toMatchObject({ kid })

    // The secret changed on purpose: a forced rotation gives a key the new secret reads.
    const fresh = await rotateSigningKey({ force: true })
    expect((await signingKey()).kid).toBe(fresh)
    await expect(checkSigningKeyReadable()).resolves.toBeUndefined()
  })

  it('npm run keys:rotate with another secret than the key was stored with exits 1 and rotates nothing', async () => {
    vi.stubEnv('AUTH_SECRET', 'the-servers-secret')
    const kid = await rotateSigningKey({ force: true })
    const env = { ...process.env, AUTH_SECRET: 'a-shell-without-the-secret' }
    const refused = await run(process.execPath, ['--import', 'tsx', 'scripts/rotate-signing-key.ts'], { env }).catch((error: { code: number; stderr: string }) => error)
    expect(refused).toMatchObject({ code: 1 })
    expect((refused as { stderr: string }).stderr).toContain(`not rotated: The OpenID Connect signing key ${kid} cannot be decrypted`)
    expect(await db.signingKey.findFirst({ where: { retiredAt: null }, orderBy: { createdAt: 'desc' } })).toMatchObject({ kid })

    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/rotate-signing-key.ts'], { env: { ...env, AUTH_SECRET: 'the-servers-secret' } })
    expect(stdout).toMatch(/^new signing key \S+; earlier keys stay published/)
  }, 60_000)
})
