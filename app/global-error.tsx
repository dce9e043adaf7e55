'use client'
// When the root layout itself fails (it reads the session and the header's counts from the
// database), Next renders this instead of the whole document: the same message as app/error.tsx,
// without the header it could not build.
import './globals.css'

export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  return (
    <html lang="en">
      <head>
        <title>Unavailable · ModHub</title>
      </head>
      <body className="min-h-screen font-sans">
        <main className="mx-auto max-w-md px-4 py-16 text-center">
          <h1 className="text-2xl font-semibold">ModHub could not answer</h1>
          <p className="mt-2 text-slate-600">
            If its database or file store is restarting, this clears up in a few seconds. Reload the page to try again.
          </p>
          <div className="mt-6 flex justify-center gap-3">
            {/* A full reload, not reset(): the layout has to be rendered on the server again. */}
            <a className="btn-primary" href="">Try again</a>
            <a className="btn-secondary" href="/">Go home</a>
          </div>
          {error.digest && <p className="mt-6 text-xs text-slate-600">Reference for the hub&rsquo;s operator: {error.digest}</p>}
        </main>
      </body>
    </html>
  )
}
