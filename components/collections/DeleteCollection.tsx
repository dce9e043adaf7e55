'use client'
// Deleting a collection takes two steps (components/ConfirmAction): the list goes for good, the
// repositories in it stay.
import type { FormState } from '@/lib/http/form'
import { ConfirmAction } from '@/components/ConfirmAction'

type Props = { slug: string; title: string; action: (state: FormState, form: FormData) => Promise<FormState> }

export function DeleteCollection({ slug, title, action }: Props) {
  return (
    <ConfirmAction
      action={action}
      fields={{ slug }}
      start="Delete collection"
      question={<>Delete <strong className="break-words">{title}</strong>? The list is gone for good; the repositories in it stay where they are.</>}
      confirm="Yes, delete"
      pendingLabel="Deleting…"
    />
  )
}
