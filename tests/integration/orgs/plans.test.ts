// An organization admin picks the plan; a paid plan needs the payment method the hub operator records.
import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { choosePlan, createOrg, setBilling } from '@/lib/hub/orgs'

describe('choosing a plan', () => {
  it('a paid plan needs a payment method on file; the current plan may be kept and free is always open', async () => {
    const admin = await createUser({ username: 'plan-admin', email: 'plan-admin@test.dev', password: 'password-plan' })
    const created = await createOrg(admin.id, { name: 'plan-org' })
    const org = () => db.org.findUniqueOrThrow({ where: { id: created.id } })
    for (const paid of ['team', 'enterprise']) {
      await expect(choosePlan(await org(), paid)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/needs a payment method on file/) })
    }
    expect((await org()).plan).toBe('free')
    // With a payment method, a paid plan; without one again, that plan is kept, another paid one refused, free open.
    await setBilling(created.id, { plan: 'free', canPay: true })
    expect((await choosePlan(await org(), 'team')).plan).toBe('team')
    await setBilling(created.id, { plan: 'team', canPay: false })
    expect((await choosePlan(await org(), 'team')).plan).toBe('team')
    await expect(choosePlan(await org(), 'enterprise')).rejects.toMatchObject({ status: 400 })
    expect((await choosePlan(await org(), 'free')).plan).toBe('free')
    await expect(choosePlan(await org(), 'platinum')).rejects.toThrow()
  })
})
