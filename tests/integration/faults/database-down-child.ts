// Run by database-down.test.ts in a process of its own (lib/db binds to one DATABASE_URL per
// process) with DATABASE_URL naming a database that cannot answer: calls the real route handlers
// and prints what each answered, as JSON on the last line.
import { GET as whoami } from '@/app/api/whoami-v2/route'
import { GET as repoInfo } from '@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route'
import { POST as token } from '@/app/oauth/token/route'
import { POST as moderate } from '@/app/rai/v1/raimoderationmodels/[check]/route'

async function answer(name: string, response: Promise<Response>) {
  const res = await response
  return { name, status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> }
}

const basic = 'Basic ' + Buffer.from('demo-notes-app:demo-notes-app-secret').toString('base64')
const results = [
  await answer('whoami', whoami(new Request('http://hub.test/api/whoami-v2', { headers: { authorization: 'Bearer hf_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } }))),
  await answer('repo', repoInfo(new Request('http://hub.test/api/models/alice/toxicity-tiny'), { params: Promise.resolve({ repoType: 'models', namespace: 'alice', name: 'toxicity-tiny', rest: undefined }) })),
  await answer(
    'token',
    token(new Request('http://hub.test/oauth/token', { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token&refresh_token=r' })),
  ),
  await answer(
    'moderation',
    moderate(new Request('http://hub.test/rai/v1/raimoderationmodels/sentimentmodel', { method: 'POST', headers: { authorization: 'Bearer hf_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'content-type': 'application/json' }, body: '{"text":"hi"}' }), {
      params: Promise.resolve({ check: 'sentimentmodel' }),
    }),
  ),
]
console.log(JSON.stringify(results))
process.exit(0)
