import { afterEach, describe, expect, it, vi } from 'vitest'
import { CredentialsSignin, JWTSessionError, MissingCSRF, AdapterError } from '@auth/core/errors'
import { authLogger } from '@/lib/auth/auth-log'

afterEach(() => vi.restoreAllMocks())

describe('authLogger', () => {
  it('logs what a client causes (an unreadable session cookie, a form without CSRF) as one line, without the stack, and a refused sign-in not again', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    // As Auth.js logs it for a cookie it cannot decrypt (lib/actions/session.js: `new JWTSessionError(e)`, jose's error
    // wrapped as cause.err); its declared constructor takes a string, its code an Error too.
    const wrap = JWTSessionError as unknown as new (error: Error) => JWTSessionError
    const cookie = new wrap(new Error('Invalid Compact JWE\n    at decrypt (jose)'))
    for (const e of [cookie, new MissingCSRF('CSRF token was missing'), new CredentialsSignin()]) authLogger.error!(e)
    expect(error).not.toHaveBeenCalled()
    expect(warn.mock.calls.map((call) => call.join(' '))).toEqual([
      '[auth] JWTSessionError: Invalid Compact JWE',
      '[auth] MissingCSRF: CSRF token was missing. Read more at https://errors.authjs.dev#missingcsrf',
    ])
    expect(warn.mock.calls.every((call) => !String(call[0]).includes('\n'))).toBe(true)
  })

  it('logs anything else whole, with its stack and cause', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const failure = new AdapterError('database down')
    authLogger.error!(failure)
    expect(error).toHaveBeenCalledWith('[auth]', failure)
  })
})
