// Personal access tokens: created in settings, shown once, stored as a hash, revocable.
import { z } from 'zod'
import { displayText } from '@/lib/display-text'
import { db, lockRow, readList, statementsIn } from '@/lib/db'
import { issueToken } from '@/lib/auth/tokens'
import { badRequest } from '@/lib/http/errors'

import { FINE_GRAINED_SCOPES, TOKEN_EXPIRY_DAYS } from '@/lib/auth/token-options'

export { FINE_GRAINED_SCOPES }

const MAX_TOKENS_PER_USER = 100

export const personalTokenInput = z
  .object({
    name: displayText(50, { required: true }),
    role: z.enum(['read', 'write', 'fineGrained']),
    scopes: z.array(z.enum(FINE_GRAINED_SCOPES)).default([]),
    expiresInDays: z
      .number()
      .refine((days) => (TOKEN_EXPIRY_DAYS as readonly number[]).includes(days), `must be one of ${TOKEN_EXPIRY_DAYS.join(', ')} days, or never`)
      .nullable()
      .default(null),
  })
  .refine((t) => t.role !== 'fineGrained' || t.scopes.length > 0, { message: 'A fine-grained token needs at least one scope', path: ['scopes'] })
  // Read and write tokens carry their role and nothing else: scopes sent with them are dropped,
  // never stored, so a read token can never gain a scope's rights (the form disables the boxes too).
  .transform((t) => (t.role === 'fineGrained' ? t : { ...t, scopes: [] }))

export async function createPersonalToken(userId: string, input: z.input<typeof personalTokenInput>, now = new Date()) {
  const data = personalTokenInput.parse(input)
  // Bearer authentication refuses a token from this moment on (principalFromToken).
  const expiresAt = data.expiresInDays === null ? null : new Date(now.getTime() + data.expiresInDays * 86_400_000)
  return db.$transaction(async (tx) => {
    // Counted under the user's row lock, so a burst of requests cannot pass the cap together.
    const statements = statementsIn(tx)
    await lockRow(statements, 'User', userId)
    const live = await tx.accessToken.count({ where: { userId, kind: 'personal', revokedAt: null } })
    if (live >= MAX_TOKENS_PER_USER) throw badRequest(`You can have at most ${MAX_TOKENS_PER_USER} tokens; revoke some first`)
    return issueToken({ kind: 'personal', userId, displayName: data.name, role: data.role, scopes: data.scopes, expiresAt }, statements)
  })
}

export async function listPersonalTokens(userId: string) {
  const rows = await db.accessToken.findMany({
    where: { userId, kind: 'personal', revokedAt: null },
    orderBy: { createdAt: 'desc' },
    select: { id: true, displayName: true, role: true, scopes: true, prefix: true, createdAt: true, lastUsedAt: true, expiresAt: true },
  })
  return rows.map((row) => ({ ...row, scopes: readList(row.scopes) }))
}
