// The hub's resource API against a real database, through the route handlers themselves.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { GET as whoamiGET } from '@/app/api/whoami-v2/route'
import { POST as createPOST } from '@/app/api/repos/create/route'
import { DELETE as deleteDELETE } from '@/app/api/repos/delete/route'
import { GET as repoGET } from '@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route'
import { GET as listGET } from '@/app/api/[repoType]/route'
import { GET as avatarGET } from '@/app/avatars/[file]/route'
import { GET as auditExportGET } from '@/app/organizations/[name]/audit/export/route'
import { sha256Hex } from '@/lib/auth/secrets'
import { flushTokenUses } from '@/lib/auth/tokens'

const BASE = 'http://hub.test'
let ownerWrite: string
let ownerRead: string
let outsiderWrite: string
let memberRead: string

function req(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers)
  if (init.token) headers.set('authorization', `Bearer ${init.token}`)
  return new Request(BASE + path, { ...init, headers })
}

async function repoInfo(type: string, ns: string, name: string, token?: string) {
  return repoGET(req(`/api/${type}/${ns}/${name}`, { token }), { params: Promise.resolve({ repoType: type, namespace: ns, name }) })
}

beforeAll(async () => {
  const owner = await createUser({ username: 'itowner', email: 'itowner@test.dev', password: 'password-owner' })
  const outsider = await createUser({ username: 'itoutsider', email: 'itoutsider@test.dev', password: 'password-outsider' })
  const member = await createUser({ username: 'itmember', email: 'itmember@test.dev', password: 'password-member' })
  const org = await createOrg(owner.id, { name: 'itorg' })
  await addMember(org.id, 'itmember', 'read')
  ownerWrite = (await createPersonalToken(owner.id, { name: 'w', role: 'write' })).token
  ownerRead = (await createPersonalToken(owner.id, { name: 'r', role: 'read' })).token
  outsiderWrite = (await createPersonalToken(outsider.id, { name: 'w', role: 'write' })).token
  memberRead = (await createPersonalToken(member.id, { name: 'r', role: 'read' })).token
})

describe('personal access tokens', () => {
  it('are stored only as a hash and start with hf_', async () => {
    expect(ownerWrite).toMatch(/^hf_[A-Za-z0-9]{34}$/)
    const row = await db.accessToken.findUnique({ where: { tokenHash: sha256Hex(ownerWrite) } })
    expect(row).not.toBeNull()
    const all = JSON.stringify(await db.accessToken.findMany())
    expect(all).not.toContain(ownerWrite)
  })
})

describe('GET /api/whoami-v2', () => {
  it('answers the Hub shape with auth always an object', async () => {
    const res = await whoamiGET(req('/api/whoami-v2', { token: ownerWrite }))
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ type: 'user', name: 'itowner', email: 'itowner@test.dev', isPro: false })
    expect(body.orgs).toEqual([expect.objectContaining({ type: 'org', name: 'itorg', roleInOrg: 'admin' })])
    expect(body.auth).toMatchObject({ type: 'access_token', accessToken: { displayName: 'w', role: 'write' } })
    expect(Date.parse(body.auth.accessToken.createdAt)).not.toBeNaN()
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })
  it('records when a token was last used', async () => {
    await flushTokenUses() // last-used times are written behind the requests (lib/auth/tokens)
    const row = await db.accessToken.findUnique({ where: { tokenHash: sha256Hex(ownerWrite) } })
    expect(row?.lastUsedAt).toBeInstanceOf(Date)
  })
  it('answers 401 without a token, with a bad one, and with a revoked one', async () => {
    const none = await whoamiGET(req('/api/whoami-v2'))
    expect(none.status).toBe(401)
    // RFC 6750 3 and 3.1: the bearer challenge, with invalid_token only when a token was sent.
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="hub"')
    const bad = await whoamiGET(req('/api/whoami-v2', { token: 'hf_nope' }))
    expect(bad.status).toBe(401)
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="hub", error="invalid_token"')
    expect(await bad.json()).toEqual({ error: 'Invalid credentials in Authorization header' })
    expect((await whoamiGET(req('/api/whoami-v2', { headers: { authorization: 'Basic abc' } }))).status).toBe(401)
    const user = await db.user.findUniqueOrThrow({ where: { username: 'itoutsider' } })
    const { token, id } = await createPersonalToken(user.id, { name: 'temp', role: 'read' })
    expect((await whoamiGET(req('/api/whoami-v2', { token }))).status).toBe(200)
    await db.accessToken.update({ where: { id }, data: { revokedAt: new Date() } })
    const res = await whoamiGET(req('/api/whoami-v2', { token }))
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: expect.any(String) })
  })
})

describe('repositories', () => {
  const create = (body: unknown, token?: string) =>
    createPOST(req('/api/repos/create', { method: 'POST', token, body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }))

  it('creates public, private and org repos with a write token', async () => {
    expect((await create({ name: 'pub-model', type: 'model' }, ownerWrite)).status).toBe(200)
    const res = await create({ name: 'secret-data', type: 'dataset', visibility: 'private' }, ownerWrite)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ url: expect.stringContaining('/datasets/itowner/secret-data'), name: 'itowner/secret-data' })
    expect((await create({ name: 'org-model', organization: 'itorg', private: true }, ownerWrite)).status).toBe(200)
  })

  it('refuses a read token (403), no token (401), a duplicate (409), bad names and bad JSON (400)', async () => {
    expect((await create({ name: 'nope' }, ownerRead)).status).toBe(403)
    expect((await create({ name: 'nope' })).status).toBe(401)
    expect((await create({ name: 'pub-model' }, ownerWrite)).status).toBe(409)
    for (const body of [{ name: 'bad name' }, { name: '-x' }, { name: 'a'.repeat(97) }, { name: 'x.git' }, { name: 12 }, { name: 'ok', type: 'bucket' }, '{not json', '[]']) {
      const res = await create(body, ownerWrite)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect((await res.json()).error).toEqual(expect.any(String))
    }
    expect((await create({ name: 'intruder', organization: 'itorg' }, outsiderWrite)).status).toBe(403)
    expect(await db.repo.count({ where: { name: { in: ['nope', 'intruder', 'ok'] } } })).toBe(0)
  })

  it('shows private repos only to those allowed, and 404 to everyone else', async () => {
    expect((await repoInfo('datasets', 'itowner', 'secret-data', ownerRead)).status).toBe(200)
    expect((await repoInfo('datasets', 'itowner', 'secret-data', outsiderWrite)).status).toBe(404)
    expect((await repoInfo('datasets', 'itowner', 'secret-data')).status).toBe(404)
    expect((await repoInfo('models', 'itorg', 'org-model', memberRead)).status).toBe(200)
    expect((await repoInfo('models', 'itorg', 'org-model', outsiderWrite)).status).toBe(404)
    const res = await repoInfo('models', 'itowner', 'pub-model')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: 'itowner/pub-model', private: false, gated: false, _id: expect.any(String), lastModified: expect.any(String) })
  })

  it('lists only what the caller may see', async () => {
    const names = async (token?: string) =>
      ((await (await listGET(req('/api/datasets?author=itowner', { token }), { params: Promise.resolve({ repoType: 'datasets' }) })).json()) as { id: string }[]).map((r) => r.id)
    expect(await names(ownerRead)).toContain('itowner/secret-data')
    expect(await names()).not.toContain('itowner/secret-data')
  })

  it('deletes with a write token of the owner only', async () => {
    const del = (body: unknown, token?: string) => deleteDELETE(req('/api/repos/delete', { method: 'DELETE', token, body: JSON.stringify(body) }))
    expect((await del({ name: 'pub-model', type: 'model' }, outsiderWrite)).status).toBe(404)
    expect((await del({ name: 'pub-model', type: 'model' }, ownerRead)).status).toBe(403)
    expect((await del({ name: 'pub-model', type: 'model' }, ownerWrite)).status).toBe(200)
    expect((await repoInfo('models', 'itowner', 'pub-model')).status).toBe(404)
  })
})

describe('organization members', () => {
  it('refuse unknown roles, and adding the last admin again with a lower role', async () => {
    const { addMember } = await import('@/lib/hub/orgs')
    const org = await db.org.findUniqueOrThrow({ where: { name: 'itorg' } })
    await expect(addMember(org.id, 'itmember', 'owner')).rejects.toThrow()
    await expect(addMember(org.id, 'itowner', 'read')).rejects.toThrow(/at least one admin/)
    expect((await db.membership.findFirstOrThrow({ where: { orgId: org.id, user: { username: 'itowner' } } })).role).toBe('admin')
    await addMember(org.id, 'itmember', 'write')
    expect((await db.membership.findFirstOrThrow({ where: { orgId: org.id, user: { username: 'itmember' } } })).role).toBe('write')
  })

  it('keep an admin when two admins demote or remove each other at once', async () => {
    const { changeMember } = await import('@/lib/hub/orgs')
    const a = await createUser({ username: 'raceadmina', email: 'raceadmina@test.dev', password: 'password-a' })
    const b = await createUser({ username: 'raceadminb', email: 'raceadminb@test.dev', password: 'password-b' })
    for (const [round, role] of [[1, 'read'], [2, null]] as const) {
      const org = await createOrg(a.id, { name: `race-org-${round}` })
      await addMember(org.id, 'raceadminb', 'admin')
      const outcomes = await Promise.allSettled([changeMember(org.id, a.id, role), changeMember(org.id, b.id, role)])
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
      expect(String((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason)).toMatch(/at least one admin/)
      expect(await db.membership.count({ where: { orgId: org.id, role: 'admin' } })).toBe(1)
    }
  })

  it('may leave, except the last admin; someone who is not a member is told so', async () => {
    const { leaveOrg } = await import('@/lib/hub/orgs')
    const owner = await createUser({ username: 'leaveowner', email: 'leaveowner@test.dev', password: 'password-owner' })
    const member = await createUser({ username: 'leavemember', email: 'leavemember@test.dev', password: 'password-member' })
    const org = await createOrg(owner.id, { name: 'leave-org' })
    await addMember(org.id, 'leavemember', 'write')
    await leaveOrg(member.id, 'leave-org')
    expect(await db.membership.findFirst({ where: { orgId: org.id, userId: member.id } })).toBeNull()
    await expect(leaveOrg(member.id, 'leave-org')).rejects.toThrow(/Not a member/)
    await expect(leaveOrg(member.id, 'no-such-org')).rejects.toThrow(/Not a member/)
    await expect(leaveOrg(owner.id, 'leave-org')).rejects.toThrow(/at least one admin/)
    expect(await db.membership.count({ where: { orgId: org.id } })).toBe(1)
  })

  it('are added by username, never looked up by e-mail (that would tell anyone who owns an address)', async () => {
    const org = await db.org.findUniqueOrThrow({ where: { name: 'itorg' } })
    const member = await db.user.findUniqueOrThrow({ where: { username: 'itmember' } })
    await expect(addMember(org.id, member.email!, 'read')).rejects.toThrow(/by username/)
    await expect(addMember(org.id, 'nobody-at-all@test.dev', 'read')).rejects.toThrow(/by username/)
  })
})

describe('route params that hold a percent sign (Next hands them over decoded)', () => {
  it('draw an avatar and refuse an unknown organization, not 500', async () => {
    const avatar = await avatarGET(new Request('http://hub.test/avatars/%25.svg'), { params: Promise.resolve({ file: '%.svg' }) })
    expect([avatar.status, avatar.headers.get('content-type')]).toEqual([200, 'image/svg+xml'])
    const ownerWrite = (await createPersonalToken((await db.user.findUniqueOrThrow({ where: { username: 'itowner' } })).id, { name: 'pct', role: 'write' })).token
    const exported = await auditExportGET(new Request('http://hub.test/organizations/%25/audit/export', { headers: { authorization: `Bearer ${ownerWrite}` } }), { params: Promise.resolve({ name: '%' }) })
    expect(exported.status).toBe(404)
  })
})
