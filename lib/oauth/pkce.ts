// PKCE (RFC 7636), S256 only: plain would give a code thief the verifier for free.
import { createHash } from 'node:crypto'
import { constantTimeEqual } from '@/lib/auth/secrets'

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/

export function isValidChallenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge)
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url')
}

export function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier)
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  return isValidVerifier(verifier) && constantTimeEqual(s256(verifier), challenge)
}
