// What a server action tells the form that called it.
import { ZodError } from 'zod'
import { HubError, formMessage } from '@/lib/http/errors'

export type FormState = { error?: string; ok?: string; secret?: string } | null

/** Expected failures become a message for the form; anything else is a real bug and is rethrown. */
export function failure(error: unknown): FormState {
  if (error instanceof HubError) return { error: error.message }
  if (error instanceof ZodError) return { error: formMessage(error) }
  throw error
}

export function text(form: FormData, key: string): string {
  const value = form.get(key)
  return typeof value === 'string' ? value : ''
}
