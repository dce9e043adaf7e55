// The fields of an OAuth app, for creating and editing (users' and organizations' apps alike).
import { SCOPES } from '@/lib/oauth/scopes'

type Values = { name: string; description: string; homepage: string | null; logoUrl: string | null; redirectUris: string[]; scopes: string[] }

export function AppFields({ values, idPrefix }: { values?: Values; idPrefix: string }) {
  const id = (name: string) => `${idPrefix}-${name}`
  return (
    <>
      <div>
        <label className="label" htmlFor={id('name')}>Name</label>
        <input className="input max-w-md" id={id('name')} name="name" required maxLength={80} defaultValue={values?.name} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label className="label" htmlFor={id('homepage')}>Homepage</label>
          <input className="input" id={id('homepage')} name="homepage" type="url" placeholder="https://example.com" defaultValue={values?.homepage ?? ''} />
        </div>
        <div>
          <label className="label" htmlFor={id('logoUrl')}>Logo URL</label>
          <input className="input" id={id('logoUrl')} name="logoUrl" type="url" placeholder="https://example.com/logo.png" defaultValue={values?.logoUrl ?? ''} />
        </div>
      </div>
      <div>
        <label className="label" htmlFor={id('description')}>Description</label>
        <textarea className="input" id={id('description')} name="description" rows={2} maxLength={500} defaultValue={values?.description} />
      </div>
      <div>
        <label className="label" htmlFor={id('redirectUris')}>Redirect URIs</label>
        <textarea className="input font-mono text-xs" id={id('redirectUris')} name="redirectUris" rows={3} required placeholder="https://example.com/oauth/callback" defaultValue={values?.redirectUris.join('\n')} />
        <p className="mt-1 text-xs text-slate-500">One per line, matched exactly. http is allowed only on localhost, 127.0.0.1 and [::1], where any port is accepted.</p>
      </div>
      <fieldset className="text-sm">
        <legend className="label">Scopes the app may request (openid and profile always)</legend>
        <div className="grid grid-cols-1 gap-1 sm:grid-cols-2">
          {SCOPES.map((s) => (
            <label key={s.name} className="flex items-start gap-2" title={s.description}>
              <input className="mt-1" type="checkbox" name="scopes" value={s.name} defaultChecked={values?.scopes.includes(s.name) ?? ['openid', 'profile'].includes(s.name)} />
              <span><code>{s.name}</code> <span className="text-xs text-slate-500">{s.description}</span></span>
            </label>
          ))}
        </div>
      </fieldset>
    </>
  )
}
