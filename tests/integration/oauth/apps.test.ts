// OAuth app management: validation, secrets shown once and stored hashed, rotation, becoming
// public, and who may manage an app.
import { beforeAll, describe, expect, it } from 'vitest'
import { ZodError } from 'zod'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { createApp, deleteSecret, manageableApp, rotateSecret, updateApp } from '@/lib/oauth/clients/apps'
import { authenticateClient } from '@/lib/oauth/clients/authenticate'
import { OAuthError } from '@/lib/oauth/errors'
import { HubError } from '@/lib/http/errors'

let owner: { id: string }
let admin: { id: string }
let writer: { id: string }
let orgId: string

beforeAll(async () => {
  owner = await createUser({ username: 'appowner', email: 'appowner@test.dev', password: 'password-owner' })
  admin = await createUser({ username: 'appadmin', email: 'appadmin@test.dev', password: 'password-admin' })
  writer = await createUser({ username: 'appwriter', email: 'appwriter@test.dev', password: 'password-writer' })
  orgId = (await createOrg(admin.id, { name: 'apporg' })).id
  await addMember(orgId, 'appwriter', 'write')
})

const valid = { name: 'My app', redirectUris: ['https://my.example/cb'], scopes: ['openid', 'read-repos'] }
const post = (clientId: string, secret: string | null) => ({ clientId, secret, method: secret ? ('client_secret_post' as const) : ('none' as const) })

describe('creating apps', () => {
  it('refuses bad redirect URIs, names and scopes', async () => {
    const bad = [
      { ...valid, redirectUris: [] },
      { ...valid, redirectUris: ['http://my.example/cb'] },
      { ...valid, redirectUris: ['https://my.example/cb#x'] },
      { ...valid, redirectUris: ['javascript:alert(1)'] },
      { ...valid, redirectUris: ['/relative'] },
      { ...valid, name: '' },
      // A name that reads differently on the consent page from the one it has.
      { ...valid, name: 'Evil\u202eppA lanoitcA' },
      { ...valid, name: 'Bank\u0000' },
      { ...valid, scopes: ['admin'] },
      { ...valid, homepage: 'ftp://x' },
      // A query that already holds a response parameter would reach the app twice (RFC 6749 3.1.2, RFC 9207).
      ...['code', 'state', 'iss', 'error', 'error_description', 'error_uri'].map((name) => ({ ...valid, redirectUris: [`https://my.example/cb?mode=a&${name}=x`] })),
      { ...valid, redirectUris: ['https://my.example/cb?co%64e=1'] },
      { ...valid, redirectUris: ['com.example.app:/cb?state'] },
    ]
    for (const input of bad) await expect(createApp({ kind: 'user', userId: owner.id }, input, true), JSON.stringify(input)).rejects.toBeInstanceOf(ZodError)
  })

  it('shows a confidential app its secret once and keeps only the hash', async () => {
    const { app, secret } = await createApp({ kind: 'user', userId: owner.id }, valid, true)
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/)
    expect(JSON.stringify(await db.oAuthApp.findUnique({ where: { id: app.id } }))).not.toContain(secret!)
    expect((await authenticateClient(post(app.clientId, secret))).appId).toBe(app.id)
    await expect(authenticateClient(post(app.clientId, null))).rejects.toBeInstanceOf(OAuthError)
  })

  it('rotates the secret (the old one stops working) and deletes it (the app becomes public)', async () => {
    const { app, secret } = await createApp({ kind: 'user', userId: owner.id }, valid, true)
    const rotated = await rotateSecret(app.id)
    await expect(authenticateClient(post(app.clientId, secret))).rejects.toMatchObject({ code: 'invalid_client' })
    expect((await authenticateClient(post(app.clientId, rotated))).isPublic).toBe(false)
    await deleteSecret(app.id)
    const client = await authenticateClient(post(app.clientId, null))
    expect(client.isPublic).toBe(true)
    await expect(authenticateClient(post(app.clientId, rotated))).rejects.toMatchObject({ code: 'invalid_client' })
  })

  it('creates public apps without a secret, and edits apps', async () => {
    const { app, secret } = await createApp({ kind: 'user', userId: owner.id }, valid, false)
    expect(secret).toBeNull()
    const edited = await updateApp(app.id, { ...valid, name: 'Renamed', redirectUris: ['https://my.example/cb', 'http://127.0.0.1/cb'] })
    expect(edited.name).toBe('Renamed')
  })
})

describe('who may manage an app', () => {
  it('its owner, or an admin of its organization; others get 404', async () => {
    const mine = (await createApp({ kind: 'user', userId: owner.id }, valid, true)).app
    const orgApp = (await createApp({ kind: 'org', orgId }, valid, true)).app
    const session = (u: { id: string }) => ({ userId: u.id, principal: null })
    expect((await manageableApp(session(owner), mine.id)).id).toBe(mine.id)
    await expect(manageableApp(session(admin), mine.id)).rejects.toMatchObject({ status: 404 })
    expect((await manageableApp(session(admin), orgApp.id)).id).toBe(orgApp.id)
    await expect(manageableApp(session(writer), orgApp.id)).rejects.toMatchObject({ status: 404 })
    await expect(manageableApp(null, orgApp.id)).rejects.toBeInstanceOf(HubError)
  })
})
