'use client'
// Copies a value shown once (a new token or client secret) to the clipboard, and says so.
import { useEffect, useState } from 'react'

export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), 2500)
    return () => clearTimeout(timer)
  }, [state])
  return (
    <>
      <button
        type="button"
        className="btn-secondary px-2 py-0.5 text-xs"
        onClick={() => {
          // The Clipboard API exists only in secure contexts (https, localhost); say so elsewhere.
          if (!navigator.clipboard) return setState('failed')
          navigator.clipboard.writeText(value).then(() => setState('copied'), () => setState('failed'))
        }}
      >
        {state === 'copied' ? 'Copied' : label}
      </button>
      {/* Announced politely; not a second "status" region beside the form's own message. */}
      <span aria-live="polite" className="text-xs">
        {state === 'copied' ? 'Copied to the clipboard.' : state === 'failed' ? 'Could not copy: select the text and copy it.' : ''}
      </span>
    </>
  )
}
