// Two requests deleting the same thing at once (a double-click, a retried request, two instances):
// both read it, one deletes it, and the other's delete finds no row. That request answers 404, as
// it would a moment later, never a 500 (a review found Prisma's "record not found" unhandled).
import { beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '@/lib/hub/users'
import { createRepo } from '@/lib/hub/repos'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { DELETE as deleteRepoDELETE } from '@/app/api/repos/delete/route'

let token: string
let userId: string
beforeAll(async () => {
  userId = (await createUser({ username: 'deleter', email: 'deleter@test.dev', password: 'password-deleter' })).id
  token = (await createPersonalToken(userId, { name: 'api', role: 'write' })).token
})

describe('two deletes of one repo at once', () => {
  it('one answers 200 and the other 404 with a JSON error, in every round', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `doomed-${round}`
      await createRepo({ userId, principal: null }, { namespace: 'deleter', name })
      const del = () =>
        deleteRepoDELETE(new Request('http://hub.test/api/repos/delete', { method: 'DELETE', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name, type: 'model' }) }))
      const answers = await Promise.all([del(), del()])
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses, `round ${round}`).toEqual([200, 404])
      for (const a of answers.filter((a) => a.status === 404)) expect((await a.json()).error).toMatch(/not found/i)
    }
  })
})
