import Link from 'next/link'
import { notFound, redirect } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { HubError } from '@/lib/http/errors'
import { EXCHANGE_LIFETIME_DEFAULT_SECONDS, operatorOverview } from '@/lib/hub/org-apps'
import { ActionForm } from '@/components/ActionForm'
import { WideTable } from '@/components/WideTable'
import { disableAccountAction, enableAccountAction, grantTokenExchangeAction, resetPasswordAction, revokeTokenExchangeAction, setOperatorAction, setPaymentMethodAction } from '@/app/operator/actions'
import { disabledAccounts, hubOperators } from '@/lib/hub/users'
import { Field } from '@/components/Field'

export const metadata = { title: 'Hub operator' }

function duration(seconds: number): string {
  if (seconds % 86400 === 0) return `${seconds / 86400} d`
  if (seconds % 3600 === 0) return `${seconds / 3600} h`
  return `${Math.round(seconds / 60)} min`
}

export default async function OperatorPage() {
  const caller = await sessionCaller()
  if (!caller) redirect('/login?next=/operator')
  const overview = await operatorOverview(caller).catch((e: unknown) => {
    if (e instanceof HubError) notFound()
    throw e
  })
  const [disabled, operators] = await Promise.all([disabledAccounts(caller), hubOperators(caller)])
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">Hub operator</h1>
        <p className="max-w-3xl text-sm text-slate-600">
          What only the hub&apos;s operators decide: which organization apps may exchange tokens, which organizations have a payment method on file, a new password for someone who lost theirs, which accounts are disabled, and who else operates the hub.
        </p>
      </div>

      <div className="space-y-1">
        <h2 className="text-lg font-semibold">Token exchange privileges</h2>
        <p className="max-w-3xl text-sm text-slate-600">
          An app bound to an organization on the Enterprise plan may be allowed to exchange a member&apos;s e-mail for a short-lived,
          organization-scoped token (RFC 8693). Organizations cannot grant this to themselves. Exchanged tokens live {duration(EXCHANGE_LIFETIME_DEFAULT_SECONDS)} unless
          the organization&apos;s admins change it. Every grant, revocation and exchange is written to the organization&apos;s audit log.
        </p>
      </div>

      <section className="card space-y-3" aria-labelledby="apps-h">
        <h3 id="apps-h" className="font-semibold">Organization apps</h3>
        {overview.apps.length === 0 ? (
          <p className="text-sm text-slate-500">No app is bound to an organization yet.</p>
        ) : (
          <WideTable label="Organization apps" minWidth="44rem">
            <thead className="text-xs uppercase text-slate-500">
              <tr><th className="py-2">App</th><th>Organization</th><th>Plan</th><th>Token lifetime</th><th>Token exchange</th></tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {overview.apps.map((app) => (
                <tr key={app.id} className="align-top">
                  <td className="py-2 pr-3">
                    <span className="font-medium">{app.name}</span>
                    <span className="block font-mono text-xs text-slate-500">{app.clientId}</span>
                  </td>
                  <td className="py-2 pr-3"><Link className="link" href={`/${app.org}`}>{app.org}</Link></td>
                  <td className="py-2 pr-3">{app.plan}</td>
                  <td className="py-2 pr-3">{duration(app.exchangeTokenLifetime)}</td>
                  <td className="py-2">
                    {app.tokenExchange ? (
                      <ActionForm action={revokeTokenExchangeAction} submit={`Revoke from ${app.name}`} className="space-y-2" submitClassName="btn-secondary">
                        <p className="text-emerald-800">Granted</p>
                        <input type="hidden" name="appId" value={app.id} />
                      </ActionForm>
                    ) : (
                      <ActionForm action={grantTokenExchangeAction} submit={`Grant to ${app.name}`} className="space-y-2" submitClassName="btn-primary">
                        <p className="text-slate-500">{app.eligible ? 'Not granted' : 'Not granted · needs the Enterprise plan'}</p>
                        <input type="hidden" name="appId" value={app.id} />
                      </ActionForm>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </WideTable>
        )}
      </section>

      <section className="card space-y-3" aria-labelledby="orgs-h">
        <h2 id="orgs-h" className="font-semibold">Organizations and payment methods</h2>
        <WideTable label="Organizations" minWidth="40rem">
          <thead className="text-xs uppercase text-slate-500">
            <tr><th className="py-2">Organization</th><th>Plan</th><th>Payment method</th><th>Members</th><th>Apps</th></tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {overview.orgs.map((org) => (
              <tr key={org.id}>
                <td className="py-2"><Link className="link" href={`/${org.name}`}>{org.name}</Link></td>
                <td className="py-2">{org.plan}</td>
                <td className="py-2 pr-3">
                  <ActionForm action={setPaymentMethodAction} submit={org.canPay ? `Remove for ${org.name}` : `Mark on file for ${org.name}`} className="space-y-1" submitClassName="btn-secondary whitespace-nowrap">
                    <p>{org.canPay ? 'on file' : 'none'}</p>
                    <input type="hidden" name="orgId" value={org.id} />
                    <input type="hidden" name="canPay" value={org.canPay ? 'no' : 'yes'} />
                  </ActionForm>
                </td>
                <td className="py-2">{org.members}</td>
                <td className="py-2">{org.apps}</td>
              </tr>
            ))}
          </tbody>
        </WideTable>
      </section>

      <section className="card max-w-3xl space-y-3" aria-labelledby="reset-h">
        <h2 id="reset-h" className="font-semibold">Reset a password</h2>
        <p className="text-sm text-slate-600">
          The hub sends no e-mail: someone who lost their password gets a new one from you. It is shown once; every browser
          signed in to the account is signed out, and its access tokens and authorized apps keep working. From a shell:
          <code className="ml-1 break-all">npm run users:reset-password -- NAME</code>.
        </p>
        <ActionForm action={resetPasswordAction} submit="Reset password" secretLabel="New password">
          <Field name="login" label="Username or e-mail" required maxLength={254} autoComplete="off" />
        </ActionForm>
      </section>

      <section className="card max-w-3xl space-y-3" aria-labelledby="disable-h">
        <h2 id="disable-h" className="font-semibold">Disable an account</h2>
        <p className="text-sm text-slate-600">
          A disabled account cannot sign in, is signed out everywhere, and its access tokens are refused until it is enabled
          again; its apps&apos; refresh tokens are revoked for good. Its repositories stay as they are.
        </p>
        <ActionForm action={disableAccountAction} submit="Disable account" submitClassName="btn-danger">
          <Field name="login" id="disable-login" label="Username or e-mail" required maxLength={254} autoComplete="off" />
        </ActionForm>
        {disabled.length === 0 ? (
          <p className="text-sm text-slate-500">No account is disabled.</p>
        ) : (
          <WideTable label="Disabled accounts" minWidth="32rem">
            <thead className="text-xs uppercase text-slate-500">
              <tr><th className="py-2">Account</th><th>E-mail</th><th>Disabled</th><th><span className="sr-only">Action</span></th></tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {disabled.map((user) => (
                <tr key={user.id} data-testid="disabled-account">
                  <td className="py-2"><Link className="link" href={`/${user.username}`}>{user.username}</Link></td>
                  <td className="py-2">{user.email}</td>
                  <td className="py-2">{user.disabledAt!.toISOString().slice(0, 16).replace('T', ' ')} UTC</td>
                  <td className="py-2">
                    <ActionForm action={enableAccountAction} submit={`Enable ${user.username}`} submitClassName="btn-secondary whitespace-nowrap">
                      <input type="hidden" name="login" value={user.username} />
                    </ActionForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </WideTable>
        )}
      </section>

      <section className="card max-w-3xl space-y-3" aria-labelledby="operators-h">
        <h2 id="operators-h" className="font-semibold">Operators</h2>
        <p className="text-sm text-slate-600">Operators see this page. You cannot remove your own role: another operator can, so the hub always keeps one.</p>
        <WideTable label="Operators" minWidth="28rem">
          <thead className="text-xs uppercase text-slate-500">
            <tr><th className="py-2">Account</th><th>E-mail</th><th><span className="sr-only">Action</span></th></tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {operators.map((user) => (
              <tr key={user.id} data-testid="operator">
                <td className="py-2"><Link className="link" href={`/${user.username}`}>{user.username}</Link></td>
                <td className="py-2">{user.email}</td>
                <td className="py-2">
                  {user.id !== caller.userId && (
                    <ActionForm action={setOperatorAction} submit={`Remove ${user.username}`} submitClassName="btn-secondary whitespace-nowrap">
                      <input type="hidden" name="login" value={user.username} />
                      <input type="hidden" name="operator" value="no" />
                    </ActionForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </WideTable>
        <ActionForm action={setOperatorAction} submit="Make operator">
          <Field name="login" id="operator-login" label="Username or e-mail" required maxLength={254} autoComplete="off" />
          <input type="hidden" name="operator" value="yes" />
        </ActionForm>
      </section>
    </div>
  )
}
