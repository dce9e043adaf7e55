// Signing out ends the session, not only this browser's copy of it. A session is a signed cookie
// (next-auth's JWT strategy), valid by itself until it expires (30 days): a copy taken before
// sign-out (a shared computer, a stolen cookie) went on working. Each session now carries an id
// (sid), and signing out records it here until the session would have expired; lib/auth/nextauth
// refuses a recorded one on every request.
//
// A password change (or reset, sign out everywhere, an operator disabling the account) ends every
// session of the account signed in before it, which no one holds the ids of: the account records
// the moment (User.sessionsValidFrom), and a session signed in earlier is over. Both are kept to
// the millisecond: a browser signed in within the same second as the change is still ended, while
// the session the changing browser signs in with just after it is not.
//
// Every signed-in request asks, so answers are kept in process memory: "ended" for good, "not
// ended" and an account's moment for SESSION_CHECK_SECONDS. A sign-out or password change through
// this instance is seen here at once; through another instance, within those seconds (README
// "Several instances").
import { db } from '@/lib/db'
import { processState } from '@/lib/config/process-state'

export const SESSION_CHECK_SECONDS = 5
const MAX_REMEMBERED = 10_000

const known = processState('endedSessions', () => new Map<string, { ended: boolean; until: number }>())
const validFrom = processState('sessionsValidFrom', () => new Map<string, { from: number; until: number }>())

function remember(sid: string, ended: boolean) {
  if (known.size >= MAX_REMEMBERED) known.delete(known.keys().next().value!)
  known.set(sid, { ended, until: ended ? Infinity : Date.now() + SESSION_CHECK_SECONDS * 1000 })
}

/** Whether the session `sid` was signed out. */
export async function sessionEnded(sid: string): Promise<boolean> {
  const cached = known.get(sid)
  if (cached && cached.until > Date.now()) return cached.ended
  const ended = (await db.endedSession.findUnique({ where: { sid }, select: { sid: true } })) !== null
  remember(sid, ended)
  return ended
}

/** Records a signed-out session until `expiresAt` (when its cookie would have expired anyway). */
export async function endSession(sid: string, expiresAt: Date): Promise<void> {
  remember(sid, true)
  await db.endedSession.upsert({ where: { sid }, create: { sid, expiresAt }, update: {} })
  // Now and then, the records of sessions that have expired since (each sign-out pays a little).
  if (Math.random() < 0.01) await db.endedSession.deleteMany({ where: { expiresAt: { lt: new Date() } } })
}

/** Since when (epoch milliseconds) the user's sessions are valid: 0 when none were ever ended. */
async function sessionsValidFrom(userId: string): Promise<number> {
  const cached = validFrom.get(userId)
  if (cached && cached.until > Date.now()) return cached.from
  const user = await db.user.findUnique({ where: { id: userId }, select: { sessionsValidFrom: true } })
  const from = user?.sessionsValidFrom?.getTime() ?? 0
  if (validFrom.size >= MAX_REMEMBERED) validFrom.delete(validFrom.keys().next().value!)
  validFrom.set(userId, { from, until: Date.now() + SESSION_CHECK_SECONDS * 1000 })
  return from
}

/** Whether a session of the user signed in at `signedInAt` (epoch ms; none in old sessions) predates the moment its sessions were ended. */
export async function sessionSuperseded(userId: string, signedInAt: number | undefined): Promise<boolean> {
  const from = await sessionsValidFrom(userId)
  return from > 0 && !(signedInAt !== undefined && signedInAt >= from)
}

/** After the user's sessions were ended at `from` (as stored): this instance ends older sessions at once. */
export function sessionsSupersededBefore(userId: string, from: Date): void {
  validFrom.set(userId, { from: from.getTime(), until: Date.now() + SESSION_CHECK_SECONDS * 1000 })
}

/** Ends every browser session of the user signed in before now (Settings > Password: sign out everywhere). */
export async function endEverySession(userId: string): Promise<void> {
  const from = new Date()
  await db.user.update({ where: { id: userId }, data: { sessionsValidFrom: from } })
  sessionsSupersededBefore(userId, from)
}
