import { z } from 'zod'
import { CHECKS, modelsPullName } from '@/lib/moderation/checks'
import { errorSchemas, requestSchemas, responseSchemas } from './schemas'
import type { ModerationLimits } from './settings'

export const MODERATION_BASE_PATH = '/rai/v1/raimoderationmodels'

type JsonSchema = Record<string, unknown>

/** Components from a set of zod schemas; nested schemas of the same set become $refs. */
function components(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>()
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id })
  const { schemas: generated } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` })
  return Object.fromEntries(
    Object.entries(generated).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema
      return [id, rest]
    }),
  )
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const json = (id: string) => ({ 'application/json': { schema: ref(id) } })

/**
 * The OpenAPI 3.1 document of the moderation API, generated from the schemas the handlers
 * validate with: the spec's request schemas, security (`my_auth`, authorization code at the hub's
 * dialog), error bodies, plus the 200 bodies the endpoints actually return.
 */
export function moderationOpenApi(options: { hubUrl: string; limits: ModerationLimits }) {
  const paths = Object.fromEntries(
    CHECKS.map((check) => [
      `${MODERATION_BASE_PATH}/${check.path}`,
      {
        post: {
          summary: check.summary,
          operationId: `${check.path.replace(/[^A-Za-z0-9]+/g, '_')}_post`,
          security: [{ my_auth: ['write:users'] }],
          ...(() => {
            const parameters = [
              ...(check.openApiParameters ?? []),
              // Not in the toolkit's spec: a model repo of this hub the caller picks, read with their own access.
              ...(modelsPullName(check) !== null
                ? [{ name: 'model', in: 'query', required: false, description: 'Run this request on model repo `namespace/name[@revision]` of this hub instead of the configured one (read with your access; 404 when you cannot read it)', schema: { type: 'string' } }]
                : []),
            ]
            return parameters.length > 0 ? { parameters } : {}
          })(),
          requestBody: { required: true, content: { 'application/json': { schema: ref(check.request.name), example: check.example } } },
          responses: {
            '200': { description: 'Successful Response', content: json(check.response.name) },
            '400': { description: 'There was an error parsing the body: a JSON body (Content-Type application/json, or none) that is not valid UTF-8', content: json('HTTPError') },
            '401': { description: 'Unauthorized access', content: json('HTTPUnauthorizedAccessError') },
            '403': { description: 'Forbidden access', content: json('HTTPForbiddenAccessError') },
            '413': { description: 'Request body too large, or more text than the characters a caller may send per minute', content: json('HTTPError') },
            '404': { description: 'The model repo picked with ?model= does not exist or you cannot read it (the checks that run a model)', content: json('HTTPError') },
            '422': { description: 'Validation Error (a body whose Content-Type is not JSON too: `model_attributes_type` at `["body"]`)', content: json('HTTPValidationError') },
            '429': { description: 'Rate limit exceeded: requests or characters of text per minute (see Retry-After)', content: json('HTTPError') },
            '503': { description: 'The check has no engine installed, or its engine failed', content: json('HTTPError') },
          },
        },
      },
    ]),
  )
  return {
    openapi: '3.1.0',
    info: {
      title: 'Moderation models',
      version: '0.0.1',
      description:
        'Text moderation checks. Every answer names the engine that produced it: header X-Moderation-Engine and an `engine` field.',
    },
    servers: [{ url: options.hubUrl }],
    security: [{ my_auth: ['write:users', 'read:users'] }],
    paths,
    components: {
      schemas: {
        ...components(requestSchemas(options.limits), 'input'),
        ...components({ ...responseSchemas, ...errorSchemas }, 'output'),
      },
      securitySchemes: {
        my_auth: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${options.hubUrl}/api/oauth/dialog`,
              tokenUrl: `${options.hubUrl}/oauth/token`,
              scopes: { 'read:users': 'read user profiles', 'write:users': 'use the moderation models' },
            },
          },
        },
      },
    },
  }
}
