// Server actions behind the hub's forms: what an action tells its form, and the one wrapper that
// turns expected failures into that answer. Each action is "who is signed in, parse, call lib/,
// report"; answerForm owns the error handling, so no action repeats it.
import { ZodError } from 'zod'
import { HubError, formFieldMessages, formMessage, isRowGoneMeanwhile } from '@/lib/http/errors'

/**
 * `error`: every problem, in sentences. `fields`: a problem per field name, shown under that field
 * (components/Field). `unfielded`: the problems `fields` does not carry (one not tied to a field, a
 * field's second problem), which the form's summary says in full even when its fields show theirs
 * (components/ActionForm: the summary then only points at the fields for the others).
 */
export type FormState = { error?: string; fields?: Record<string, string>; unfielded?: string; ok?: string; secret?: string } | null

/** Expected failures become a message for the form; anything else (a bug, or Next's redirect) is rethrown. */
export function formFailure(error: unknown): FormState {
  if (error instanceof HubError) return { error: error.message }
  // Prisma's "record not found": another request (another tab) deleted it between reading and changing it.
  if (isRowGoneMeanwhile(error)) return { error: 'It was deleted meanwhile (in another tab or by someone else). Reload the page.' }
  if (error instanceof ZodError) {
    const fields = formFieldMessages(error)
    const unfielded = error.issues.filter((issue) => {
      const top = issue.path[0]
      return typeof top !== 'string' || formMessage(new ZodError([issue])) !== fields[top]
    })
    return { error: formMessage(error), fields, ...(unfielded.length > 0 && { unfielded: formMessage(new ZodError(unfielded)) }) }
  }
  throw error
}

/** Runs an action's step: its answer, or the failure's message for the form. A step may redirect(). */
export async function answerForm(step: () => Promise<FormState | void>): Promise<FormState> {
  try {
    return (await step()) ?? null
  } catch (error) {
    return formFailure(error)
  }
}

/** A text field of the form ('' when absent or a file). */
export function text(form: FormData, key: string): string {
  const value = form.get(key)
  return typeof value === 'string' ? value : ''
}
