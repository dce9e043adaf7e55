import { signedInCaller } from '@/lib/auth/caller'
import { ownAccount } from '@/lib/hub/users'
import { ActionForm } from '@/components/ActionForm'
import { updateProfileAction } from '@/app/actions/hub'
import { Field } from '@/components/Field'
import { SettingsPage } from '@/components/SettingsPage'

export const metadata = { title: 'Profile settings' }

export default async function ProfileSettingsPage() {
  const caller = await signedInCaller('/settings/profile')
  const user = await ownAccount(caller.userId)
  return (
    <SettingsPage title="Profile" width="max-w-xl">
      <div className="card">
        <ActionForm action={updateProfileAction} submit="Save profile">
          <Field name="fullname" label="Full name" defaultValue={user.fullname} maxLength={100} />
          <Field
            name="email"
            label="E-mail"
            type="email"
            defaultValue={user.email}
            required
            hint={user.emailVerified ? <span className="badge border-emerald-300 bg-emerald-50 text-emerald-800">verified</span> : <span className="badge border-amber-300 bg-amber-50 text-amber-800">not verified</span>}
          />
          <Field name="website" label="Website" type="url" defaultValue={user.website ?? ''} placeholder="https://" />
          <Field name="avatarUrl" label="Avatar URL" type="url" defaultValue={user.avatarUrl ?? ''} placeholder="https://" />
        </ActionForm>
      </div>
    </SettingsPage>
  )
}
