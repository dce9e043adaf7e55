// The consent page: which app asks, where it sends you back, what each scope allows, and which of
// your organizations it may reach. Also the page that explains requests we cannot send back.
import Link from 'next/link'
import { redirect } from 'next/navigation'
import { sessionSignIn } from '@/lib/auth/caller'
import { usernameOf } from '@/lib/hub/users'
import { authorizationQuery, decideWithoutPrompt, pickableOrgs, readAuthorizationRequest, signInAgainLocation } from '@/lib/oauth/authorize'
import { findConsent } from '@/lib/oauth/consent'
import { ActionForm } from '@/components/ActionForm'
import { AppRequestHeading, OrgPicker, ScopeList, hostOf } from '@/components/oauth/ConsentParts'
import { approveAction, denyAction } from '@/app/oauth/authorize/consent/actions'

export const metadata = { title: 'Authorize app' }

type Search = Record<string, string | string[] | undefined>

const check = (search: Search) =>
  readAuthorizationRequest(Object.entries(search).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x] as [string, string]) : v === undefined ? [] : [[k, v] as [string, string]])))

export default async function ConsentPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams
  const checked = await check(search)
  if (checked.kind === 'redirect') redirect(checked.location)
  if (checked.kind === 'show-error') {
    return (
      <div className="mx-auto max-w-lg">
        <div className="card space-y-3" role="alert">
          <h1 className="text-xl font-semibold">This sign-in request cannot be completed</h1>
          <p className="text-sm text-slate-700">{checked.error.text}</p>
          <p className="text-xs text-slate-500">Error: <code>{checked.error.code}</code>. Nothing was shared with the app. If you followed a link from a website, tell its owner.</p>
          <Link className="btn-secondary" href="/">Back to ModHub</Link>
        </div>
      </div>
    )
  }
  const request = checked.request
  const query = new URLSearchParams(Object.entries(search).filter((e): e is [string, string] => typeof e[1] === 'string')).toString()
  const signedIn = await sessionSignIn()
  if (!signedIn) redirect(`/login?next=${encodeURIComponent(`/oauth/authorize/consent?${query}`)}`)
  const { caller, authTime } = signedIn
  // prompt=login, max_age or another user than id_token_hint names: a sign-in of the request's own, first.
  const signInAgain = signInAgainLocation(request, authorizationQuery(new URLSearchParams(query)), { userId: caller.userId, authTime })
  if (signInAgain) redirect(signInAgain)
  // Arriving from the sign-in page: a remembered consent answers at once, as the endpoint would.
  const answer = await decideWithoutPrompt(request, caller.userId, authTime)
  if (answer) redirect(answer)
  const [username, orgs, consent] = await Promise.all([
    usernameOf(caller.userId),
    pickableOrgs(caller.userId),
    findConsent(caller.userId, request.client.clientId),
  ])
  const preselected = new Set([...request.requestedOrgIds, ...(consent?.orgIds ?? [])])
  const { client } = request
  const redirectHost = hostOf(request.redirectUri)
  return (
    <div className="mx-auto max-w-lg space-y-4">
      <div className="card space-y-5">
        <AppRequestHeading client={client} wants="wants to access your account">
          {client.homepage ? <a className="link" href={client.homepage} rel="noreferrer noopener" target="_blank">{hostOf(client.homepage)}</a> : 'No homepage'}
          {' · '}signed in as <strong>{username}</strong>
        </AppRequestHeading>

        {client.viaMetadataDocument && (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="unverified">
            <strong>Unverified app.</strong> It registered itself automatically from <strong className="font-mono">{hostOf(client.clientId)}</strong>;
            ModHub has not reviewed it. Continue only if you trust that site.
          </p>
        )}
        <ScopeList scopes={request.scopes} />

        <ActionForm action={approveAction} submit="Authorize" submitClassName="btn-primary w-full">
          <input type="hidden" name="request" value={query} />
          <OrgPicker orgs={orgs} preselected={preselected} />
          <p className="text-xs text-slate-500">
            You will be sent back to <strong data-testid="redirect-host">{redirectHost}</strong>. You can revoke this app at any time in{' '}
            <Link className="link" href="/settings/authorized-apps">Settings → Authorized apps</Link>.
          </p>
        </ActionForm>
        <ActionForm action={denyAction} submit="Deny" submitClassName="btn-secondary w-full">
          <input type="hidden" name="request" value={query} />
        </ActionForm>
      </div>
    </div>
  )
}
