// The organization audit log: append-only in the database, filtered and paginated reads, and the
// JSON-lines export route (admins only).
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { AUDIT_PAGE_SIZE, auditPage, parseAuditQuery, recordAudit } from '@/lib/hub/audit'
import { GET as exportGET } from '@/app/organizations/[name]/audit/export/route'

let orgId: string
let adminId: string
let memberId: string
let adminWrite: string
let memberWrite: string

beforeAll(async () => {
  adminId = (await createUser({ username: 'audadmin', email: 'audadmin@test.dev', password: 'password-admin' })).id
  memberId = (await createUser({ username: 'audmember', email: 'audmember@test.dev', password: 'password-member' })).id
  orgId = (await createOrg(adminId, { name: 'audorg' })).id
  await addMember(orgId, 'audmember', 'write')
  adminWrite = (await createPersonalToken(adminId, { name: 'w', role: 'write' })).token
  memberWrite = (await createPersonalToken(memberId, { name: 'w', role: 'write' })).token
  // 60 exchanges for the member over two days, and 5 lifetime changes by the admin.
  // Entries cannot be back-dated after the fact (append-only), so the dated ones are inserted as such.
  for (let i = 0; i < 60; i++) {
    await db.auditLogEntry.create({
      data: { orgId, action: 'token.exchange', userId: memberId, data: JSON.stringify({ n: i }), ip: '203.0.113.1', createdAt: new Date(Date.UTC(2026, 0, i < 30 ? 10 : 11, 12, 0, i)) },
    })
  }
  for (let i = 0; i < 5; i++) await recordAudit({ orgId, action: 'app.exchange.lifetime', actorUserId: adminId, data: { to: 3600 } })
})

describe('append-only', () => {
  it('refuses updates in the database itself', async () => {
    const entry = await db.auditLogEntry.findFirstOrThrow({ where: { orgId } })
    await expect(db.auditLogEntry.update({ where: { id: entry.id }, data: { action: 'forged' } })).rejects.toThrow(/append-only/)
  })
})

describe('reading', () => {
  it('pages newest first', async () => {
    const first = await auditPage(orgId, parseAuditQuery({}))
    expect(first.total).toBe(65)
    expect(first.pageCount).toBe(2)
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE)
    expect(first.entries[0]!.action).toBe('app.exchange.lifetime')
    const second = await auditPage(orgId, parseAuditQuery({ page: '2' }))
    expect(second.entries).toHaveLength(15)
    const ids = new Set([...first.entries, ...second.entries].map((e) => e.id))
    expect(ids.size).toBe(65)
  })

  it('filters by action, member, app and date', async () => {
    expect((await auditPage(orgId, parseAuditQuery({ action: 'app.exchange.lifetime' }))).total).toBe(5)
    const byMember = await auditPage(orgId, parseAuditQuery({ member: 'audmember' }))
    expect(byMember.total).toBe(60)
    expect(byMember.entries[0]).toMatchObject({ member: 'audmember', actor: null, ip: '203.0.113.1' })
    expect((await auditPage(orgId, parseAuditQuery({ member: 'audadmin' }))).total).toBe(5)
    expect((await auditPage(orgId, parseAuditQuery({ member: 'nobody-at-all' }))).total).toBe(0)
    expect((await auditPage(orgId, parseAuditQuery({ app: 'no-such-client' }))).total).toBe(0)
    expect((await auditPage(orgId, parseAuditQuery({ from: '2026-01-11', to: '2026-01-11' }))).total).toBe(30)
    expect((await auditPage(orgId, parseAuditQuery({ to: '2026-01-10' }))).total).toBe(30)
  })

  it('rejects malformed filters', () => {
    for (const q of [{ action: 'drop.table' }, { from: '2026-13-45x' }, { page: '0' }, { page: 'abc' }]) expect(() => parseAuditQuery(q), JSON.stringify(q)).toThrow()
  })
})

describe('export', () => {
  const get = (query: string, token?: string) =>
    exportGET(new Request(`http://hub.test/organizations/audorg/audit/export${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }), { params: Promise.resolve({ name: 'audorg' }) })

  it('streams every matching entry as JSON lines, oldest first, to admins', async () => {
    const res = await get('', adminWrite)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/)
    expect(res.headers.get('content-disposition')).toMatch(/audorg-audit-log\.jsonl/)
    const lines = (await res.text()).trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(lines).toHaveLength(65)
    expect(lines[0]).toMatchObject({ action: 'token.exchange', member: 'audmember', data: { n: 0 } })
    expect(lines.map((l) => l.time)).toEqual([...lines.map((l) => l.time)].sort())
    const filtered = (await (await get('?action=app.exchange.lifetime', adminWrite)).text()).trimEnd().split('\n')
    expect(filtered).toHaveLength(5)
  })

  it('refuses non-admins, anonymous callers and bad filters', async () => {
    expect((await get('', memberWrite)).status).toBe(403)
    expect((await get('')).status).toBe(401)
    expect((await get('?from=yesterday', adminWrite)).status).toBe(400)
  })
})
