// Personal access tokens: created in settings, shown once, stored as a hash, revocable.
import { z } from 'zod'
import { db } from '@/lib/db'
import { issueToken } from '@/lib/auth/tokens'
import { badRequest } from '@/lib/http/errors'

/** Scopes a fine-grained personal token may carry (the hub's OAuth scopes plus the moderation API's). */
export const FINE_GRAINED_SCOPES = [
  'read-repos', 'write-repos', 'manage-repos', 'gated-repos', 'read-collections', 'write-collections',
  'read-memberships', 'read-billing', 'email', 'profile', 'inference-api', 'write-discussions', 'read:users', 'write:users',
] as const

const MAX_TOKENS_PER_USER = 100

export const personalTokenInput = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(50, 'must be at most 50 characters'),
    role: z.enum(['read', 'write', 'fineGrained']),
    scopes: z.array(z.enum(FINE_GRAINED_SCOPES)).default([]),
  })
  .refine((t) => t.role !== 'fineGrained' || t.scopes.length > 0, { message: 'A fine-grained token needs at least one scope', path: ['scopes'] })

export async function createPersonalToken(userId: string, input: z.input<typeof personalTokenInput>, options: { expiresInSeconds?: number } = {}) {
  const data = personalTokenInput.parse(input)
  const live = await db.accessToken.count({ where: { userId, kind: 'personal', revokedAt: null } })
  if (live >= MAX_TOKENS_PER_USER) throw badRequest(`You can have at most ${MAX_TOKENS_PER_USER} tokens; revoke some first`)
  const expiresAt = options.expiresInSeconds ? new Date(Date.now() + options.expiresInSeconds * 1000) : null
  return issueToken({ kind: 'personal', userId, displayName: data.name, role: data.role, scopes: data.role === 'fineGrained' ? data.scopes : [], expiresAt })
}

export async function listPersonalTokens(userId: string) {
  return db.accessToken.findMany({
    where: { userId, kind: 'personal', revokedAt: null },
    orderBy: { createdAt: 'desc' },
    select: { id: true, displayName: true, role: true, scopes: true, prefix: true, createdAt: true, lastUsedAt: true },
  })
}
