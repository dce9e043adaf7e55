'use client'
// The Remove button on one item of a collection (no confirmation: adding it back is one step).
import { useActionState } from 'react'
import type { FormState } from '@/lib/http/form'

type Props = { slug: string; itemId: string; name: string; action: (state: FormState, form: FormData) => Promise<FormState> }

export function RemoveItem({ slug, itemId, name, action }: Props) {
  const [state, formAction, pending] = useActionState(action, null)
  return (
    <form action={formAction} className="shrink-0 text-right">
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="itemId" value={itemId} />
      <button type="submit" className="btn-secondary px-2 py-1 text-xs" aria-label={`Remove ${name} from this collection`} disabled={pending}>
        {pending ? 'Removing…' : 'Remove'}
      </button>
      {state?.error && <p role="alert" className="mt-1 text-xs text-red-700">{state.error}</p>}
    </form>
  )
}
