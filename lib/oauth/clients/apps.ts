// Registered OAuth apps of users and organizations: create, edit, rotate or delete the secret
// (an app without one is public), delete. Secrets are shown once and stored as SHA-256 hashes.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { displayText } from '@/lib/display-text'
import { db, lockRow, readList, statementsIn, writeList } from '@/lib/db'
import { forgetCachedClients } from '@/lib/oauth/clients'
import { randomToken, sha256Hex } from '@/lib/auth/secrets'
import { roleInOrg } from '@/lib/hub/orgs'
import { manageOrgDecision, type Caller } from '@/lib/policy'
import { badRequest, denial, notFound, unauthorized } from '@/lib/http/errors'
import { SCOPE_NAMES } from '@/lib/oauth/scopes'
import { registrableRedirectUriProblem } from '@/lib/oauth/redirect-uri'

const MAX_APPS_PER_OWNER = 50

const webUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), 'must be an http(s) URL')

const optionalUrl = z.union([z.literal('').transform(() => null), webUrl]).nullable().default(null)

export const appInput = z.object({
  name: displayText(80, { required: true }),
  description: displayText(500, { lines: true }).default(''),
  homepage: optionalUrl,
  logoUrl: optionalUrl,
  redirectUris: z
    .array(z.string().trim().min(1).max(2000))
    .min(1, 'Give at least one redirect URI.')
    .max(20, 'at most 20 redirect URIs')
    .superRefine((uris, ctx) => {
      for (const uri of uris) {
        const problem = registrableRedirectUriProblem(uri)
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      }
    }),
  scopes: z.array(z.enum(SCOPE_NAMES as [string, ...string[]])).default([]),
})

export type AppOwner = { kind: 'user'; userId: string } | { kind: 'org'; orgId: string }

function newSecret(): string {
  return randomToken(48)
}

/** Creates an app; the secret (confidential apps) is returned once and only its hash is kept. */
export async function createApp(owner: AppOwner, input: z.input<typeof appInput>, confidential: boolean) {
  const data = appInput.parse(input)
  const where = owner.kind === 'user' ? { ownerUserId: owner.userId } : { ownerOrgId: owner.orgId }
  const secret = confidential ? newSecret() : null
  const app = await db.$transaction(async (tx) => {
    // Counted under the owner's row lock, so a burst of requests cannot pass the cap together.
    await lockRow(statementsIn(tx), owner.kind === 'user' ? 'User' : 'Org', owner.kind === 'user' ? owner.userId : owner.orgId)
    if ((await tx.oAuthApp.count({ where })) >= MAX_APPS_PER_OWNER) throw badRequest(`At most ${MAX_APPS_PER_OWNER} apps per owner`)
    return tx.oAuthApp.create({
      data: {
        ...where,
        clientId: randomUUID(),
        secretHash: secret ? sha256Hex(secret) : null,
        name: data.name,
        description: data.description,
        homepage: data.homepage,
        logoUrl: data.logoUrl,
        redirectUris: writeList(data.redirectUris),
        scopes: writeList(data.scopes),
      },
    })
  })
  return { app, secret }
}

export async function updateApp(appId: string, input: z.input<typeof appInput>) {
  const data = appInput.parse(input)
  const app = await db.oAuthApp.update({
    where: { id: appId },
    data: { ...data, redirectUris: writeList(data.redirectUris), scopes: writeList(data.scopes) },
  })
  forgetCachedClients()
  return app
}

/** A new secret replaces the old one at once (a public app becomes confidential). */
export async function rotateSecret(appId: string): Promise<string> {
  const secret = newSecret()
  await db.oAuthApp.update({ where: { id: appId }, data: { secretHash: sha256Hex(secret) } })
  forgetCachedClients()
  return secret
}

/**
 * Without a secret the app is public: it authenticates by client ID and PKCE. A public app cannot
 * keep the token-exchange privilege (nothing would prove the caller is the app), so it ends, with
 * the exchange tokens it issued.
 */
export async function deleteSecret(appId: string) {
  await db.$transaction(async (tx) => {
    await tx.oAuthApp.update({ where: { id: appId }, data: { secretHash: null, tokenExchange: false } })
    await tx.accessToken.updateMany({ where: { appId, kind: 'exchange', revokedAt: null }, data: { revokedAt: new Date() } })
  })
  forgetCachedClients()
}

/** Deleting an app ends every grant it holds: its codes and tokens go with it (cascade), and its consents. */
export async function deleteApp(appId: string) {
  await db.$transaction(async (tx) => {
    const app = await tx.oAuthApp.delete({ where: { id: appId } })
    await tx.oAuthConsent.deleteMany({ where: { clientId: app.clientId } })
  })
  forgetCachedClients()
}

/**
 * The notice of the apps page after deleteAppAction (`?deleted=` the app's client ID): said only
 * while no app has that ID, so a link cannot make the page claim a deletion that did not happen.
 */
export async function deletedAppNotice(value: unknown): Promise<string | null> {
  if (typeof value !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) return null
  if (await db.oAuthApp.findUnique({ where: { clientId: value }, select: { id: true } })) return null
  return `The app with client ID ${value} was deleted: its tokens and approvals no longer work.`
}

/** The app, if the caller may manage it: its owner, or an admin of the organization that owns it. */
/** An app's row with its list columns read, as the edit form shows them. */
export function editableFields<T extends { redirectUris: string; scopes: string }>(app: T) {
  return { ...app, redirectUris: readList(app.redirectUris), scopes: readList(app.scopes) }
}

export async function manageableApp(caller: Caller, appId: string) {
  if (!caller) throw unauthorized('Sign in first')
  const app = await db.oAuthApp.findUnique({ where: { id: appId } })
  if (!app) throw notFound('No such app')
  if (app.ownerOrgId) {
    const decision = manageOrgDecision(caller, await roleInOrg(caller.userId, app.ownerOrgId))
    if (decision !== 'allow') throw denial(decision === 'forbidden' ? 'not-found' : decision, 'App')
  } else if (app.ownerUserId !== caller.userId) {
    throw notFound('App not found')
  }
  return app
}

export async function listApps(owner: AppOwner) {
  const apps = await db.oAuthApp.findMany({
    where: owner.kind === 'user' ? { ownerUserId: owner.userId } : { ownerOrgId: owner.orgId },
    orderBy: { createdAt: 'asc' },
  })
  return apps.map((a) => ({ ...a, redirectUriList: readList(a.redirectUris), scopeList: readList(a.scopes), isPublic: a.secretHash === null }))
}
