// Validation errors as forms show them: the field named in words, each problem once, no raw
// field-name prefixes (`name:`, `claims:`, `password:`).
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HubError, formFieldMessages, formMessage, zodMessage } from '@/lib/http/errors'
import { formFailure } from '@/lib/http/form'
import { appInput } from '@/lib/oauth/clients/apps'

function issuesOf(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value)
  if (result.success) throw new Error('expected a failure')
  return result.error
}

describe('formMessage', () => {
  it('names the field in words', () => {
    const error = issuesOf(z.object({ name: z.string().min(1, 'must not be empty'), avatarUrl: z.string().url('must be a URL') }), { name: '', avatarUrl: 'x' })
    expect(formMessage(error)).toBe('Name must not be empty. Avatar URL must be a URL.')
    expect(zodMessage(error)).toBe('name: must not be empty; avatarUrl: must be a URL')
  })

  it('uses the innermost named field (a claim, not "claims")', () => {
    const error = issuesOf(z.object({ claims: z.record(z.string(), z.string().min(1, 'claim value must not be empty')) }), { claims: { repository: '' } })
    expect(formMessage(error)).toBe('Repository claim value must not be empty.')
  })

  it('keeps messages written as sentences, and says each one once', () => {
    const schema = z.object({ password: z.string(), scopes: z.array(z.string()) }).refine((v) => v.scopes.length > 0, { message: 'A fine-grained token needs at least one scope', path: ['scopes'] })
    expect(formMessage(issuesOf(schema, { password: 'x', scopes: [] }))).toBe('A fine-grained token needs at least one scope.')
    const repeated = new z.ZodError([
      { code: 'custom', message: 'must not be empty', path: ['name'], input: '' },
      { code: 'custom', message: 'must not be empty', path: ['name'], input: '' },
    ])
    expect(formMessage(repeated)).toBe('Name must not be empty.')
  })

  it('the password field as people read it', () => {
    const error = issuesOf(z.object({ password: z.string().min(8, 'must be at least 8 characters') }), { password: 'short' })
    expect(formMessage(error)).toBe('Password must be at least 8 characters.')
    expect(formMessage(error)).not.toMatch(/password:/)
  })
})

describe('formFieldMessages', () => {
  it('gives each top-level field its first problem as a sentence, under the field\'s own name', () => {
    const schema = z.object({ email: z.string().email('must be a valid e-mail address'), password: z.string().min(8, 'must be at least 8 characters').max(9, 'too long'), claims: z.record(z.string(), z.string().min(1, 'must not be empty')) })
    const result = schema.safeParse({ email: 'x', password: 'short', claims: { ref: '' } })
    expect(result.success).toBe(false)
    const fields = formFieldMessages(result.error!)
    expect(Object.keys(fields).sort()).toEqual(['claims', 'email', 'password'])
    expect(fields.email).toMatch(/e-mail address\.$/)
    expect(fields.password).toMatch(/at least 8 characters\.$/)
    // A nested problem goes to its top-level field, named by the innermost name.
    expect(fields.claims).toBe('Ref must not be empty.')
  })
})

describe('formFailure', () => {
  it('keeps apart the problems no field carries, for the summary to say in full', () => {
    const schema = z
      .object({ email: z.string().email('must be a valid e-mail address'), password: z.string().min(8, 'must be at least 8 characters').regex(/\d/, 'must contain a digit') })
      .refine((v) => v.password !== v.email, 'The password must differ from the e-mail address.')
    const state = formFailure(issuesOf(schema, { email: 'x', password: 'x' }))!
    expect(state.fields).toEqual({ email: 'E-mail must be a valid e-mail address.', password: 'Password must be at least 8 characters.' })
    // The password's second problem and the form-level one: not at a field.
    expect(state.unfielded).toBe('Password must contain a digit. The password must differ from the e-mail address.')
    expect(state.error).toBe('E-mail must be a valid e-mail address. Password must be at least 8 characters. Password must contain a digit. The password must differ from the e-mail address.')
  })

  it('has nothing unfielded when every problem is at its field, and no fields for a refusal', () => {
    const state = formFailure(issuesOf(z.object({ name: z.string().min(1, 'must not be empty') }), { name: '' }))!
    expect(state).toEqual({ error: 'Name must not be empty.', fields: { name: 'Name must not be empty.' } })
    expect(formFailure(new HubError(409, 'That name is taken.'))).toEqual({ error: 'That name is taken.' })
  })

  it('words an app without redirect URIs as a sentence of its own (it read "Redirect URIs list at least one redirect URI.")', () => {
    const state = formFailure(appInput.safeParse({ name: 'App', redirectUris: [] }).error!)!
    expect(state.fields).toEqual({ redirectUris: 'Give at least one redirect URI.' })
  })

  it('says a row deleted by another request meanwhile (Prisma P2025) is gone; any other error is rethrown', () => {
    const gone = Object.assign(new Error('No record was found for a delete.'), { code: 'P2025' })
    expect(formFailure(gone)?.error).toMatch(/^It was deleted meanwhile/)
    // A findUniqueOrThrow's P2025 is a broken invariant (a bug), not someone else's delete.
    const invariant = Object.assign(new Error('No record was found for a query.'), { code: 'P2025' })
    expect(() => formFailure(invariant)).toThrow('No record was found for a query.')
    expect(() => formFailure(new Error('a bug'))).toThrow('a bug')
  })
})
