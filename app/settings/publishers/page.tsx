import { redirect } from 'next/navigation'
import { reposManagedBy } from '@/lib/hub/repos'
import { sessionCaller } from '@/lib/auth/caller'
import { ISSUER_PRESETS, listPublishers, resourceName } from '@/lib/hub/publishers'
import type { RepoType } from '@/lib/hub/names'
import { ActionForm } from '@/components/ActionForm'
import { ConfirmAction } from '@/components/ConfirmAction'
import { NoticeArea } from '@/components/Notice'
import { addPublisherAction, removePublisherAction } from '@/app/settings/publishers/actions'
import { Field } from '@/components/Field'

export const metadata = { title: 'Trusted publishers' }

export default async function PublishersPage() {
  const caller = await sessionCaller()
  if (!caller) redirect('/login?next=/settings/publishers')
  const [publishers, repos] = await Promise.all([
    listPublishers(caller),
    reposManagedBy(caller.userId),
  ])
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Trusted publishers</h1>
        <p className="text-sm text-slate-600">
          Let a CI workflow publish without a stored token: it sends the id_token its provider issues (audience: this hub&apos;s URL) to
          <code className="mx-1 rounded bg-slate-100 px-1 font-mono text-xs">/oauth/token</code>and gets a one-hour token. A repo gets a token that writes to that
          repo only; your account gets a read-only token for the gated repos you may read. Every listed claim must match exactly.
        </p>
      </div>

      <section className="card" aria-labelledby="list-h">
        <h2 id="list-h" className="mb-3 font-semibold">Registered</h2>
        {/* A removal's message shows (and takes the focus) above the list, where its row was. */}
        <NoticeArea>
        {publishers.length === 0 ? (
          <p className="text-sm text-slate-500">No trusted publishers yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {publishers.map((p) => (
              <li key={p.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
                <div className="min-w-0 text-sm">
                  <p className="font-medium">{p.for}</p>
                  <p className="break-all font-mono text-xs text-slate-600">{p.issuer}</p>
                  <ul className="mt-1 font-mono text-xs">
                    {Object.entries(p.claims).map(([k, v]) => <li key={k}><span className="text-slate-500">{k}</span> = {v}</li>)}
                  </ul>
                </div>
                <ConfirmAction action={removePublisherAction} fields={{ publisherId: p.id }} start="Remove" startName={`Remove the publisher for ${p.for}`} question={<>Remove this publisher of <strong className="break-words">{p.for}</strong>? The tokens it issued stop working at once.</>} confirm="Yes, remove" pendingLabel="Removing…" />
              </li>
            ))}
          </ul>
        )}
        </NoticeArea>
      </section>

      <section className="card" aria-labelledby="add-h">
        <h2 id="add-h" className="mb-3 font-semibold">Add a trusted publisher</h2>
        <ActionForm action={addPublisherAction} submit="Add publisher">
          <div>
            <label className="label" htmlFor="target">Publishes to</label>
            <select className="input" id="target" name="target" defaultValue={repos[0] ? `repo:${repos[0].type}:${repos[0].namespace}/${repos[0].name}` : 'user'}>
              {repos.map((r) => {
                const value = `repo:${r.type}:${r.namespace}/${r.name}`
                return <option key={value} value={value}>{resourceName(r.type as RepoType, r.namespace, r.name)}</option>
              })}
              <option value="user">My account (read-only gated repos)</option>
            </select>
          </div>
          <div>
            <label className="label" htmlFor="preset">CI provider</label>
            <select className="input" id="preset" name="preset" defaultValue="github">
              {ISSUER_PRESETS.map((p) => <option key={p.id} value={p.id}>{p.label} ({p.issuer})</option>)}
              <option value="other">Another OpenID Connect issuer</option>
            </select>
          </div>
          <Field name="issuer" label="CircleCI organization ID, or the issuer URL of another provider" placeholder="https://ci.example.com" />
          <div>
            <label className="label" htmlFor="claims">Claims that must match exactly (one name=value per line)</label>
            <textarea className="input min-h-28 font-mono text-sm" id="claims" name="claims" required placeholder={'repository=octo-org/octo-model\nref=refs/heads/main\nworkflow=release'} />
            <p className="mt-1 text-xs text-slate-500">
              {ISSUER_PRESETS.map((p) => `${p.label}: ${p.suggestedClaims.join(', ')} (${p.identityClaim} required)`).join(' · ')}
            </p>
            <p className="mt-1 text-xs text-slate-500">
              A repository or project name passes to whoever takes it after a rename or a deletion: pin the owner&apos;s numeric id too
              (<code>repository_owner_id</code> on GitHub, <code>namespace_id</code> on GitLab; the provider&apos;s API shows it).
            </p>
          </div>
        </ActionForm>
      </section>
    </div>
  )
}
