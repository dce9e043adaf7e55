import { describe, expect, it } from 'vitest'
import { CHECKS } from '@/lib/moderation/checks'
import { moderationOpenApi } from '@/lib/moderation/api/openapi'
import { BASE, makeHandler, post } from './helpers'

type Schema = Record<string, any>
const document = moderationOpenApi({ hubUrl: 'https://hub.test', limits: { maxBodyBytes: 4096, maxTextLength: 500, maxListItems: 5 } })

/** Checks a value against the JSON Schema subset the document uses; returns the first mismatch. */
function mismatch(schema: Schema, value: unknown, at = '$'): string | null {
  if (schema.$ref) return mismatch(document.components.schemas[schema.$ref.split('/').pop()!] as Schema, value, at)
  if (schema.anyOf) return schema.anyOf.some((s: Schema) => mismatch(s, value, at) === null) ? null : `${at}: no anyOf branch`
  if (schema.enum && !schema.enum.includes(value)) return `${at}: not in enum`
  const types: string[] = schema.type === undefined ? [] : [schema.type].flat()
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v)
  if (types.length && !types.some((t) => t === typeOf(value) || (t === 'number' && typeOf(value) === 'integer'))) {
    return `${at}: ${typeOf(value)} is not ${types.join('|')}`
  }
  if (Array.isArray(value)) {
    if (schema.prefixItems) {
      if (schema.items === false && value.length !== schema.prefixItems.length) return `${at}: tuple length ${value.length}`
      for (const [i, s] of schema.prefixItems.entries()) {
        const m = mismatch(s, value[i], `${at}[${i}]`)
        if (m) return m
      }
    } else if (schema.items) {
      for (const [i, item] of value.entries()) {
        const m = mismatch(schema.items, item, `${at}[${i}]`)
        if (m) return m
      }
    }
  } else if (value && typeof value === 'object') {
    for (const key of schema.required ?? []) if (!(key in value)) return `${at}.${key}: missing`
    for (const [key, item] of Object.entries(value)) {
      const property = schema.properties?.[key]
      if (!property && schema.additionalProperties === false) return `${at}.${key}: not allowed`
      if (property) {
        const m = mismatch(property, item, `${at}.${key}`)
        if (m) return m
      }
    }
  }
  return null
}

describe('OpenAPI document', () => {
  it('declares the spec: version, my_auth authorization code at the hub dialog, scopes, every operation', () => {
    expect(document.info.version).toBe('0.0.1')
    expect(document.security).toEqual([{ my_auth: ['write:users', 'read:users'] }])
    const flow = document.components.securitySchemes.my_auth.flows.authorizationCode
    expect(flow.authorizationUrl).toBe('https://hub.test/api/oauth/dialog')
    expect(Object.keys(flow.scopes).sort()).toEqual(['read:users', 'write:users'])
    expect(Object.keys(document.paths)).toHaveLength(10)
    for (const endpoint of CHECKS) {
      const operation = document.paths[`/rai/v1/raimoderationmodels/${endpoint.path}`].post
      expect(operation.security).toEqual([{ my_auth: ['write:users'] }])
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422']))
    }
  })

  it("has the spec's request schemas with their defaults", () => {
    const schemas = document.components.schemas as Record<string, Schema>
    for (const name of ['detoxifyRequest', 'privacyRequest', 'SentimentRequest', 'JailbreakRequest', 'RestrictedTopicRequest', 'SimilarityRequest', 'InvisibleTextRequest', 'GibberishTextRequest']) {
      expect(schemas[name], name).toBeDefined()
    }
    expect(schemas.detoxifyRequest.required).toEqual(['text'])
    expect(schemas.JailbreakRequest.properties.text.type).toBe('array')
    expect(schemas.RestrictedTopicRequest.properties.labels.default).toEqual(['Terrorism', 'Explosives'])
    expect(schemas.InvisibleTextRequest.properties.banned_categories.default).toEqual(['Cf', 'Co', 'Cn', 'So', 'Sc'])
    expect(schemas.GibberishTextRequest.properties.labels.default).toEqual(['word salad', 'noise', 'mild gibberish', 'clean'])
    expect(schemas.SimilarityRequest.required ?? []).toEqual([])
    expect(schemas.profanityScore.required).toEqual(['metricName', 'metricScore'])
    expect(schemas.HTTPValidationError.properties.detail.items.$ref).toBe('#/components/schemas/ValidationError')
  })

  it("every endpoint's real answers (200 and errors) match the document", async () => {
    const handler = makeHandler()
    for (const endpoint of CHECKS) {
      const operation = document.paths[`/rai/v1/raimoderationmodels/${endpoint.path}`].post
      const examples: unknown[] = [endpoint.example, {}, '{bad']
      for (const body of examples) {
        const { status, json } = await post(handler, endpoint.path, body)
        const schema = operation.responses[String(status) as keyof typeof operation.responses].content['application/json'].schema
        expect(mismatch(schema, json), `${endpoint.path} ${status}`).toBeNull()
      }
      expect(mismatch(operation.requestBody.content['application/json'].schema, endpoint.example)).toBeNull()
    }
    for (const [status, headers] of [[401, {}], [403, { Authorization: 'Bearer reader' }]] as const) {
      const { json } = await post(handler, 'sentimentmodel', { text: 'a' }, headers)
      const operation = document.paths['/rai/v1/raimoderationmodels/sentimentmodel'].post
      expect(mismatch(operation.responses[String(status) as '401'].content['application/json'].schema, json)).toBeNull()
    }
    // A JSON body that is not UTF-8: FastAPI's 400, documented on every check.
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d])
    const notUtf8 = await handler(new Request(`${BASE}/sentimentmodel`, { method: 'POST', headers: { Authorization: 'Bearer writer', 'Content-Type': 'application/json' }, body: bytes }), 'sentimentmodel')
    expect(notUtf8.status).toBe(400)
    const operation = document.paths['/rai/v1/raimoderationmodels/sentimentmodel'].post
    expect(mismatch(operation.responses['400'].content['application/json'].schema, await notUtf8.json())).toBeNull()
  })
})
