import { signedInCaller } from '@/lib/auth/caller'
import { usernameOf } from '@/lib/hub/users'
import { ActionForm } from '@/components/ActionForm'
import { changePasswordAction, signOutEverywhereAction } from '@/app/actions/session'
import { ConfirmAction } from '@/components/ConfirmAction'
import { Field } from '@/components/Field'
import { SettingsPage } from '@/components/SettingsPage'
import { SuccessNotice } from '@/components/Notice'

export const metadata = { title: 'Password settings' }

export default async function PasswordSettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { changed } = await searchParams
  const caller = await signedInCaller('/settings/password')
  const username = await usernameOf(caller.userId)
  return (
    <SettingsPage title="Password" width="max-w-xl">
      {changed === '1' && (
        <SuccessNotice focus>
          Password changed. Every other browser signed in to your account is signed out; your access tokens and
          authorized apps keep working.
        </SuccessNotice>
      )}
      <div className="card space-y-4">
        <p className="text-sm text-slate-600">
          Changing your password signs out every other browser signed in to your account. Access tokens and the apps
          you authorized keep working: revoke them under Access tokens and Authorized apps.
        </p>
        <ActionForm action={changePasswordAction} submit="Change password">
          {/* Not shown: it lets password managers file the new password under the right account. */}
          <input type="text" name="username" autoComplete="username" defaultValue={username} readOnly hidden />
          <Field name="currentPassword" label="Current password" type="password" autoComplete="current-password" required maxLength={200} />
          <Field name="newPassword" label="New password" type="password" autoComplete="new-password" required minLength={8} maxLength={200} hint="At least 8 characters." />
          <Field name="confirmPassword" label="Confirm new password" type="password" autoComplete="new-password" required maxLength={200} />
        </ActionForm>
      </div>
      <section className="card space-y-3" aria-labelledby="everywhere-h">
        <h2 id="everywhere-h" className="font-semibold">Sign out everywhere</h2>
        <p className="text-sm text-slate-600">
          Signs this and every other browser out of your account, such as one you used on a shared computer. Access tokens
          and authorized apps keep working.
        </p>
        <ConfirmAction
          action={signOutEverywhereAction}
          fields={{}}
          start="Sign out everywhere"
          startClassName="btn-secondary"
          question="Sign out of this and every other browser?"
          confirm="Yes, sign out everywhere"
          pendingLabel="Signing out…"
        />
      </section>
    </SettingsPage>
  )
}
