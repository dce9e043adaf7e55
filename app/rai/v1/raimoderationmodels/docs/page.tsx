import type { Metadata } from 'next'
import { hubUrl } from '@/lib/config'
import { CHECKS } from '@/lib/moderation/checks'
import { MODERATION_BASE_PATH, moderationOpenApi } from '@/lib/moderation/api/openapi'
import { moderationSettings } from '@/lib/moderation/api/settings'
import { sessionCaller } from '@/lib/auth/caller'
import { TokenField, TryIt } from './try-it'

export const metadata: Metadata = { title: 'Moderation API' }
export const dynamic = 'force-dynamic'

/** A limit as people read numbers: 1,048,576. */
const count = (n: number) => n.toLocaleString('en')

function SchemaBlock({ title, schema }: { title: string; schema: unknown }) {
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-sm font-medium text-slate-700">{title}</summary>
      <pre tabIndex={0} className="mt-1 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{JSON.stringify(schema, null, 2)}</pre>
    </details>
  )
}

export default async function ModerationDocsPage() {
  const signedIn = (await sessionCaller()) !== null
  const settings = moderationSettings()
  const document = moderationOpenApi({ hubUrl: hubUrl(), limits: settings.limits })
  const schemas = document.components.schemas
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold">Moderation API</h1>
        <p className="text-slate-700 wrap-anywhere">
          Ten text checks, each a <code>POST {MODERATION_BASE_PATH}/&lt;check&gt;</code> with a JSON body. Every answer names the
          engine that produced it (header <code>X-Moderation-Engine</code> and an <code>engine</code> field).{' '}
          <a className="text-brand-700 underline" href={`${MODERATION_BASE_PATH}/openapi.json`}>OpenAPI document</a>.
        </p>
        <p className="text-sm text-slate-600 wrap-anywhere">
          {settings.authRequired
            ? 'Send Authorization: Bearer <token>, an access token with scope write:users or a write personal token.'
            : 'Authentication is off on this deployment: any Authorization header, or the literal None, is accepted.'}{' '}
          Limits: {count(settings.limits.maxBodyBytes)} bytes per body, {count(settings.limits.maxTextLength)} characters per text,{' '}
          {count(settings.limits.maxListItems)} items per list
          {settings.rateLimit.requestsPerMinute > 0 ? `, ${count(settings.rateLimit.requestsPerMinute)} requests per minute per account` : ''}
          {settings.rateLimit.charactersPerMinute > 0 ? `, ${count(settings.rateLimit.charactersPerMinute)} characters of text per minute per account` : ''}.
        </p>
        <TokenField signedIn={signedIn} />
      </header>
      {CHECKS.map((check) => (
        <section key={check.path} id={check.path} className="rounded-lg border border-slate-200 bg-white p-5">
          <h2 className="font-mono text-sm font-semibold wrap-anywhere">
            <span className="mr-2 rounded bg-green-100 px-2 py-0.5 text-green-800">POST</span>
            {MODERATION_BASE_PATH}/{check.path}
          </h2>
          <p className="mt-1 text-slate-700">{check.summary}</p>
          <SchemaBlock title={`Request: ${check.request.name}`} schema={schemas[check.request.name]} />
          <SchemaBlock title={`200: ${check.response.name}`} schema={schemas[check.response.name]} />
          <TryIt path={`${MODERATION_BASE_PATH}/${check.path}`} example={JSON.stringify(check.example, null, 2)} />
        </section>
      ))}
    </div>
  )
}
