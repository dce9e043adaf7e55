// Device verification page: the user types (or arrives with) the code their device shows, sees
// which app asks for what, picks organizations, and approves or denies.
import Link from 'next/link'
import { headers } from 'next/headers'
import { signedInCaller } from '@/lib/auth/caller'
import { clientIp } from '@/lib/ratelimit'
import { pickableOrgs } from '@/lib/oauth/authorize'
import { deviceAnswer, findPendingRequest, UserCodeError, type PendingDeviceRequest } from '@/lib/oauth/device-authorization'
import { usernameOf } from '@/lib/hub/users'
import { ActionForm } from '@/components/ActionForm'
import { AppRequestHeading, OrgPicker, ScopeList, hostOf } from '@/components/oauth/ConsentParts'
import { decideDeviceAction } from '@/app/oauth/device/verify/actions'
import { Field } from '@/components/Field'

export const metadata = { title: 'Connect a device' }

function Result({ approved }: { approved: boolean }) {
  return (
    <div className="mx-auto max-w-md">
      <div className="card space-y-3 text-center" role="status">
        <p aria-hidden className={`mx-auto grid h-12 w-12 place-items-center rounded-full text-2xl ${approved ? 'bg-emerald-100 text-emerald-700' : 'bg-slate-100 text-slate-600'}`}>{approved ? '✓' : '✕'}</p>
        <h1 className="text-xl font-semibold">{approved ? 'Device connected' : 'Request denied'}</h1>
        <p className="text-sm text-slate-600">{approved ? 'You can return to your device: it will finish signing in by itself.' : 'Nothing was shared with the app. You can close this page.'}</p>
        <Link className="btn-secondary" href="/settings/authorized-apps">Manage authorized apps</Link>
      </div>
    </div>
  )
}

function CodeForm({ value, error }: { value: string; error?: string }) {
  return (
    <div className="mx-auto max-w-md">
      <h1 className="mb-2 text-2xl font-semibold">Connect a device</h1>
      <p className="mb-6 text-sm text-slate-600">Enter the code shown by the app or command line you are signing in to.</p>
      <form method="get" className="card space-y-4">
        <Field name="user_code" label="Code" className="input text-center font-mono text-2xl uppercase tracking-[0.3em]" defaultValue={value} placeholder="XXXX-XXXX" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={12} required autoFocus />
        {error && <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{error}</p>}
        <button type="submit" className="btn-primary w-full">Continue</button>
      </form>
    </div>
  )
}

export default async function DeviceVerifyPage({ searchParams }: { searchParams: Promise<{ user_code?: string; answered?: string }> }) {
  const { user_code: entered, answered } = await searchParams
  const code = typeof entered === 'string' ? entered.slice(0, 20) : ''
  const caller = await signedInCaller(`/oauth/device/verify${code ? `?user_code=${encodeURIComponent(code)}` : ''}`)
  // After an answer: what this user answered to that request (a link cannot make the page claim a device was connected).
  const answer = typeof answered === 'string' ? await deviceAnswer(answered.slice(0, 64), caller.userId) : null
  if (answer) return <Result approved={answer === 'approved'} />
  if (!code) return <CodeForm value="" />
  // A link from another site only fills the form in: looking a code up counts wrong ones against the
  // user, and no other site may spend that budget (or show this page's consent) on their behalf. A
  // code opened from the device's own link (typed, scanned, or from an app: no site) is looked up.
  if ((await headers()).get('sec-fetch-site') === 'cross-site') return <CodeForm value={code} />

  let request: PendingDeviceRequest
  try {
    request = await findPendingRequest(code, caller.userId, clientIp(await headers()))
  } catch (error) {
    if (error instanceof UserCodeError) return <CodeForm value={code} error={error.message} />
    throw error
  }
  const orgs = await pickableOrgs(caller.userId)
  const { client } = request
  const homepageHost = hostOf(client.homepage)
  return (
    <div className="mx-auto max-w-lg">
      <div className="card space-y-5">
        <AppRequestHeading client={client} wants="wants to connect to your account">
          {homepageHost ?? 'No homepage'}
          {' · '}signed in as <strong>{await usernameOf(caller.userId)}</strong>
        </AppRequestHeading>
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Check that your device shows <strong className="whitespace-nowrap font-mono tracking-widest" data-testid="user-code">{request.userCode}</strong>. If you did not start this, deny it.
        </p>
        <ScopeList scopes={request.scopes} />
        <ActionForm action={decideDeviceAction} submit="Approve" submitClassName="btn-primary w-full">
          <input type="hidden" name="requestId" value={request.id} />
          <input type="hidden" name="userCode" value={request.userCode} />
          <input type="hidden" name="decision" value="approve" />
          <OrgPicker orgs={orgs} preselected={new Set()} />
        </ActionForm>
        <ActionForm action={decideDeviceAction} submit="Deny" submitClassName="btn-secondary w-full">
          <input type="hidden" name="requestId" value={request.id} />
          <input type="hidden" name="userCode" value={request.userCode} />
          <input type="hidden" name="decision" value="deny" />
        </ActionForm>
      </div>
    </div>
  )
}
