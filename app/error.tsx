'use client'
// What a page shows when rendering it failed on the server: the database or file store unavailable
// for a moment (the API answers those 503 with Retry-After), or a fault. The message cannot tell
// which (in production the error's text stays on the server), so it offers both ways on; the digest
// is what the server logged the error under, for whoever runs the hub.
import Link from 'next/link'
import { useEffect, useRef } from 'react'

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold outline-none">This page could not be shown</h1>
      <p className="mt-2 text-slate-600">
        The hub could not answer just now. If its database or file store is restarting, this clears up in a few seconds.
      </p>
      <div className="mt-6 flex justify-center gap-3">
        <button type="button" className="btn-primary" onClick={() => reset()}>Try again</button>
        <Link className="btn-secondary" href="/">Go home</Link>
      </div>
      {error.digest && <p className="mt-6 text-xs text-slate-600">Reference for the hub&rsquo;s operator: {error.digest}</p>}
    </div>
  )
}
