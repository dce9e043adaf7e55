// The hub's runtime settings (one table in ./settings) and the two that are derived from others.
import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { setting } from '@/lib/config/settings'

export { setting, settingProblems, SETTINGS, SettingError, type SettingName } from '@/lib/config/settings'

/** The hub's public origin (issuer, links in e-mails and documents). */
export function hubUrl(): string {
  // AUTH_URL is next-auth's name for the same origin; HUB_URL wins when both are set.
  return (setting('HUB_URL') || process.env.AUTH_URL || `http://localhost:${setting('PORT')}`).replace(/\/+$/, '')
}

/**
 * The secret that signs sessions and encrypts signing keys. AUTH_SECRET wins; a fresh clone gets a
 * random one, kept in data/ (outside the web root) so sessions survive restarts. Several instances
 * behind a load balancer must share AUTH_SECRET.
 */
export function authSecret(): string {
  const configured = setting('AUTH_SECRET')
  if (configured) return configured
  const file = path.resolve(process.cwd(), 'data', 'auth-secret')
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    const secret = randomBytes(32).toString('base64url')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    try {
      fs.writeFileSync(file, secret, { flag: 'wx', mode: 0o600 })
      return secret
    } catch {
      return fs.readFileSync(file, 'utf8').trim() // another process wrote it first
    }
  }
}
