// A line that says an action succeeded, announced to screen readers as a status.
export function SuccessNotice({ children }: { children: React.ReactNode }) {
  return <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">{children}</p>
}
