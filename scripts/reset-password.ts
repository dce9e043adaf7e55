// For someone who lost their password (the hub sends no e-mail), the operator's own included:
// `npm run users:reset-password -- NAME_OR_EMAIL` sets a new password (HUB_NEW_PASSWORD, else a
// random one printed once) and ends every browser session of that account. Their access tokens and
// authorized apps keep working.
import './load-env'
import { resetPassword } from '@/lib/hub/users'

const login = process.argv.slice(2).find((arg) => !arg.startsWith('-'))
if (!login) {
  console.error('usage: npm run users:reset-password -- NAME_OR_EMAIL (the new password from HUB_NEW_PASSWORD, else a random one)')
  process.exit(2)
}
const chosen = process.env.HUB_NEW_PASSWORD || undefined

resetPassword(login, chosen)
  .then(({ username, password }) => {
    console.log(`password of ${username} reset${chosen ? ' to HUB_NEW_PASSWORD' : `: ${password} (shown once: hand it over safely)`}; their sessions are ended`)
    process.exit(0)
  })
  .catch((error: unknown) => {
    const e = error as { message?: string; issues?: { message: string }[] }
    console.error(`not reset: ${e.issues ? `HUB_NEW_PASSWORD ${e.issues.map((i) => i.message).join('; ')}` : (e.message ?? String(error))}`)
    process.exit(1)
  })
