// Demo data for a fresh hub, so it can be explored at once: users with known passwords (listed in
// the README), two organizations with members in every role, public / private / gated repos with
// files (scripts/seed-files.ts), and collections. Runs only on an empty database; everything goes through the same lib/ functions as
// the pages and APIs.
//
// `--operator NAME --email ADDRESS` sets up a hub for real use instead: the operator's account (the
// password from HUB_OPERATOR_PASSWORD, else a random one printed once) and the hub's own model repo
// (OFFLINE_MODELS_REPO, which the moderation API runs), and nothing else: no demo accounts, apps or
// known passwords.
import './load-env'
import { randomBytes } from 'node:crypto'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg, setBilling } from '@/lib/hub/orgs'
import { createRepo, findRepo } from '@/lib/hub/repos'
import { addToCollection, createCollection } from '@/lib/hub/collections'
import type { OrgRole } from '@/lib/policy'
import { createApp } from '@/lib/oauth/clients/apps'
import { sha256Hex } from '@/lib/auth/secrets'
import { grantTokenExchange } from '@/lib/hub/org-apps'
import { MODEL_REPOS, MODELS_NAMESPACE, OFFLINE_MODELS_REPO, seedRepoFiles, updateShippedFiles } from './seed-files'

export const DEMO_USERS = [
  { username: 'alice', fullname: 'Alice Martin', email: 'alice@modhub.test', password: 'alice-demo-pass', isPro: true, isOperator: false },
  { username: 'bob', fullname: 'Bob Chen', email: 'bob@modhub.test', password: 'bob-demo-pass', isPro: false, isOperator: false },
  { username: 'carol', fullname: 'Carol Diaz', email: 'carol@modhub.test', password: 'carol-demo-pass', isPro: false, isOperator: false },
  { username: 'dave', fullname: 'Dave Okafor', email: 'dave@modhub.test', password: 'dave-demo-pass', isPro: false, isOperator: false },
  { username: 'hubops', fullname: 'Hub Operator', email: 'hubops@modhub.test', password: 'hubops-demo-pass', isPro: false, isOperator: true },
] as const

const ORGS: { name: string; fullname: string; plan: 'free' | 'team' | 'enterprise'; canPay: boolean; admin: string; members: [string, OrgRole][] }[] = [
  { name: 'acme-ai', fullname: 'Acme AI', plan: 'enterprise', canPay: true, admin: 'alice', members: [['bob', 'write'], ['carol', 'contributor'], ['dave', 'read']] },
  { name: 'open-lab', fullname: 'Open Lab', plan: 'team', canPay: false, admin: 'bob', members: [['alice', 'read'], ['carol', 'write'], ['dave', 'contributor']] },
  // The models the hub runs itself (the moderation engines' repos), owned by the operator.
  { name: MODELS_NAMESPACE, fullname: 'ModHub models', plan: 'free', canPay: false, admin: 'hubops', members: [] },
]

const REPOS = [
  { by: 'alice', type: 'model', namespace: 'alice', name: 'toxicity-tiny', private: false, gated: false, description: 'A tiny toxicity classifier for tests and demos.' },
  { by: 'alice', type: 'dataset', namespace: 'alice', name: 'private-notes', private: true, gated: false, description: 'Alice’s private evaluation notes.' },
  { by: 'alice', type: 'model', namespace: 'acme-ai', name: 'guardrail-base', private: false, gated: true, description: 'Acme’s guardrail model. Request access to download.' },
  { by: 'bob', type: 'dataset', namespace: 'acme-ai', name: 'internal-eval', private: true, gated: false, description: 'Internal red-team evaluation set.' },
  { by: 'bob', type: 'space', namespace: 'open-lab', name: 'moderation-demo', private: false, gated: false, description: 'Try the moderation checks in the browser.' },
  { by: 'bob', type: 'dataset', namespace: 'bob', name: 'gated-corpus', private: false, gated: true, description: 'A gated text corpus.' },
  { by: 'carol', type: 'model', namespace: 'open-lab', name: 'tiny-transformer2d', private: false, gated: false, description: 'A small Transformer2DModel checkpoint.' },
  { by: 'carol', type: 'model', namespace: 'open-lab', name: 'tiny-transformer2d-discrete', private: false, gated: false, description: 'A small Transformer2DModel checkpoint with discrete inputs.' },
  { by: 'carol', type: 'model', namespace: 'open-lab', name: 'pixart-xl-2-512', private: false, gated: false, description: 'PixArt-α XL-2 512×512\'s transformer config, without weights (the size check reads it).' },
  ...MODEL_REPOS,
] as const

export async function seed(): Promise<boolean> {
  if ((await db.user.count()) > 0) return false
  const ids = new Map<string, string>()
  for (const u of DEMO_USERS) {
    const user = await createUser(u, { emailVerified: true, isPro: u.isPro, isOperator: u.isOperator })
    ids.set(u.username, user.id)
  }
  const session = (name: string) => ({ userId: ids.get(name)!, principal: null })
  const orgIds = new Map<string, string>()
  for (const o of ORGS) {
    const org = await createOrg(ids.get(o.admin)!, { name: o.name, fullname: o.fullname })
    orgIds.set(o.name, org.id)
    await setBilling(org.id, { plan: o.plan, canPay: o.canPay })
    for (const [member, role] of o.members) await addMember(org.id, member, role)
  }
  const repoTypes = new Map<string, string>()
  for (const r of REPOS) {
    const repo = await createRepo(session(r.by), r)
    repoTypes.set(`${r.namespace}/${r.name}`, repo.type)
    await seedRepoFiles(session(r.by), repo)
  }
  const item = (id: string) => ({ item: { type: repoTypes.get(id), id } })
  const picks = await createCollection(session('alice'), { namespace: 'alice', title: 'Responsible AI picks', description: 'Models and spaces for safer AI.' })
  for (const id of ['alice/toxicity-tiny', 'acme-ai/guardrail-base', 'open-lab/moderation-demo']) await addToCollection(session('alice'), picks.slug, item(id))
  const internal = await createCollection(session('alice'), { namespace: 'acme-ai', title: 'Internal evaluation', private: true })
  await addToCollection(session('alice'), internal.slug, item('acme-ai/internal-eval'))
  for (const a of DEMO_OAUTH_APPS) {
    const { app } = await createApp({ kind: 'user', userId: ids.get('alice')! }, a, a.secret !== null)
    // Known ids and a known demo secret, like the demo passwords, so the flows can be tried by hand.
    await db.oAuthApp.update({ where: { id: app.id }, data: { clientId: a.clientId, secretHash: a.secret ? sha256Hex(a.secret) : null } })
  }
  // acme-ai's backend: bound to the Enterprise org, with the token-exchange privilege granted by the operator.
  const backend = await createApp({ kind: 'org', orgId: orgIds.get('acme-ai')! }, DEMO_EXCHANGE_APP, true)
  await db.oAuthApp.update({ where: { id: backend.app.id }, data: { clientId: DEMO_EXCHANGE_APP.clientId, secretHash: sha256Hex(DEMO_EXCHANGE_APP.secret) } })
  await grantTokenExchange(session('hubops'), backend.app.id)
  return true
}

export type OperatorAccount = { username: string; email: string; password: string }

/**
 * A hub for real use: the operator's account, the organization of the hub's own models with the
 * operator as its admin, and the offline engines' repo (the moderation API runs its graphs). Only on
 * an empty database, as seed(); false when it has users.
 */
export async function seedForOperation(operator: OperatorAccount): Promise<boolean> {
  if ((await db.user.count()) > 0) return false
  const user = await createUser({ ...operator, fullname: 'Hub Operator' }, { emailVerified: true, isOperator: true })
  const session = { userId: user.id, principal: null }
  await createOrg(user.id, { name: MODELS_NAMESPACE, fullname: 'ModHub models' })
  for (const r of MODEL_REPOS.filter((m) => `${m.namespace}/${m.name}` === OFFLINE_MODELS_REPO)) {
    await seedRepoFiles(session, await createRepo(session, r))
  }
  return true
}

/**
 * On a hub seeded by an earlier version: the hub's own model repos (MODEL_REPOS) brought up to the
 * files this version ships (scripts/seed-files.ts updateShippedFiles), committed by the operator
 * account that owns them. Repos or an operator that are gone are left alone. Returns what changed.
 */
export async function updateHubModels(): Promise<string[]> {
  // The first admin of the models' organization: hubops on a demo hub, the operator named at set-up otherwise.
  const admin = await db.membership.findFirst({ where: { org: { name: MODELS_NAMESPACE }, role: 'admin', user: { isOperator: true } }, orderBy: { createdAt: 'asc' }, select: { userId: true } })
  const operator = admin && { id: admin.userId }
  if (!operator) return []
  const updated: string[] = []
  for (const r of MODEL_REPOS) {
    const repo = await findRepo(r.type, r.namespace, r.name)
    if (!repo) continue
    const paths = await updateShippedFiles({ userId: operator.id, principal: null }, repo)
    if (paths.length > 0) updated.push(`${r.namespace}/${r.name}: ${paths.join(', ')}`)
  }
  return updated
}

/** acme-ai's organization-bound backend app, allowed to exchange members' e-mails for tokens. */
export const DEMO_EXCHANGE_APP = {
  clientId: 'acme-backend', secret: 'acme-backend-secret', name: 'Acme Backend', homepage: 'https://acme.example', description: 'Acme AI’s internal backend (token exchange).',
  redirectUris: ['https://acme.example/callback'], scopes: ['openid', 'profile', 'email', 'read-repos', 'write-repos', 'manage-repos', 'read-collections'],
}

/** Alice's demo OAuth apps: a confidential server-side app and a public browser app. */
export const DEMO_OAUTH_APPS = [
  {
    clientId: 'demo-notes-app', secret: 'demo-notes-app-secret', name: 'Demo Notes', homepage: 'http://localhost:4000', description: 'A server-side demo app (confidential).',
    redirectUris: ['http://localhost:4000/oauth/callback', 'http://127.0.0.1/callback'], scopes: ['openid', 'profile', 'email', 'read-repos', 'read-memberships'],
  },
  {
    clientId: 'demo-browser-app', secret: null, name: 'Demo Browser App', homepage: 'http://localhost:5173', description: 'A static browser demo app (public, PKCE).',
    redirectUris: ['http://localhost/', 'http://127.0.0.1/'], scopes: ['openid', 'profile', 'email', 'read-repos', 'gated-repos'],
  },
]

/** The value after `--name` on the command line, if given. */
function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}

async function main() {
  const operatorName = argument('operator')
  if (operatorName !== undefined) {
    const email = argument('email')
    if (!email) throw new Error('--operator needs --email ADDRESS too')
    const chosen = process.env.HUB_OPERATOR_PASSWORD
    const password = chosen || randomBytes(18).toString('base64url')
    if (await seedForOperation({ username: operatorName, email, password })) {
      console.log(`operator account created: ${operatorName}${chosen ? ' (password from HUB_OPERATOR_PASSWORD)' : ` / ${password} (shown once: keep it safe)`}; the hub's models in ${OFFLINE_MODELS_REPO}`)
      return
    }
    console.log('database already has users; nothing added')
  } else {
    const created = await seed()
    console.log(created ? `demo data created: ${DEMO_USERS.map((u) => `${u.username} / ${u.password}`).join(', ')}` : 'database already has users; demo data not added')
    if (created) return
  }
  for (const line of await updateHubModels()) console.log(`updated to the files this version ships: ${line}`)
}

if (process.argv[1]?.endsWith('seed.ts')) {
  main()
    .then(() => process.exit(0))
    .catch((e) => {
      console.error(e)
      process.exit(1)
    })
}
