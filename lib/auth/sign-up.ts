// New accounts from the join page. Each account brings fresh budgets of its own (tokens, apps, device codes, sign-in
// attempts) and costs a password hash, so one client address may open only so many an hour; input that is refused
// (invalid, a name or e-mail taken) does not count against it.
import type { z } from 'zod'
import { setting } from '@/lib/config'
import { HubError } from '@/lib/http/errors'
import { createUser, signUpInput } from '@/lib/hub/users'
import { addressKey, hit, refund } from '@/lib/ratelimit'

const WINDOW_SECONDS = 3600

export async function signUp(input: z.input<typeof signUpInput>, ip: string) {
  signUpInput.parse(input)
  const key = `signup:ip:${addressKey(ip)}`
  const now = Date.now()
  const limit = await hit(key, setting('SIGN_UPS_PER_ADDRESS'), WINDOW_SECONDS, now)
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60)
    throw new HubError(429, `Too many new accounts from your network; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, undefined, limit.retryAfterSeconds)
  }
  try {
    return await createUser(input)
  } catch (error) {
    await refund(key, WINDOW_SECONDS, now)
    throw error
  }
}
