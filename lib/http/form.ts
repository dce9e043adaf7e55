// Server actions behind the hub's forms: what an action tells its form, and the one wrapper that
// turns expected failures into that answer. Each action is "who is signed in, parse, call lib/,
// report"; answerForm owns the error handling, so no action repeats it.
import { ZodError } from 'zod'
import { HubError, formFieldMessages, formMessage } from '@/lib/http/errors'

/** `fields`: a problem per field name, shown under that field (components/Field) as well as in the summary. */
export type FormState = { error?: string; fields?: Record<string, string>; ok?: string; secret?: string } | null

/** Expected failures become a message for the form; anything else (a bug, or Next's redirect) is rethrown. */
export function formFailure(error: unknown): FormState {
  if (error instanceof HubError) return { error: error.message }
  if (error instanceof ZodError) return { error: formMessage(error), fields: formFieldMessages(error) }
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
