// Server actions are POSTs to a page's own URL, and Next refuses those whose Origin is not this
// site (CSRF). But it reads the Origin with `new URL(origin)`, which throws on a malformed value,
// and it answers a refused cross-origin post with a 500. This makes the same decision as Next's
// action handler (app-render/action-handler.js), early and with the status the request deserves,
// so proxy.ts can answer before the framework sees it.

export type ActionRefusal = { status: 400 | 403; error: string }

/** Why a server-action POST must be refused, or null to let Next handle it. */
export function refuseServerAction(headers: Headers): ActionRefusal | null {
  const origin = headers.get('origin')
  // No Origin: not a browser (every browser sends one on POST); Next runs it, as it carries no
  // credentials the sender does not already hold.
  if (origin === null) return null
  let originHost: string
  try {
    originHost = origin === 'null' ? 'null' : new URL(origin).host
  } catch {
    return { status: 400, error: 'Malformed Origin header' }
  }
  // The host Next compares against: the first X-Forwarded-Host, else Host.
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host')
  if (!host || originHost !== host) return { status: 403, error: 'Cross-origin server action refused' }
  return null
}
