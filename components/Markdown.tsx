// Markdown for model cards, rendered to React elements (never to an HTML string): raw HTML in the
// text is shown as text, and links keep only http(s), mailto and relative targets, so a card cannot
// inject script or markup. Covers what cards use: headings, paragraphs, lists, fenced code, quotes,
// tables, rules, and inline code, bold, italic, links and images (images are shown as links).
import type { ReactNode } from 'react'

function safeHref(href: string): string | null {
  const h = href.trim()
  if (/^(https?:|mailto:)/i.test(h)) return h
  if (/^[a-z][a-z0-9+.-]*:/i.test(h) || h.startsWith('//')) return null // javascript:, data:, protocol-relative...
  return h
}

const INLINE = /(`[^`]+`)|(!?\[[^\]]*\]\([^)\s]+(?:\s+"[^"]*")?\))|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(https?:\/\/[^\s<>)]+)/

function inline(text: string, key = 'i'): ReactNode[] {
  const out: ReactNode[] = []
  let rest = text
  let n = 0
  while (rest) {
    const m = INLINE.exec(rest)
    if (!m) {
      out.push(rest)
      break
    }
    if (m.index > 0) out.push(rest.slice(0, m.index))
    const token = m[0]
    const k = `${key}-${n++}`
    if (m[1]) out.push(<code key={k} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em]">{token.slice(1, -1)}</code>)
    else if (m[2]) {
      const link = /^!?\[([^\]]*)\]\(([^)\s]+)/.exec(token)!
      const href = safeHref(link[2]!)
      const label = link[1] || link[2]!
      out.push(href ? <a key={k} href={href} className="text-indigo-700 underline" rel="nofollow noopener noreferrer">{inline(label, k)}</a> : <span key={k}>{label}</span>)
    } else if (m[3]) out.push(<strong key={k}>{inline(token.slice(2, -2), k)}</strong>)
    else if (m[4]) out.push(<em key={k}>{inline(token.slice(1, -1), k)}</em>)
    else if (m[5]) out.push(<a key={k} href={token} className="text-indigo-700 underline" rel="nofollow noopener noreferrer">{token}</a>)
    rest = rest.slice(m.index + token.length)
  }
  return out
}

function tableRow(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim())
}

export function Markdown({ source }: { source: string }) {
  const lines = source.replace(/\r\n?/g, '\n').split('\n')
  const blocks: ReactNode[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]!
    const key = `b${i}`
    if (/^\s*$/.test(line)) {
      i++
      continue
    }
    const fence = /^(```|~~~)\s*([\w+-]*)/.exec(line)
    if (fence) {
      const code: string[] = []
      i++
      while (i < lines.length && !lines[i]!.startsWith(fence[1]!)) code.push(lines[i++]!)
      i++
      blocks.push(<pre key={key} className="overflow-x-auto rounded-md bg-slate-900 p-3 text-sm text-slate-100"><code>{code.join('\n')}</code></pre>)
      continue
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line)
    if (heading) {
      const level = heading[1]!.length
      const cls = ['text-2xl font-semibold', 'text-xl font-semibold', 'text-lg font-semibold', 'font-semibold', 'font-semibold', 'font-semibold'][level - 1]
      const Tag = (`h${Math.min(level + 1, 6)}`) as 'h2' // the page's h1 is the repo name
      blocks.push(<Tag key={key} className={`${cls} mt-4`}>{inline(heading[2]!, key)}</Tag>)
      i++
      continue
    }
    if (/^(\*\s*\*\s*\*|-\s*-\s*-|_\s*_\s*_)[\s*_-]*$/.test(line)) {
      blocks.push(<hr key={key} className="border-slate-200" />)
      i++
      continue
    }
    if (line.startsWith('>')) {
      const quote: string[] = []
      while (i < lines.length && lines[i]!.startsWith('>')) quote.push(lines[i++]!.replace(/^>\s?/, ''))
      blocks.push(<blockquote key={key} className="border-l-4 border-slate-200 pl-3 text-slate-600"><Markdown source={quote.join('\n')} /></blockquote>)
      continue
    }
    if (line.includes('|') && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1]!)) {
      const head = tableRow(line)
      i += 2
      const rows: string[][] = []
      while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim()) rows.push(tableRow(lines[i++]!))
      blocks.push(
        <div key={key} className="overflow-x-auto">
          <table className="min-w-full text-sm">
            <thead><tr>{head.map((c, j) => <th key={j} className="border-b border-slate-200 px-2 py-1 text-left">{inline(c, `${key}h${j}`)}</th>)}</tr></thead>
            <tbody>{rows.map((r, ri) => <tr key={ri}>{r.map((c, j) => <td key={j} className="border-b border-slate-100 px-2 py-1">{inline(c, `${key}${ri}-${j}`)}</td>)}</tr>)}</tbody>
          </table>
        </div>,
      )
      continue
    }
    const listItem = /^\s*([-*+]|\d+[.)])\s+(.*)$/
    if (listItem.test(line)) {
      const ordered = /^\s*\d/.test(line)
      const items: string[] = []
      while (i < lines.length && listItem.test(lines[i]!)) items.push(listItem.exec(lines[i++]!)![2]!)
      const List = ordered ? 'ol' : 'ul'
      blocks.push(<List key={key} className={`${ordered ? 'list-decimal' : 'list-disc'} space-y-1 pl-6`}>{items.map((t, j) => <li key={j}>{inline(t, `${key}-${j}`)}</li>)}</List>)
      continue
    }
    const para: string[] = []
    while (i < lines.length && lines[i]!.trim() && !/^(#{1,6}\s|```|~~~|>|\s*([-*+]|\d+[.)])\s)/.test(lines[i]!)) para.push(lines[i++]!)
    blocks.push(<p key={key} className="leading-relaxed">{inline(para.join(' '), key)}</p>)
  }
  return <div className="space-y-3 text-slate-800">{blocks}</div>
}
