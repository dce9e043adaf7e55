'use server'
// Server actions behind the hub's forms. Each one: who is signed in, parse, call lib/, report.
// Next checks that server-action POSTs come from our own origin (CSRF).
import { revalidatePath } from 'next/cache'
import { redirect } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { revokeToken } from '@/lib/auth/tokens'
import { updateProfile } from '@/lib/hub/users'
import { addMember, changeMember, createOrg, roleInOrg, setBilling } from '@/lib/hub/orgs'
import { createRepo, decideGatedAccess, requestGatedAccess, updateRepoSettings } from '@/lib/hub/repos'
import { deleteRepoWithFiles } from '@/lib/hub/files'
import { addToCollection, createCollection, deleteCollection } from '@/lib/hub/collections'
import { repoPath, type RepoType } from '@/lib/hub/names'
import { manageOrgDecision } from '@/lib/policy'
import { db } from '@/lib/db'
import { denial, notFound, unauthorized } from '@/lib/http/errors'
import { failure, text, type FormState } from '@/app/actions/state'

async function requireCaller() {
  const caller = await sessionCaller()
  if (!caller) throw unauthorized('Sign in first')
  return caller
}

export async function updateProfileAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const caller = await requireCaller()
    await updateProfile(caller.userId, { fullname: text(form, 'fullname'), email: text(form, 'email'), website: text(form, 'website'), avatarUrl: text(form, 'avatarUrl') })
    revalidatePath('/settings/profile')
    return { ok: 'Profile saved.' }
  } catch (e) {
    return failure(e)
  }
}

export async function createTokenAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const caller = await requireCaller()
    const { token } = await createPersonalToken(caller.userId, {
      name: text(form, 'name'),
      role: text(form, 'role') as 'read',
      scopes: form.getAll('scopes').filter((s): s is string => typeof s === 'string') as [],
    })
    revalidatePath('/settings/tokens')
    return { ok: `Token "${text(form, 'name').trim()}" created.`, secret: token }
  } catch (e) {
    return failure(e)
  }
}

export async function revokeTokenAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const caller = await requireCaller()
    if (!(await revokeToken(caller.userId, text(form, 'tokenId')))) throw notFound('No such token')
    revalidatePath('/settings/tokens')
    return { ok: 'Token revoked.' }
  } catch (e) {
    return failure(e)
  }
}

export async function createOrgAction(_: FormState, form: FormData): Promise<FormState> {
  let name: string
  try {
    const caller = await requireCaller()
    name = (await createOrg(caller.userId, { name: text(form, 'name'), fullname: text(form, 'fullname') })).name
  } catch (e) {
    return failure(e)
  }
  redirect(`/organizations/${name}/settings`)
}

async function adminOf(orgName: string) {
  const caller = await requireCaller()
  const org = await db.org.findUnique({ where: { name: orgName } })
  if (!org) throw notFound('Organization not found')
  const decision = manageOrgDecision(caller, await roleInOrg(caller.userId, org.id))
  if (decision !== 'allow') throw denial(decision, 'Organization')
  return org
}

export async function addMemberAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const org = await adminOf(text(form, 'org'))
    await addMember(org.id, text(form, 'login'), text(form, 'role'))
    revalidatePath(`/organizations/${org.name}/settings`)
    return { ok: `${text(form, 'login').trim()} is now a member (${text(form, 'role')}).` }
  } catch (e) {
    return failure(e)
  }
}

export async function changeMemberAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const org = await adminOf(text(form, 'org'))
    const role = text(form, 'role')
    await changeMember(org.id, text(form, 'userId'), role === 'remove' ? null : role)
    revalidatePath(`/organizations/${org.name}/settings`)
    return { ok: role === 'remove' ? 'Member removed.' : `Role changed to ${role}.` }
  } catch (e) {
    return failure(e)
  }
}

export async function setBillingAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const org = await adminOf(text(form, 'org'))
    await setBilling(org.id, { plan: text(form, 'plan'), canPay: form.get('canPay') === 'on' })
    revalidatePath(`/organizations/${org.name}/settings`)
    return { ok: 'Plan and payment method saved.' }
  } catch (e) {
    return failure(e)
  }
}

export async function createRepoAction(_: FormState, form: FormData): Promise<FormState> {
  let path: string
  try {
    const caller = await requireCaller()
    const repo = await createRepo(caller, {
      type: text(form, 'type') as RepoType,
      namespace: text(form, 'namespace'),
      name: text(form, 'name'),
      private: text(form, 'visibility') === 'private',
      gated: form.get('gated') === 'on',
      description: text(form, 'description'),
    })
    path = repoPath(repo.type as RepoType, repo.namespace, repo.name)
  } catch (e) {
    return failure(e)
  }
  redirect(path)
}

function repoRef(form: FormData) {
  return [text(form, 'type') as RepoType, text(form, 'namespace'), text(form, 'name')] as const
}

export async function repoSettingsAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const caller = await requireCaller()
    const [type, namespace, name] = repoRef(form)
    await updateRepoSettings(caller, type, namespace, name, { private: text(form, 'visibility') === 'private', gated: form.get('gated') === 'on' })
    revalidatePath(repoPath(type, namespace, name))
    return { ok: 'Settings saved.' }
  } catch (e) {
    return failure(e)
  }
}

export async function deleteRepoAction(_: FormState, form: FormData): Promise<FormState> {
  const [type, namespace, name] = repoRef(form)
  try {
    const caller = await requireCaller()
    if (text(form, 'confirm') !== `${namespace}/${name}`) return { error: `Type ${namespace}/${name} to confirm.` }
    await deleteRepoWithFiles(caller, type, namespace, name)
  } catch (e) {
    return failure(e)
  }
  redirect(`/${namespace}`)
}

export async function requestAccessAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const caller = await requireCaller()
    const [type, namespace, name] = repoRef(form)
    await requestGatedAccess(caller, type, namespace, name)
    revalidatePath(repoPath(type, namespace, name))
    return { ok: 'Access requested. The owner will review it.' }
  } catch (e) {
    return failure(e)
  }
}

export async function decideAccessAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const caller = await requireCaller()
    const status = text(form, 'decision') === 'accept' ? 'accepted' : 'rejected'
    await decideGatedAccess(caller, text(form, 'repoId'), text(form, 'userId'), status)
    const [type, namespace, name] = repoRef(form)
    revalidatePath(repoPath(type, namespace, name))
    return { ok: `Request ${status}.` }
  } catch (e) {
    return failure(e)
  }
}

export async function createCollectionAction(_: FormState, form: FormData): Promise<FormState> {
  let slug: string
  try {
    const caller = await requireCaller()
    slug = (await createCollection(caller, { namespace: text(form, 'namespace'), title: text(form, 'title'), description: text(form, 'description'), private: text(form, 'visibility') === 'private' })).slug
  } catch (e) {
    return failure(e)
  }
  redirect(`/collections/${slug}`)
}

export async function addToCollectionAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const caller = await requireCaller()
    const [namespace, name] = text(form, 'repo').split('/')
    const repo = await db.repo.findFirst({ where: { namespace: namespace ?? '', name: name ?? '', type: text(form, 'type') || 'model' } })
    if (!repo) throw notFound('No such repository')
    await addToCollection(caller, text(form, 'slug'), repo.id, text(form, 'note'))
    revalidatePath(`/collections/${text(form, 'slug')}`)
    return { ok: 'Added.' }
  } catch (e) {
    return failure(e)
  }
}

export async function deleteCollectionAction(_: FormState, form: FormData): Promise<FormState> {
  const slug = text(form, 'slug')
  try {
    const caller = await requireCaller()
    await deleteCollection(caller, slug)
  } catch (e) {
    return failure(e)
  }
  redirect(`/${slug.split('/')[0]}`)
}
