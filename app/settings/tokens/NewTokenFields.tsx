'use client'
// The new-token form's role, scopes and expiry. Scopes apply to fine-grained tokens only, so their
// boxes are enabled only while that role is picked (the server drops scopes for other roles too).
import { useEffect, useRef, useState } from 'react'
import { TOKEN_EXPIRY_DAYS, TOKEN_ROLE_LABELS, type TokenRole } from '@/lib/auth/token-options'

const ROLE_HELP = {
  read: 'Read everything you can read.',
  write: 'Also create, change and delete.',
  fineGrained: 'Only the scopes you pick below.',
} as const

/** `scopes`: the fine-grained scopes with the words the OAuth consent page uses for them (lib/oauth/scopes). */
export function NewTokenFields({ scopes }: { scopes: { name: string; description: string }[] }) {
  const [role, setRole] = useState<TokenRole>('read')
  const fineGrained = role === 'fineGrained'
  const roles = useRef<HTMLFieldSetElement>(null)
  // The form is reset after each token it creates (ActionForm): the radios go back to Read in the
  // page, and the role here must follow, or the hint and the scope boxes would describe the last
  // token's role while the next one is created as Read.
  useEffect(() => {
    const form = roles.current?.form
    const onReset = () => setRole('read')
    form?.addEventListener('reset', onReset)
    return () => form?.removeEventListener('reset', onReset)
  }, [])
  return (
    <>
      <fieldset ref={roles} className="text-sm">
        <legend className="label">Role</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {(Object.keys(TOKEN_ROLE_LABELS) as TokenRole[]).map((value) => (
            <label key={value} className="flex items-center gap-2" title={ROLE_HELP[value]}>
              <input type="radio" name="role" value={value} checked={role === value} onChange={() => setRole(value)} />
              {value === 'fineGrained' ? 'Fine-grained' : value === 'read' ? 'Read' : 'Write'}
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-500">{ROLE_HELP[role]}</p>
      </fieldset>
      <fieldset className="text-sm" disabled={!fineGrained} aria-describedby="scopes-help">
        <legend className="label">Scopes</legend>
        <p id="scopes-help" className="mb-2 text-xs text-slate-500">
          {fineGrained ? 'Pick at least one.' : 'Only for fine-grained tokens: pick “Fine-grained” to choose scopes.'}
        </p>
        <div className={`grid grid-cols-1 gap-x-4 gap-y-1.5 sm:grid-cols-2 ${fineGrained ? '' : 'opacity-50'}`}>
          {scopes.map(({ name, description }) => (
            <div key={name} className="flex items-start gap-2">
              <input className="mt-1" type="checkbox" id={`scope-${name}`} name="scopes" value={name} aria-describedby={`scope-${name}-help`} />
              <span>
                <label htmlFor={`scope-${name}`}><code>{name}</code></label>
                <span id={`scope-${name}-help`} className="block text-xs text-slate-500">{description}</span>
              </span>
            </div>
          ))}
        </div>
      </fieldset>
      <div>
        <label className="label" htmlFor="expiresInDays">Expires</label>
        <select className="input w-48" id="expiresInDays" name="expiresInDays" defaultValue="30">
          {TOKEN_EXPIRY_DAYS.map((days) => <option key={days} value={days}>in {days} days</option>)}
          <option value="never">never</option>
        </select>
      </div>
    </>
  )
}
