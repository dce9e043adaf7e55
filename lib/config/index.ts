// Settings read from the environment, with the defaults a fresh clone runs on.
import fs from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'

/** The hub's public origin (issuer, links in e-mails and documents). */
export function hubUrl(): string {
  return (process.env.HUB_URL || process.env.AUTH_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, '')
}

/**
 * The secret that signs sessions and encrypts signing keys. AUTH_SECRET wins; a fresh clone gets a
 * random one, kept in data/ (outside the web root) so sessions survive restarts. Several instances
 * behind a load balancer must share AUTH_SECRET.
 */
export function authSecret(): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET
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

export function intSetting(name: string, fallback: number): number {
  const raw = process.env[name]
  const value = raw === undefined || raw === '' ? NaN : Number(raw)
  return Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback
}
