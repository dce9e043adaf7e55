// userWithMemberships is a hand-written join (one statement instead of Prisma's three); it must
// answer what Prisma's nested include answers, on SQLite and on PostgreSQL alike.
import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { userWithMemberships } from '@/lib/hub/identity'

async function viaPrisma(userId: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, include: { memberships: { include: { org: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } } })
  return {
    id: user.id,
    username: user.username,
    fullname: user.fullname,
    email: user.email,
    emailVerified: user.emailVerified,
    avatarUrl: user.avatarUrl,
    website: user.website,
    isPro: user.isPro,
    memberships: user.memberships.map((m) => ({
      orgId: m.orgId,
      role: m.role,
      org: { id: m.org.id, name: m.org.name, fullname: m.org.fullname, avatarUrl: m.org.avatarUrl, plan: m.org.plan, canPay: m.org.canPay },
    })),
  }
}

describe('userWithMemberships', () => {
  it('equals the Prisma include for a user with organizations, and for one with none', async () => {
    const owner = await createUser({ username: 'hotjoin', email: 'hotjoin@test.dev', password: 'hot-join-pass' }, { emailVerified: true, isPro: true })
    const member = await createUser({ username: 'hotjoin2', email: 'hotjoin2@test.dev', password: 'hot-join-pass' })
    const first = await createOrg(owner.id, { name: 'hotjoin-one', fullname: 'Hot One' })
    const second = await createOrg(member.id, { name: 'hotjoin-two' })
    await addMember(second.id, 'hotjoin', 'write')
    await db.org.update({ where: { id: second.id }, data: { canPay: true, plan: 'enterprise', avatarUrl: 'https://img.example/two.png' } })
    await db.user.update({ where: { id: owner.id }, data: { website: 'https://hotjoin.example', avatarUrl: null } })
    const joined = await userWithMemberships(owner.id)
    expect(joined).toEqual(await viaPrisma(owner.id))
    expect(joined!.memberships.map((m) => [m.org.name, m.role])).toEqual([
      ['hotjoin-one', 'admin'],
      ['hotjoin-two', 'write'],
    ])
    const loner = await createUser({ username: 'hotjoin3', email: 'hotjoin3@test.dev', password: 'hot-join-pass' })
    expect(await userWithMemberships(loner.id)).toEqual({ ...(await viaPrisma(loner.id)), memberships: [] })
    expect(await userWithMemberships('no-such-user')).toBeNull()
  })
})
