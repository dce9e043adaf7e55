'use client'
// Success notices, and where the keyboard's focus goes after an action.
//
// A notice is a line that says an action succeeded, announced to screen readers as a status. It
// can take the focus (tabIndex -1: reachable by script, not by Tab), which an action does when the
// thing the user acted on is gone: revoking a token removes its row, and with it the button that
// had the focus; the focus would otherwise fall to <body>, and a keyboard or screen-reader user
// would start again from the top of the page, not knowing whether it worked.
//
// NoticeArea holds the notice of the list it wraps, outside the list's rows: a row's own action
// (components/ConfirmAction, collections/RemoveItem) calls useAnnounce()'s function with its
// message, and the area shows it above the list and moves the focus there.
import { createContext, startTransition, useCallback, useContext, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'

type NoticeProps = {
  children: ReactNode
  /** Takes the focus when it appears (and scrolls into view). */
  focus?: boolean
  className?: string
}

export function SuccessNotice({ children, focus = false, className = '' }: NoticeProps) {
  const box = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (!focus || !box.current) return
    box.current.scrollIntoView({ block: 'nearest' })
    box.current.focus({ preventScroll: true })
  }, [focus])
  return (
    <p
      ref={box}
      role="status"
      tabIndex={-1}
      data-notice=""
      className={`scroll-my-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 ${className}`}
    >
      {children}
    </p>
  )
}

const Announce = createContext<((message: string) => void) | null>(null)

/** The enclosing NoticeArea's function that shows a message and focuses it; null outside one. */
export function useAnnounce() {
  return useContext(Announce)
}

/**
 * A list with a place for its actions' success messages, above it. Each message replaces the last
 * and takes the focus (the same message twice is shown, and focused, again).
 */
export function NoticeArea({ children, className = 'mb-3' }: { children: ReactNode; className?: string }) {
  const [notice, setNotice] = useState<{ message: string; id: number } | null>(null)
  const announce = useCallback((message: string) => setNotice((last) => ({ message, id: (last?.id ?? 0) + 1 })), [])
  return (
    <Announce.Provider value={announce}>
      {notice && <SuccessNotice key={notice.id} focus className={className}>{notice.message}</SuccessNotice>}
      {children}
    </Announce.Provider>
  )
}

/**
 * Where the focus goes when the form that had it is gone after its action (a redirect to a page
 * that says what happened, or a row drawn again without it): call `before(form)` when the form is
 * sent and `after()` when it has left the page. Only when the focus fell to <body> does it move:
 * to a status message that appeared meanwhile (e.g. "You are now a member of …" after a redirect),
 * else to the nearest heading above where the form was, else to the page's main heading.
 */
function focusRescue() {
  let seen = new Set<Element>()
  let heading: HTMLElement | null = null
  const lost = () => !document.activeElement || document.activeElement === document.body
  const focus = (el: HTMLElement) => {
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1')
    el.scrollIntoView({ block: 'nearest' })
    el.focus({ preventScroll: true })
  }
  return {
    before(form: HTMLElement) {
      seen = new Set(document.querySelectorAll('main [role=status]'))
      const headings = [...document.querySelectorAll<HTMLElement>('main h1, main h2, main h3, main h4')]
      heading = headings.filter((h) => h.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).at(-1) ?? null
    },
    after() {
      // After React has drawn the new page (or the list without the row).
      requestAnimationFrame(() => {
        if (!lost()) return
        const fresh = [...document.querySelectorAll<HTMLElement>('main [role=status]')].find((s) => !seen.has(s) && s.textContent?.trim())
        const target = fresh ?? (heading?.isConnected ? heading : document.querySelector<HTMLElement>('main h1'))
        if (target) focus(target)
      })
    },
  }
}

/**
 * The onSubmit of a form bound to an action (`formAction`, `pending` and `state` of its
 * useActionState): it runs the action, unless an earlier submission still runs (ignored: the
 * button stays focusable while the action runs, aria-disabled rather than disabled). If the form
 * leaves the page while its action runs or just after it answered, the focus is rescued (above).
 */
export function useActionSubmit(formAction: (data: FormData) => void, pending: boolean, state: unknown) {
  const send = useActionFocus(pending, state)
  return useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault()
      if (!send(event.currentTarget)) return
      const data = new FormData(event.currentTarget)
      startTransition(() => formAction(data))
    },
    [send, formAction],
  )
}

/** useActionSubmit's guard and focus rescue: false while an earlier submission still runs. */
function useActionFocus(pending: boolean, state: unknown) {
  const sending = useRef(false)
  const answeredAt = useRef(0)
  const rescue = useRef<ReturnType<typeof focusRescue>>(null)
  useEffect(() => {
    if (!pending) sending.current = false
  }, [pending])
  useEffect(() => {
    if (state) answeredAt.current = Date.now()
  }, [state])
  useEffect(() => () => {
    if (sending.current || Date.now() - answeredAt.current < 2000) rescue.current?.after()
  }, [])
  return useCallback((form: HTMLElement) => {
    if (sending.current) return false
    sending.current = true
    rescue.current ??= focusRescue()
    rescue.current.before(form)
    return true
  }, [])
}
