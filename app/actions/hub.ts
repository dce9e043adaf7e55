'use server'
// Server actions behind the hub's forms. Each one: who is signed in, parse, call lib/, report.
// Next checks that server-action POSTs come from our own origin (CSRF).
import { revalidatePath } from 'next/cache'
import { redirect } from 'next/navigation'
import { headers } from 'next/headers'
import { clientIp } from '@/lib/ratelimit'
import { sessionCaller } from '@/lib/auth/caller'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { revokeToken } from '@/lib/auth/tokens'
import { updateProfile } from '@/lib/hub/users'
import { authorizedOrg, changeMember, choosePlan, createOrg, leaveOrg, roleInOrg, userToAdd } from '@/lib/hub/orgs'
import { answerInvitation, cancelInvitation, inviteMember } from '@/lib/hub/invitations'
import { decideGatedAccess, requestGatedAccess, updateRepoSettings } from '@/lib/hub/repos'
import { createRepoWithFiles, deleteRepoWithFiles, initialOperations } from '@/lib/hub/files'
import { addToCollection, createCollection, deleteCollection, removeFromCollection } from '@/lib/hub/collections'
import { repoPath, type RepoType } from '@/lib/hub/names'
import { HubError, notFound, unauthorized } from '@/lib/http/errors'
import { answerForm, text, type FormState } from '@/lib/http/form'

async function requireCaller() {
  const caller = await sessionCaller()
  if (!caller) throw unauthorized('Sign in first')
  return caller
}

export async function updateProfileAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    await updateProfile(caller.userId, { fullname: text(form, 'fullname'), email: text(form, 'email'), website: text(form, 'website'), avatarUrl: text(form, 'avatarUrl') })
    revalidatePath('/settings/profile')
    return { ok: 'Profile saved.' }
  })
}

export async function createTokenAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const expiry = text(form, 'expiresInDays')
    const { token } = await createPersonalToken(caller.userId, {
      name: text(form, 'name'),
      role: text(form, 'role') as 'read',
      scopes: form.getAll('scopes').filter((s): s is string => typeof s === 'string') as [],
      expiresInDays: expiry === '' || expiry === 'never' ? null : Number(expiry),
    })
    revalidatePath('/settings/tokens')
    return { ok: `Token "${text(form, 'name').trim()}" created.`, secret: token }
  })
}

export async function revokeTokenAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    if (!(await revokeToken(caller.userId, text(form, 'tokenId')))) throw notFound('No such token')
    revalidatePath('/settings/tokens')
    return { ok: 'Token revoked.' }
  })
}

export async function createOrgAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const name = (await createOrg(caller.userId, { name: text(form, 'name'), fullname: text(form, 'fullname') })).name
    redirect(`/organizations/${name}/settings`)
  })
}

/** The signed-in admin of the form's organization, and who they are for the audit log. */
async function adminOf(form: FormData) {
  const caller = await requireCaller()
  const org = await authorizedOrg(caller, text(form, 'org'))
  return { org, actor: { userId: caller.userId, ip: clientIp(await headers()) } }
}

/** A refusal that concerns one field of the form: said under it (components/Field) and marked there. */
function refusedAt(field: string, message: string): FormState {
  const sentence = /[.!?]$/.test(message) ? message : `${message}.`
  return { error: sentence, fields: { [field]: sentence } }
}

/**
 * The admin's form: invites a user, or changes the role of someone who is a member already (as
 * lib/hub/invitations inviteMember does, deliberately). An unknown name, and the admin's own, are
 * refused at the Username field.
 */
export async function inviteMemberAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { org, actor } = await adminOf(form)
    const login = text(form, 'login').trim()
    const role = text(form, 'role')
    // Looked up here first (inviteMember looks again) so that "No user named …" is the field's problem.
    let user: Awaited<ReturnType<typeof userToAdd>>
    try {
      user = await userToAdd(login, 'Invite')
    } catch (error) {
      if (error instanceof HubError) return refusedAt('login', error.message)
      throw error
    }
    const before = await roleInOrg(user.id, org.id)
    // Inviting oneself would change one's own role (or, for the last admin, be refused as "An
    // organization needs at least one admin"): an admin is a member already.
    if (user.id === actor.userId && before) return refusedAt('login', 'You are already a member of this organization')
    const outcome = await inviteMember(org.id, login, role, actor)
    revalidatePath(`/organizations/${org.name}/settings`)
    if (outcome === 'invited') return { ok: `${login} is invited as ${role}. They become a member once they accept, in their Settings → Organizations.` }
    return { ok: before === role ? `${user.username} is a member already, as ${role}: nothing changed.` : `${user.username} is a member already: their role changed from ${before} to ${role}.` }
  })
}

export async function cancelInvitationAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { org, actor } = await adminOf(form)
    await cancelInvitation(org.id, text(form, 'invitationId'), actor)
    revalidatePath(`/organizations/${org.name}/settings`)
    return { ok: 'Invitation cancelled.' }
  })
}

/** The invited user's answer (Settings → Organizations): accept or decline. */
export async function answerInvitationAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const accept = text(form, 'answer') === 'accept'
    const org = await answerInvitation(caller.userId, text(form, 'org'), accept, clientIp(await headers()))
    // The header counts waiting invitations: the layout is drawn again too, not only the page.
    revalidatePath('/', 'layout')
    // The invitation (and this form in it) is gone from the page: the page says what happened.
    redirect(`/settings/organizations?${accept ? 'joined' : 'declined'}=${encodeURIComponent(org.name)}`)
  })
}

export async function changeMemberAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { org, actor } = await adminOf(form)
    const role = text(form, 'role')
    await changeMember(org.id, text(form, 'userId'), role === 'remove' ? null : role, actor)
    revalidatePath(`/organizations/${org.name}/settings`)
    return { ok: role === 'remove' ? 'Member removed.' : `Role changed to ${role}.` }
  })
}

export async function leaveOrgAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const name = text(form, 'org')
    if (form.get('confirm') !== 'yes') return { error: `Tick the box to confirm that you are leaving ${name}.` }
    const org = await leaveOrg(caller.userId, name, clientIp(await headers()))
    // The organization's row (and this form in it) is gone from the page: the page says it instead.
    redirect(`/settings/organizations?left=${encodeURIComponent(org.name)}`)
  })
}

export async function setPlanAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { org } = await adminOf(form)
    await choosePlan(org, text(form, 'plan'))
    revalidatePath(`/organizations/${org.name}/settings`)
    return { ok: 'Plan saved.' }
  })
}

export async function createRepoAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const type = text(form, 'type') as RepoType
    const license = text(form, 'license') || undefined
    // As through the API: a license, and a Space's title and SDK, are the first commit's model card.
    const operations = initialOperations(type, [], { license, space: type === 'space' ? { title: text(form, 'name'), sdk: 'static' } : undefined })
    const repo = await createRepoWithFiles(caller, {
      type,
      namespace: text(form, 'namespace'),
      name: text(form, 'name'),
      private: text(form, 'visibility') === 'private',
      gated: form.get('gated') === 'on',
      description: text(form, 'description'),
    }, operations)
    const path = repoPath(repo.type as RepoType, repo.namespace, repo.name)
    redirect(path)
  })
}

function repoRef(form: FormData) {
  return [text(form, 'type') as RepoType, text(form, 'namespace'), text(form, 'name')] as const
}

export async function repoSettingsAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const [type, namespace, name] = repoRef(form)
    await updateRepoSettings(caller, type, namespace, name, { private: text(form, 'visibility') === 'private', gated: form.get('gated') === 'on' })
    revalidatePath(repoPath(type, namespace, name))
    return { ok: 'Settings saved.' }
  })
}

export async function deleteRepoAction(_: FormState, form: FormData): Promise<FormState> {
  const [type, namespace, name] = repoRef(form)
  return answerForm(async () => {
    const caller = await requireCaller()
    if (text(form, 'confirm') !== `${namespace}/${name}`) return { error: `Type ${namespace}/${name} to confirm.` }
    await deleteRepoWithFiles(caller, type, namespace, name)
    // The owner's page says it (only while no such repository exists: app/[namespace]/page.tsx).
    redirect(`/${namespace}?deleted=${encodeURIComponent(repoPath(type, namespace, name).slice(1))}`)
  })
}

export async function requestAccessAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const [type, namespace, name] = repoRef(form)
    await requestGatedAccess(caller, type, namespace, name)
    revalidatePath(repoPath(type, namespace, name))
    return { ok: 'Access requested. The owner will review it.' }
  })
}

export async function decideAccessAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const status = text(form, 'decision') === 'accept' ? 'accepted' : 'rejected'
    await decideGatedAccess(caller, text(form, 'repoId'), text(form, 'userId'), status)
    const [type, namespace, name] = repoRef(form)
    revalidatePath(repoPath(type, namespace, name))
    revalidatePath('/settings/access-requests')
    return { ok: `Request ${status}.` }
  })
}

export async function createCollectionAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const slug = (await createCollection(caller, { namespace: text(form, 'namespace'), title: text(form, 'title'), description: text(form, 'description'), private: text(form, 'visibility') === 'private' })).slug
    // The owner's page lists its collections: a copy the browser kept must not miss the new one.
    revalidatePath(`/${slug.split('/')[0]}`)
    redirect(`/collections/${slug}`)
  })
}

export async function addToCollectionAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await requireCaller()
    const { added } = await addToCollection(caller, text(form, 'slug'), { item: { type: text(form, 'type') || 'model', id: text(form, 'repo').trim() }, note: text(form, 'note') })
    revalidatePath(`/collections/${text(form, 'slug')}`)
    const already = `${text(form, 'repo').trim()} is in this collection already`
    return { ok: added ? 'Added.' : text(form, 'note').trim() ? `${already}; its note is updated.` : `${already}.` }
  })
}

export async function removeFromCollectionAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    await removeFromCollection(await requireCaller(), text(form, 'slug'), text(form, 'itemId'))
    revalidatePath(`/collections/${text(form, 'slug')}`)
    return { ok: 'Removed.' }
  })
}

export async function deleteCollectionAction(_: FormState, form: FormData): Promise<FormState> {
  const slug = text(form, 'slug')
  return answerForm(async () => {
    const caller = await requireCaller()
    await deleteCollection(caller, slug)
    // The owner's page (where this goes) lists its collections, and a copy the browser kept from
    // before would still link to this one, whose page is now gone (a 404 when the link prefetches).
    const ownerPage = `/${slug.split('/')[0]}`
    revalidatePath(ownerPage)
    revalidatePath(`/collections/${slug}`)
    redirect(`${ownerPage}?deleted=${encodeURIComponent(`collections/${slug}`)}`)
  })
}
