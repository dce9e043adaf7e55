import type { Metadata } from 'next'
import Link from 'next/link'
import { WideTable } from '@/components/WideTable'
import { ZodError } from 'zod'
import { signedInCaller } from '@/lib/auth/caller'
import { authorizedOrg } from '@/lib/hub/orgs'
import { orNotFound } from '@/lib/http/page-errors'
import { AUDIT_ACTIONS, auditPage, parseAuditQuery, type AuditEntryView, type AuditQuery } from '@/lib/hub/audit'
import { formMessage } from '@/lib/http/errors'
import { Field } from '@/components/Field'

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }): Promise<Metadata> {
  return { title: `${decodeURIComponent((await params).name)} audit log` }
}

type Props = { params: Promise<{ name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }

function queryString(q: Partial<AuditQuery>): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '' && !(k === 'page' && v === 1)) params.set(k, String(v))
  const s = params.toString()
  return s ? `?${s}` : ''
}

function Details({ data }: { data: Record<string, unknown> }) {
  const items = Object.entries(data)
  if (!items.length) return null
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      {items.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{k}</dt>
          <dd className="break-all font-mono">{Array.isArray(v) ? v.join(' ') : typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
    </dl>
  )
}

function EntryRow({ entry }: { entry: AuditEntryView }) {
  return (
    <tr className="align-top">
      <td className="whitespace-nowrap py-2 pr-3 font-mono text-xs"><time dateTime={entry.time}>{entry.time.replace('T', ' ').slice(0, 19)}</time></td>
      <td className="py-2 pr-3">{AUDIT_ACTIONS[entry.action as keyof typeof AUDIT_ACTIONS] ?? entry.action}</td>
      <td className="py-2 pr-3">{entry.actor ?? <span className="text-slate-600">app</span>}</td>
      <td className="py-2 pr-3">{entry.member ?? '—'}</td>
      <td className="py-2 pr-3">{entry.app ? <span title={entry.app.clientId}>{entry.app.name}</span> : '—'}</td>
      <td className="py-2 pr-3 font-mono text-xs">{entry.ip ?? '—'}</td>
      <td className="py-2"><Details data={entry.data} /></td>
    </tr>
  )
}

/** The filters typed in (beside the action picked from a list), in the form's order. */
const TEXT_FILTERS = [
  { name: 'member', label: 'Member', type: 'text', className: 'input w-40', placeholder: 'username' },
  { name: 'app', label: 'App', type: 'text', className: 'input w-48', placeholder: 'client ID' },
  { name: 'from', label: 'From', type: 'date', className: 'input', placeholder: undefined },
  { name: 'to', label: 'To', type: 'date', className: 'input', placeholder: undefined },
] as const

export default async function AuditLogPage({ params, searchParams }: Props) {
  const name = decodeURIComponent((await params).name)
  const caller = await signedInCaller(`/organizations/${name}/audit`)
  const org = await orNotFound(authorizedOrg(caller, name))
  let query: AuditQuery
  let problem: string | null = null
  try {
    query = parseAuditQuery(await searchParams)
  } catch (e) {
    if (!(e instanceof ZodError)) throw e
    problem = formMessage(e)
    query = { page: 1 }
  }
  const { entries, total, page, pageCount } = await auditPage(org.id, query)
  const base = `/organizations/${org.name}/audit`
  const filters = { ...query, page: undefined }

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-slate-500"><Link className="link" href={`/organizations/${org.name}/settings`}>Organization settings</Link></p>
        <h1 className="text-2xl font-semibold">Audit log of {org.name}</h1>
        <p className="text-sm text-slate-600">Token exchanges, app privileges and trusted publishers. Entries are never changed or removed.</p>
      </div>

      {/* Keyed on the filters: after client-side navigation (Clear) the fields must show the new values. */}
      <form key={queryString(filters)} method="get" action={base} className="card flex flex-wrap items-end gap-3" aria-label="Filter the audit log">
        <div>
          <label className="label" htmlFor="action">Action</label>
          <select className="input w-64" id="action" name="action" defaultValue={query.action ?? ''}>
            <option value="">Any action</option>
            {Object.entries(AUDIT_ACTIONS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        {TEXT_FILTERS.map((field) => <Field key={field.name} {...field} defaultValue={query[field.name] ?? ''} />)}
        <button type="submit" className="btn-primary">Filter</button>
        <Link className="btn-secondary" href={base}>Clear</Link>
        <a className="link ml-auto text-sm" href={`${base}/export${queryString(filters)}`} download>Export as JSON lines</a>
      </form>

      {problem && <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{problem}</p>}

      <section className="card" aria-labelledby="entries-h">
        <h2 id="entries-h" className="mb-3 font-semibold">{total} {total === 1 ? 'entry' : 'entries'}</h2>
        {entries.length === 0 ? (
          <p className="text-sm text-slate-500">No entries match.</p>
        ) : (
          <WideTable label="Audit entries" minWidth="56rem">
            <thead className="text-xs uppercase text-slate-500">
              <tr><th className="py-2 pr-3">Time (UTC)</th><th className="pr-3">Action</th><th className="pr-3">By</th><th className="pr-3">Member</th><th className="pr-3">App</th><th className="pr-3">IP</th><th>Details</th></tr>
            </thead>
            <tbody className="divide-y divide-slate-100">{entries.map((e) => <EntryRow key={e.id} entry={e} />)}</tbody>
          </WideTable>
        )}
      </section>

      {pageCount > 1 && (
        <nav aria-label="Pages" className="flex items-center gap-4 text-sm">
          {page > 1 ? <Link className="link" href={`${base}${queryString({ ...filters, page: page - 1 })}`}>← Newer</Link> : <span className="text-slate-400">← Newer</span>}
          <span>Page {page} of {pageCount}</span>
          {page < pageCount ? <Link className="link" href={`${base}${queryString({ ...filters, page: page + 1 })}`}>Older →</Link> : <span className="text-slate-400">Older →</span>}
        </nav>
      )}
    </div>
  )
}
