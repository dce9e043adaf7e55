// The fields of an OAuth app, for creating and editing (users' and organizations' apps alike).
import { ALWAYS_ALLOWED, SCOPES } from '@/lib/oauth/scopes'
import { Field, TextAreaField } from '@/components/Field'

type Values = { name: string; description: string; homepage: string | null; logoUrl: string | null; redirectUris: string[]; scopes: string[] }

export function AppFields({ values, idPrefix }: { values?: Values; idPrefix: string }) {
  const id = (name: string) => `${idPrefix}-${name}`
  return (
    <>
      <Field className="input max-w-md" id={id('name')} name="name" label="Name" required maxLength={80} defaultValue={values?.name} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={id('homepage')} name="homepage" label="Homepage" type="url" placeholder="https://example.com" defaultValue={values?.homepage ?? ''} />
        <Field id={id('logoUrl')} name="logoUrl" label="Logo URL" type="url" placeholder="https://example.com/logo.png" defaultValue={values?.logoUrl ?? ''} />
      </div>
      <TextAreaField id={id('description')} name="description" label="Description" rows={2} maxLength={500} defaultValue={values?.description} />
      <TextAreaField
        className="input font-mono text-xs"
        id={id('redirectUris')}
        name="redirectUris"
        label="Redirect URIs"
        rows={3}
        required
        placeholder="https://example.com/oauth/callback"
        defaultValue={values?.redirectUris.join('\n')}
        hint="One per line, matched exactly. http is allowed only on localhost, 127.0.0.1 and [::1], where any port is accepted."
      />
      <fieldset className="text-sm">
        <legend className="label">Scopes the app may request</legend>
        <div className="grid grid-cols-1 gap-1 sm:grid-cols-2">
          {SCOPES.map((s) => {
            // openid and profile: every app may ask for them (lib/oauth/scopes), so they are shown ticked, not offered.
            const always = ALWAYS_ALLOWED.includes(s.name)
            return (
              <label key={s.name} className="flex items-start gap-2" title={s.description}>
                <input className="mt-1" type="checkbox" name={always ? undefined : 'scopes'} value={s.name} disabled={always} defaultChecked={always || values?.scopes.includes(s.name)} />
                <span><code>{s.name}</code> <span className="text-xs text-slate-500">{s.description}{always ? ' (always)' : ''}</span></span>
              </label>
            )
          })}
        </div>
      </fieldset>
    </>
  )
}
