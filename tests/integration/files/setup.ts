// Users, tokens and repos the file tests share, created through the hub's own modules.
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { createRepo } from '@/lib/hub/repos'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { issueToken } from '@/lib/auth/tokens'

export async function fileFixtures(prefix: string) {
  const owner = await createUser({ username: `${prefix}owner`, email: `${prefix}owner@test.dev`, password: 'password-owner' })
  const outsider = await createUser({ username: `${prefix}outsider`, email: `${prefix}outsider@test.dev`, password: 'password-outsider' })
  const org = await createOrg(owner.id, { name: `${prefix}org` })
  const session = { userId: owner.id, principal: null }
  const repo = await createRepo(session, { namespace: owner.username, name: 'files' })
  const other = await createRepo(session, { namespace: owner.username, name: 'other' })
  await createRepo(session, { namespace: owner.username, name: 'secret', private: true })
  await createRepo(session, { namespace: owner.username, name: 'gated', gated: true })
  await createRepo(session, { namespace: org.name, name: 'shared' })
  await createRepo(session, { type: 'dataset', namespace: owner.username, name: 'data' })
  // Another user's own repo, where that user may write.
  await createRepo({ userId: outsider.id, principal: null }, { namespace: outsider.username, name: 'mine' })
  void addMember
  const token = async (userId: string, role: 'read' | 'write', name: string) => (await createPersonalToken(userId, { name, role })).token
  return {
    owner: owner.username,
    org: org.name,
    outsider: outsider.username,
    repoId: repo.id,
    write: await token(owner.id, 'write', 'w'),
    read: await token(owner.id, 'read', 'r'),
    outsiderWrite: await token(outsider.id, 'write', 'ow'),
    // An OAuth token that may read the user's repos but not write them.
    oauthReadOnly: (await issueToken({ kind: 'oauth', userId: owner.id, role: 'oauth', scopes: ['openid', 'read-repos'] })).token,
    oauthWrite: (await issueToken({ kind: 'oauth', userId: owner.id, role: 'oauth', scopes: ['openid', 'write-repos'] })).token,
    // A trusted publisher's token for the owner's *other* repo.
    publisherOther: (await issueToken({ kind: 'publisher', userId: owner.id, role: 'publisher', repoId: other.id })).token,
    publisherThis: (await issueToken({ kind: 'publisher', userId: owner.id, role: 'publisher', repoId: repo.id })).token,
  }
}
