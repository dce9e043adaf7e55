// Pages answer what the hub's data layer refuses with their 404 page, as GitHub and the Hugging
// Face Hub do for what a visitor may not see: the page does not say whether it exists.
import { notFound } from 'next/navigation'
import { HubError } from '@/lib/http/errors'

/** The value, or the 404 page when the data layer refused (HubError: not found, denied, bad input). */
export async function orNotFound<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise
  } catch (error) {
    if (error instanceof HubError && error.status >= 400 && error.status < 500) notFound()
    throw error
  }
}
