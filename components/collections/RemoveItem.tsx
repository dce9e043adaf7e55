'use client'
// The Remove button on one item of a collection (no confirmation: adding it back is one step).
// The item's row goes once it is removed, and this button with it: the collection's list is in a
// NoticeArea (components/Notice), which says what was removed above the list and takes the focus.
// While the removal runs the button stays focusable (aria-disabled; a second press is ignored).
import { useActionState } from 'react'
import type { FormState } from '@/lib/http/form'
import { useActionSubmit, useAnnounce } from '@/components/Notice'

type Props = { slug: string; itemId: string; name: string; action: (state: FormState, form: FormData) => Promise<FormState> }

export function RemoveItem({ slug, itemId, name, action }: Props) {
  const announce = useAnnounce()
  const [state, formAction, pending] = useActionState(async (previous: FormState, form: FormData) => {
    const answer = await action(previous, form)
    if (answer?.ok && announce) announce(`Removed ${name} from this collection.`)
    return answer
  }, null)
  const submit = useActionSubmit(formAction, pending, state)
  return (
    <form
      className="shrink-0 text-right"
      onSubmit={submit}
    >
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="itemId" value={itemId} />
      <button type="submit" className="btn-secondary px-2 py-1 text-xs aria-disabled:cursor-wait aria-disabled:opacity-60" aria-label={`Remove ${name} from this collection`} aria-disabled={pending || undefined}>
        {pending ? 'Removing…' : 'Remove'}
      </button>
      {state?.error && <p role="alert" className="mt-1 text-xs text-red-700">{state.error}</p>}
      {state?.ok && !announce && <p role="status" className="mt-1 text-xs text-emerald-800">Removed.</p>}
    </form>
  )
}
