// A table wider than a phone screen scrolls sideways inside its own box, never the page. The box
// is focusable so keyboard users can scroll it too, and narrow screens get a hint that it scrolls.
// It is positioned, so that absolutely placed content (a screen-reader-only header) is clipped with
// the rest rather than widening the page.
export function WideTable({ label, minWidth, children }: { label: string; minWidth: string; children: React.ReactNode }) {
  return (
    <div>
      <div role="region" aria-label={label} tabIndex={0} className="relative overflow-x-auto rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
        <table className="w-full text-left text-sm" style={{ minWidth }}>{children}</table>
      </div>
      <p aria-hidden className="mt-1 text-xs text-slate-500 md:hidden">Scroll the table sideways to see every column →</p>
    </div>
  )
}
