// The id_token signing keys: RS256, generated on first use, stored in SigningKey with the private
// JWK encrypted under a key derived from authSecret(). Rotation makes a new key the signing key and
// keeps the old ones in the JWKS for a while, so id_tokens they signed still verify.
import { processState } from '@/lib/config/process-state'
import { createCipheriv, createDecipheriv, createPrivateKey, hkdfSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { calculateJwkThumbprint, compactVerify, createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from 'jose'
import { db } from '@/lib/db'
import { authSecret } from '@/lib/config'

export const SIGNING_ALG = 'RS256'
/** Retired keys stay published this long: well past the lifetime of any id_token they signed. */
const RETIRED_KEY_PUBLISHED_MS = 7 * 24 * 3600 * 1000
/** Other instances may rotate; a process re-reads the signing key this often. */
const CACHE_MS = 60_000

function encryptionKey(): Buffer {
  return Buffer.from(hkdfSync('sha256', authSecret(), 'modhub', 'oauth signing key encryption v1', 32))
}

function encrypt(plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.')
}

/**
 * A stored signing key this process cannot decrypt: it was stored by a process with another
 * AUTH_SECRET (an instance or a `keys:rotate` run configured differently, or a secret changed).
 * The message says so, where "Unsupported state or unable to authenticate data" said nothing.
 */
export class SigningKeyUnreadable extends Error {
  constructor(readonly kid: string) {
    super(
      `The OpenID Connect signing key ${kid} cannot be decrypted with this process's AUTH_SECRET: every instance of the hub, ` +
        'and `npm run keys:rotate`, must run with the AUTH_SECRET the key was stored with (if the secret was changed on purpose, ' +
        'run `npm run keys:rotate -- --force` with the new one on every instance).',
    )
    this.name = 'SigningKeyUnreadable'
  }
}

function decrypt(kid: string, stored: string): string {
  const [version, iv, body, tag] = stored.split('.')
  if (version !== 'v1' || !iv || !body || !tag) throw new Error('SigningKey.privateJwk is not in the v1 format')
  try {
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
  } catch {
    throw new SigningKeyUnreadable(kid)
  }
}

export type SigningKey = { kid: string; privateKey: KeyObject }

async function createKey(): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true, modulusLength: 2048 })
  const publicJwk = await exportJWK(publicKey)
  const kid = await calculateJwkThumbprint(publicJwk)
  await db.signingKey.create({
    data: {
      kid,
      alg: SIGNING_ALG,
      publicJwk: JSON.stringify({ ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' }),
      privateJwk: encrypt(JSON.stringify(await exportJWK(privateKey))),
    },
  })
  return kid
}

// One per process (lib/config/process-state): a rotation by any copy of this module (a server
// action, a script in the process) reaches the token route's copy at once.
const keyCache = processState('signingKey', () => ({ cached: null as { key: SigningKey; at: number } | null, creating: null as Promise<string> | null }))

/** The key that signs new id_tokens: the newest one not retired, created on first use. */
export async function signingKey(): Promise<SigningKey> {
  const { cached } = keyCache
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.key
  let row = await db.signingKey.findFirst({ where: { retiredAt: null }, orderBy: { createdAt: 'desc' } })
  if (!row) {
    // One creation per process at a time; two instances racing just leave two keys, both published.
    keyCache.creating ??= createKey().finally(() => (keyCache.creating = null))
    const kid = await keyCache.creating
    row = await db.signingKey.findUniqueOrThrow({ where: { kid } })
  }
  const privateKey = createPrivateKey({ key: JSON.parse(decrypt(row.kid, row.privateJwk)) as JWK & { kty: string }, format: 'jwk' })
  keyCache.cached = { key: { kid: row.kid, privateKey }, at: Date.now() }
  return keyCache.cached.key
}

/**
 * A compact JWS (RFC 7515) of `claims`, RS256 with the signing key, signed by node:crypto in libuv's
 * thread pool (sign's callback form). jose's WebCrypto path cost a third more CPU per id_token, and
 * the RSA operation, about a sixth of a code exchange's CPU, then runs beside the event loop: at 16
 * requests in flight the token endpoint answered 25-40% more exchanges than signing on the loop
 * (bench/oauth/RESULTS.md).
 */
export async function signJwt(claims: Record<string, unknown>): Promise<string> {
  const { kid, privateKey } = await signingKey()
  const header = Buffer.from(JSON.stringify({ alg: SIGNING_ALG, kid, typ: 'JWT' })).toString('base64url')
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url')
  const signature = await new Promise<Buffer>((resolve, reject) =>
    sign('sha256', Buffer.from(`${header}.${payload}`), privateKey, (error, signed) => (error ? reject(error) : resolve(signed))),
  )
  return `${header}.${payload}.${signature.toString('base64url')}`
}

/**
 * Throws SigningKeyUnreadable when the current signing key exists and this process cannot decrypt
 * it (its AUTH_SECRET is not the one the key was stored with); checked when a server starts.
 */
export async function checkSigningKeyReadable(): Promise<void> {
  const row = await db.signingKey.findFirst({ where: { retiredAt: null }, orderBy: { createdAt: 'desc' } })
  if (row) decrypt(row.kid, row.privateJwk)
}

/**
 * A new signing key; the previous ones are retired and stay published for verification. Refused
 * (SigningKeyUnreadable) when this process cannot read the current key: run with another
 * AUTH_SECRET than the servers', it would leave them a key they cannot use. `force`: the secret
 * was changed on purpose, and the servers run with the new one.
 */
export async function rotateSigningKey({ force = false } = {}): Promise<string> {
  if (!force) await checkSigningKeyReadable()
  const kid = await createKey()
  await db.signingKey.updateMany({ where: { retiredAt: null, kid: { not: kid } }, data: { retiredAt: new Date() } })
  keyCache.cached = null
  return kid
}

/** The public keys for /oauth/jwks: the signing key and recently retired ones. */
export async function jwks(): Promise<{ keys: JWK[] }> {
  await signingKey()
  const rows = await db.signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: new Date(Date.now() - RETIRED_KEY_PUBLISHED_MS) } }] },
    orderBy: { createdAt: 'desc' },
  })
  return { keys: rows.map((r) => JSON.parse(r.publicJwk) as JWK) }
}

/**
 * The claims of a JWT that one of the hub's published keys signed (those of jwks: the signing key
 * and recently retired ones), whatever its dates say; null when it is none (malformed, another key
 * or algorithm, a payload that is no JSON object). For an id_token_hint, which may have expired.
 */
export async function hubSignedClaims(token: string): Promise<Record<string, unknown> | null> {
  const keys = createLocalJWKSet(await jwks())
  try {
    const { payload } = await compactVerify(token, keys, { algorithms: [SIGNING_ALG] })
    const claims: unknown = JSON.parse(new TextDecoder().decode(payload))
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : null
  } catch {
    return null
  }
}
