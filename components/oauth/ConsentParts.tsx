// Pieces shared by the consent page and the device verification page: who asks, what each scope
// allows in plain words, and the organization picker.
import { describeScope } from '@/lib/oauth/scopes'

export function hostOf(uri: string | null): string | null {
  if (!uri) return null
  try {
    return new URL(uri).host || null
  } catch {
    return null
  }
}

export function AppLogo({ name, logoUrl }: { name: string; logoUrl: string | null }) {
  return logoUrl ? (
    // A plain img: the logo is on the app's own host, which next/image would have to allow-list.
    <img src={logoUrl} alt="" data-testid="app-logo" width={56} height={56} className="h-14 w-14 shrink-0 rounded-lg border border-slate-200 object-cover" referrerPolicy="no-referrer" />
  ) : (
    <span aria-hidden data-testid="app-logo" className="grid h-14 w-14 shrink-0 place-items-center rounded-lg bg-brand-600 text-2xl font-semibold text-on-accent">{name.slice(0, 1).toUpperCase()}</span>
  )
}

/** "<App> wants to …": the app's logo and name, what it asks for, and a line about it under the heading. */
export function AppRequestHeading({ client, wants, children }: { client: { name: string; logoUrl: string | null }; wants: string; children: React.ReactNode }) {
  return (
    <div className="flex items-center gap-4">
      <AppLogo name={client.name} logoUrl={client.logoUrl} />
      <div className="min-w-0">
        <h1 className="text-xl font-semibold break-words"><span data-testid="app-name">{client.name}</span> {wants}</h1>
        <p className="text-sm text-slate-600">{children}</p>
      </div>
    </div>
  )
}

export function ScopeList({ scopes }: { scopes: readonly string[] }) {
  return (
    <section aria-labelledby="scopes-h">
      <h2 id="scopes-h" className="mb-2 text-sm font-semibold">The app will be able to</h2>
      <ul className="space-y-1.5 text-sm" data-testid="scopes">
        {scopes.map((s) => (
          <li key={s} className="flex gap-2"><span aria-hidden className="text-emerald-600">✓</span><span>{describeScope(s)} <code className="text-xs text-slate-500">{s}</code></span></li>
        ))}
      </ul>
    </section>
  )
}

type PickableOrg = { id: string; name: string; fullname: string; role: string }

export function OrgPicker({ orgs, preselected }: { orgs: PickableOrg[]; preselected: ReadonlySet<string> }) {
  if (orgs.length === 0) return null
  return (
    <fieldset className="text-sm">
      <legend className="mb-1 font-semibold">Organizations</legend>
      <p className="mb-2 text-xs text-slate-500">The app reaches only the organizations you tick, and never beyond your role in them.</p>
      <div className="space-y-1">
        {orgs.map((o) => (
          <label key={o.id} className="flex items-center gap-2">
            <input type="checkbox" name="orgIds" value={o.id} defaultChecked={preselected.has(o.id)} />
            <span>{o.fullname || o.name}</span> <span className="text-xs text-slate-500">{o.name} · {o.role}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}
