import { signedInCaller } from '@/lib/auth/caller'
import { FINE_GRAINED_SCOPES, listPersonalTokens } from '@/lib/auth/personal-tokens'
import { TOKEN_ROLE_LABELS, type TokenRole } from '@/lib/auth/token-options'
import { describeScope } from '@/lib/oauth/scopes'
import { ActionForm } from '@/components/ActionForm'
import { ConfirmAction } from '@/components/ConfirmAction'
import { createTokenAction, revokeTokenAction } from '@/app/actions/hub'
import { NewTokenFields } from './NewTokenFields'
import { Field } from '@/components/Field'
import { NoticeArea } from '@/components/Notice'

export const metadata = { title: 'Access tokens' }

export default async function TokensPage() {
  const caller = await signedInCaller('/settings/tokens')
  const tokens = await listPersonalTokens(caller.userId)
  const now = new Date()
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">Access tokens</h1>
      <p className="text-sm text-slate-600">Tokens let scripts and apps act as you through the API (send <code>Authorization: Bearer hf_…</code>). A read token reads; a write token can also create, change and delete; a fine-grained token carries only the scopes you pick.</p>
      <section className="card" aria-labelledby="new-h">
        <h2 id="new-h" className="mb-3 font-semibold">New token</h2>
        <ActionForm action={createTokenAction} submit="Create token" secretLabel="Your new token">
          <Field name="name" label="Name" className="input max-w-sm" required maxLength={50} />
          <NewTokenFields scopes={FINE_GRAINED_SCOPES.map((name) => ({ name, description: describeScope(name) }))} />
        </ActionForm>
      </section>
      <section aria-labelledby="list-h">
        <h2 id="list-h" className="mb-3 font-semibold">Your tokens</h2>
        {/* A revoked token's row goes: the message says so here and takes the focus. */}
        <NoticeArea>
          {tokens.length === 0 ? (
            <p className="text-sm text-slate-500">No tokens yet.</p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {tokens.map((t) => (
                <li key={t.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="token-row">
                  <div>
                    <p className="font-medium">{t.displayName} <span className="badge ml-1 border-slate-300 text-slate-600">{TOKEN_ROLE_LABELS[t.role as TokenRole] ?? t.role}</span>
                      {t.expiresAt && t.expiresAt <= now && <span className="badge ml-1 border-red-300 bg-red-50 text-red-800">expired</span>}</p>
                    <p className="text-xs text-slate-500">
                      <code>{t.prefix}…</code> · created {t.createdAt.toISOString().slice(0, 10)} · {t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC` : 'never used'}
                      {' · '}{t.expiresAt ? `${t.expiresAt <= now ? 'expired' : 'expires'} ${t.expiresAt.toISOString().slice(0, 10)}` : 'never expires'}
                      {t.role === 'fineGrained' && ` · ${t.scopes.join(', ')}`}
                    </p>
                  </div>
                  <ConfirmAction action={revokeTokenAction} fields={{ tokenId: t.id }} start="Revoke" startName={`Revoke ${t.displayName}`} question={<>Revoke <strong className="break-words">{t.displayName}</strong>? Everything that uses it stops working at once; this cannot be undone.</>} confirm="Yes, revoke" pendingLabel="Revoking…" success={`Token “${t.displayName}” revoked: it no longer works.`} />
                </li>
              ))}
            </ul>
          )}
        </NoticeArea>
      </section>
    </div>
  )
}
