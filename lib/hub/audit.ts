// The organization audit log: append-only (this module only inserts and reads; the database
// refuses updates with a trigger), paginated and filtered for the org's audit page, and exported
// as JSON lines. Entries about a user outside any organization (their own trusted publishers)
// have orgId null.
import { z } from 'zod'
import { db, type Tx } from '@/lib/db'

export const AUDIT_ACTIONS = {
  'token.exchange': 'Token exchange',
  'app.exchange.grant': 'Token exchange granted to an app',
  'app.exchange.revoke': 'Token exchange revoked from an app',
  'app.exchange.lifetime': 'Exchange token lifetime changed',
  'publisher.add': 'Trusted publisher added',
  'publisher.remove': 'Trusted publisher removed',
  'org.payment-method': 'Payment method on file changed by the hub operator',
  'member.invite': 'Member invited',
  'member.invite-cancel': 'Invitation cancelled',
  'member.join': 'Invitation accepted',
  'member.decline': 'Invitation declined',
  'member.role': 'Member role changed',
  'member.remove': 'Member removed',
  'member.leave': 'Member left',
  'repo.commit': 'Commit to a repository',
} as const

export type AuditAction = keyof typeof AUDIT_ACTIONS

export type AuditRecord = {
  orgId: string | null
  action: AuditAction
  /** Who did it (a signed-in user); null when an app did it with its own credentials. */
  actorUserId?: string | null
  /** Whom it concerns, e.g. the member a token was issued for. */
  userId?: string | null
  appId?: string | null
  data?: Record<string, unknown>
  ip?: string | null
}

/** Appends one entry; pass the transaction that makes the change, so both happen or neither. */
export async function recordAudit(record: AuditRecord, tx: Tx = db): Promise<string> {
  const row = await tx.auditLogEntry.create({
    data: {
      orgId: record.orgId,
      action: record.action,
      actorUserId: record.actorUserId ?? null,
      userId: record.userId ?? null,
      appId: record.appId ?? null,
      data: JSON.stringify(record.data ?? {}),
      ip: record.ip ?? null,
    },
  })
  return row.id
}

// ---------------------------------------------------------------- reading

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'must be a date (YYYY-MM-DD)')

/** The audit page's and the export's query string; every field optional. */
export const auditQueryInput = z.object({
  action: z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]).optional(),
  member: z.string().trim().max(100).optional(),
  app: z.string().trim().max(200).optional(),
  from: day.optional(),
  to: day.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
})

export type AuditQuery = z.infer<typeof auditQueryInput>

export const AUDIT_PAGE_SIZE = 50

/** Reads the query from URL search parameters; empty fields count as absent. */
export function parseAuditQuery(params: URLSearchParams | Record<string, string | string[] | undefined>): AuditQuery {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const)
  return auditQueryInput.parse(Object.fromEntries(entries.filter(([, v]) => v !== undefined && v !== '')))
}

// An id no row has: a filter on an unknown member or app matches nothing instead of everything.
const NO_MATCH = '-'

async function whereOf(orgId: string, q: AuditQuery) {
  const where: NonNullable<Parameters<typeof db.auditLogEntry.findMany>[0]>['where'] = { orgId }
  if (q.action) where.action = q.action
  if (q.member) {
    const user = await db.user.findUnique({ where: { username: q.member }, select: { id: true } })
    const id = user?.id ?? NO_MATCH
    where.OR = [{ userId: id }, { actorUserId: id }]
  }
  if (q.app) {
    const app = await db.oAuthApp.findFirst({ where: { OR: [{ clientId: q.app }, { id: q.app }] }, select: { id: true } })
    where.appId = app?.id ?? NO_MATCH
  }
  if (q.from || q.to) {
    where.createdAt = {
      ...(q.from ? { gte: new Date(`${q.from}T00:00:00Z`) } : {}),
      // "to" is inclusive: the whole day.
      ...(q.to ? { lt: new Date(Date.parse(`${q.to}T00:00:00Z`) + 24 * 3600 * 1000) } : {}),
    }
  }
  return where
}

type Row = Awaited<ReturnType<typeof db.auditLogEntry.findMany>>[number]

export type AuditEntryView = {
  id: string
  time: string
  action: string
  actor: string | null
  member: string | null
  app: { id: string; clientId: string; name: string } | null
  ip: string | null
  data: Record<string, unknown>
}

/** Names for the ids of a batch of rows (users and apps may be gone: then the id is shown). */
async function present(rows: Row[]): Promise<AuditEntryView[]> {
  const userIds = [...new Set(rows.flatMap((r) => [r.userId, r.actorUserId]).filter((v): v is string => !!v))]
  const appIds = [...new Set(rows.map((r) => r.appId).filter((v): v is string => !!v))]
  const [users, apps] = await Promise.all([
    db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, username: true } }),
    db.oAuthApp.findMany({ where: { id: { in: appIds } }, select: { id: true, clientId: true, name: true } }),
  ])
  const username = new Map(users.map((u) => [u.id, u.username]))
  const appById = new Map(apps.map((a) => [a.id, a]))
  return rows.map((r) => {
    let data: Record<string, unknown> = {}
    try {
      data = JSON.parse(r.data) as Record<string, unknown>
    } catch {
      data = { raw: r.data }
    }
    return {
      id: r.id,
      time: r.createdAt.toISOString(),
      action: r.action,
      actor: r.actorUserId ? (username.get(r.actorUserId) ?? r.actorUserId) : null,
      member: r.userId ? (username.get(r.userId) ?? r.userId) : null,
      app: r.appId ? (appById.get(r.appId) ?? { id: r.appId, clientId: r.appId, name: '(deleted app)' }) : null,
      ip: r.ip,
      data,
    }
  })
}

/** One page of the organization's log, newest first. */
export async function auditPage(orgId: string, q: AuditQuery) {
  const where = await whereOf(orgId, q)
  const [total, rows] = await Promise.all([
    db.auditLogEntry.count({ where }),
    db.auditLogEntry.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (q.page - 1) * AUDIT_PAGE_SIZE, take: AUDIT_PAGE_SIZE }),
  ])
  return { entries: await present(rows), total, page: q.page, pageCount: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)) }
}

const EXPORT_BATCH = 500

/** Every matching entry, oldest first, one JSON object per line; read in batches (keyset pagination). */
export async function* auditJsonLines(orgId: string, q: AuditQuery): AsyncGenerator<string> {
  const where = await whereOf(orgId, q)
  let after: { createdAt: Date; id: string } | null = null
  for (;;) {
    const rows: Row[] = await db.auditLogEntry.findMany({
      where: after
        ? { AND: [where, { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] }] }
        : where,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: EXPORT_BATCH,
    })
    for (const entry of await present(rows)) yield JSON.stringify(entry) + '\n'
    if (rows.length < EXPORT_BATCH) return
    const last = rows[rows.length - 1]!
    after = { createdAt: last.createdAt, id: last.id }
  }
}
