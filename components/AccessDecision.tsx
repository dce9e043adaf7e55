// Accept / Reject for one pending access request to a gated repository (the repo's settings tab and
// Settings → Access requests). The action comes from the page: components never import app/.
import { ActionForm } from '@/components/ActionForm'
import type { FormState } from '@/lib/http/form'

type Props = {
  action: (state: FormState, form: FormData) => Promise<FormState>
  repo: { id: string; type: string; namespace: string; name: string }
  userId: string
}

export function AccessDecision({ action, repo, userId }: Props) {
  return (
    <span className="flex gap-2">
      {(['accept', 'reject'] as const).map((decision) => (
        <ActionForm key={decision} action={action} submit={decision === 'accept' ? 'Accept' : 'Reject'} className="flex items-center gap-2" submitClassName={decision === 'accept' ? 'btn-primary' : 'btn-secondary'}>
          <input type="hidden" name="type" value={repo.type} />
          <input type="hidden" name="namespace" value={repo.namespace} />
          <input type="hidden" name="name" value={repo.name} />
          <input type="hidden" name="repoId" value={repo.id} />
          <input type="hidden" name="userId" value={userId} />
          <input type="hidden" name="decision" value={decision} />
        </ActionForm>
      ))}
    </span>
  )
}
