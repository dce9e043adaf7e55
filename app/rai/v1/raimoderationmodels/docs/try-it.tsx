'use client'

import { useEffect, useState } from 'react'
import { docsTokenAction } from './actions'

/** The pasted token lives in this tab's sessionStorage only. */
const TOKEN_KEY = 'moderation-docs-token'

export function TokenField({ signedIn }: { signedIn: boolean }) {
  const [token, setToken] = useState('')
  const [message, setMessage] = useState('')
  // Read after hydration: the server cannot see this tab's storage.
  useEffect(() => setToken(sessionStorage.getItem(TOKEN_KEY) ?? ''), [])
  const remember = (value: string) => {
    setToken(value)
    sessionStorage.setItem(TOKEN_KEY, value)
  }
  return (
    <div className="max-w-xl space-y-2">
    <label className="block text-sm">
      <span className="font-medium text-slate-700">Access token for “Try it” (kept in this tab only)</span>
      <input
        type="password"
        name="moderation-token"
        className="mt-1 w-full rounded border border-slate-300 px-2 py-1 font-mono"
        placeholder="hf_… or an OAuth access token"
        value={token}
        onChange={(event) => remember(event.target.value)}
      />
    </label>
    {!signedIn && (
      <p className="text-sm text-slate-600">
        Paste an access token with the <code>write:users</code> scope (or a write token), or{' '}
        <a className="link" href="/login?next=/rai/v1/raimoderationmodels/docs">sign in</a> to use your account.
      </p>
    )}
    {signedIn && (
      <p className="flex flex-wrap items-center gap-3 text-sm">
        <button
          type="button"
          className="btn-secondary"
          onClick={async () => {
            const result = await docsTokenAction()
            if (result.token) {
              remember(result.token)
              setMessage('Your session credential (scope write:users, one hour; not one of your access tokens) is in place.')
            } else setMessage(result.error ?? 'Could not create a token.')
          }}
        >
          Use my account
        </button>
        {message && <span role="status" className="text-slate-600">{message}</span>}
      </p>
    )}
    </div>
  )
}

type Result = { status: number; engine: string | null; body: string }

export function TryIt({ path, example }: { path: string; example: string }) {
  const [body, setBody] = useState(example)
  const [result, setResult] = useState<Result | null>(null)
  const [pending, setPending] = useState(false)

  async function send() {
    // Stays focusable while it runs (aria-disabled: a disabled button would drop the focus to
    // <body>); a second press meanwhile is ignored.
    if (pending) return
    setPending(true)
    // Cleared first: the answer is then new content of the live region below, announced even when
    // it says the same as the last one.
    setResult(null)
    const token = sessionStorage.getItem(TOKEN_KEY)
    try {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body,
      })
      const text = await response.text()
      let pretty = text
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2)
      } catch {
        // Not JSON: show it as it came.
      }
      setResult({ status: response.status, engine: response.headers.get('X-Moderation-Engine'), body: pretty })
    } catch (error) {
      setResult({ status: 0, engine: null, body: String(error) })
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="mt-3 space-y-2">
      <textarea
        aria-label={`Request body for ${path}`}
        className="h-28 w-full rounded border border-slate-300 p-2 font-mono text-xs"
        value={body}
        onChange={(event) => setBody(event.target.value)}
      />
      <button type="button" className="btn bg-brand-600 text-on-accent hover:bg-brand-700 aria-disabled:cursor-wait aria-disabled:opacity-60" onClick={send} aria-disabled={pending || undefined}>
        {pending ? 'Sending…' : 'Try it'}
      </button>
      {/* A live region that is always there: screen readers say the answer when it arrives. */}
      <div aria-live="polite" data-testid="try-it-answer">
        {result && (
          <div data-testid="try-it-result">
            <p className="text-sm">
              Status <strong>{result.status}</strong>
              {result.engine ? ` · engine ${result.engine}` : ''}
            </p>
            {result.status === 401 && <p className="text-sm text-slate-600">No valid token: paste one in “Access token for Try it” at the top of this page, or use your account there.</p>}
            {result.status === 403 && <p className="text-sm text-slate-600">This token may not use the moderation API: it needs the <code>write:users</code> scope (or be a write token).</p>}
            <pre tabIndex={0} className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{result.body}</pre>
          </div>
        )}
      </div>
    </div>
  )
}
