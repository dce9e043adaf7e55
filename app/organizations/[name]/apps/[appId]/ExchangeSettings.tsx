// Token exchange for an organization app: whether the operator granted the privilege, how long
// exchanged tokens live (org admins set it), and a way to the app's exchanges in the audit log.
import Link from 'next/link'
import { EXCHANGE_LIFETIME_MAX_SECONDS } from '@/lib/hub/org-apps'
import { ActionForm } from '@/components/ActionForm'
import { exchangeLifetimeAction } from './actions'
import { Field } from '@/components/Field'

function asAmount(seconds: number): { amount: number; unit: 'minutes' | 'hours' | 'days' } {
  if (seconds % 86400 === 0) return { amount: seconds / 86400, unit: 'days' }
  if (seconds % 3600 === 0) return { amount: seconds / 3600, unit: 'hours' }
  return { amount: Math.round(seconds / 60), unit: 'minutes' }
}

type Props = { org: string; app: { id: string; clientId: string; tokenExchange: boolean; exchangeTokenLifetime: number } }

export function ExchangeSettings({ org, app }: Props) {
  const current = asAmount(app.exchangeTokenLifetime)
  return (
    <section className="card space-y-4" aria-labelledby="exchange-h">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="exchange-h" className="font-semibold">Token exchange</h2>
        {app.tokenExchange ? (
          <span className="badge border-emerald-300 bg-emerald-50 text-emerald-800">granted by the hub operator</span>
        ) : (
          <span className="badge border-slate-300 text-slate-600">not granted</span>
        )}
      </div>
      <p className="text-sm text-slate-600">
        {app.tokenExchange
          ? 'This app may exchange a member’s e-mail address for a short-lived token that reaches only this organization (RFC 8693).'
          : 'Ask the hub operator to grant token exchange; it needs the Enterprise plan.'}
      </p>
      <ActionForm action={exchangeLifetimeAction} submit="Save lifetime" className="flex flex-wrap items-end gap-3" submitClassName="btn-secondary">
        <input type="hidden" name="org" value={org} />
        <input type="hidden" name="appId" value={app.id} />
        <Field name="amount" label="Exchanged tokens live for" className="input w-28" type="number" min={1} defaultValue={current.amount} required />
        <div>
          <label className="sr-only" htmlFor="unit">Unit</label>
          <select className="input w-32" id="unit" name="unit" defaultValue={current.unit}>
            <option value="minutes">minutes</option>
            <option value="hours">hours</option>
            <option value="days">days</option>
          </select>
        </div>
      </ActionForm>
      <p className="text-xs text-slate-500">
        Default 8 hours, at most {EXCHANGE_LIFETIME_MAX_SECONDS / 86400} days. Tokens already issued keep their expiry.{' '}
        <Link className="link" href={`/organizations/${org}/audit?app=${encodeURIComponent(app.clientId)}`}>See this app’s exchanges</Link>
      </p>
    </section>
  )
}
