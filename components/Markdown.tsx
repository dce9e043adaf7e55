// Markdown of model, dataset and Space cards, as the Hub renders them: CommonMark with GitHub's
// extensions (tables, strikethrough, task lists, autolinks, nested lists) through remark, and the
// HTML cards mix in (`<div align="center">`, `<img width=…>`, `<details>`) through rehype-raw, then
// rehype-sanitize with GitHub's allow-list: no script, no event handlers, no style, no iframes.
// Rendered to React elements on the server, never to an HTML string.
//
// Relative links and images are the repository's files: a link opens the file's page at the
// revision shown, an image loads from its resolve URL (so a card's pictures in the repo show).
// Only http(s), mailto and in-page (#) targets survive; javascript:, data: and the like are dropped.
import type { ComponentProps, ReactElement } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize'

/**
 * Where the card's repository files are: `{blob}/{path}` shows one, `{resolve}/{path}` is its bytes;
 * `folder` is the Markdown file's own folder in the repository ('' at the root), which relative
 * paths start from.
 */
export type CardFiles = { blob: string; resolve: string; folder?: string }

// GitHub's schema (hast-util-sanitize's default), plus the presentational attributes cards use.
const SCHEMA = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    img: [...(defaultSchema.attributes?.img ?? []), 'width', 'height', 'align'],
    div: [...(defaultSchema.attributes?.div ?? []), 'align'],
    p: [...(defaultSchema.attributes?.p ?? []), 'align'],
  },
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i

/**
 * A relative path resolved against a folder of the repository, `.` and `..` (also percent-encoded)
 * applied and held at the repository's root; each segment encoded again. Null when a segment is
 * not valid percent-encoding.
 */
function repoRelative(folder: string, relative: string): string | null {
  const segments = folder ? folder.split('/') : []
  for (const raw of relative.split('/')) {
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return null
    }
    if (segment === '' || segment === '.') continue
    if (segment === '..') segments.pop()
    else segments.push(segment)
  }
  return segments.map(encodeURIComponent).join('/')
}

/** A link or image target as the page may use it, or null (the attribute is dropped). */
export function cardUrl(url: string, kind: 'link' | 'image', files?: CardFiles): string | null {
  const u = url.trim()
  if (u.startsWith('#')) return u
  if (ABSOLUTE.test(u)) return /^(https?:|mailto:)/i.test(u) && !(kind === 'image' && /^mailto:/i.test(u)) ? u : null
  // A path on this hub: "/x", never "//host" or "/\host" (browsers read both as another host).
  if (u.startsWith('/')) return /^\/[^/\\]/.test(u) ? u : null
  if (!files) return null
  // Relative to the Markdown file's folder; a query or a fragment stays as it is.
  const tail = /[?#]/.exec(u)
  const path = repoRelative(files.folder ?? '', tail ? u.slice(0, tail.index) : u)
  if (path === null) return null
  return `${kind === 'image' ? files.resolve : files.blob}/${path}${tail ? u.slice(tail.index) : ''}`
}

/** Cards rendered as Markdown up to this size; a larger one is shown as its text. */
const MAX_RENDERED_CHARS = 256 * 1024
/** Containers (quotes, list items) one line may open; deeper is not a card but an attack on the parser. */
const MAX_LINE_NESTING = 32
/** HTML tags in one card: deep raw HTML nesting overflows the HTML parser's tree conversion. */
const MAX_HTML_TAGS = 2000

/**
 * Whether `source` is safe to hand to the parsers: remark and rehype recurse on nesting (a 3 KB
 * list of "- - - …" overflowed the stack, a page of ">" took a minute of CPU), so what nests deeper
 * than any card does, or is too large, is shown as text instead.
 */
function renderable(source: string): boolean {
  if (source.length > MAX_RENDERED_CHARS) return false
  for (const line of source.split('\n')) {
    const prefix = /^[\s>*+\-\d.)]*/.exec(line)![0]
    if ((prefix.match(/>|[*+-](?=\s|$)|\d+[.)](?=\s|$)/g)?.length ?? 0) > MAX_LINE_NESTING) return false
  }
  return (source.match(/<[a-zA-Z]/g)?.length ?? 0) <= MAX_HTML_TAGS
}

// The page's h1 is the repository's name: a card's headings start one level below it.
const HEADING = ['text-2xl', 'text-xl', 'text-lg', 'text-base', 'text-base', 'text-base'] as const
function heading(level: number) {
  const Tag = `h${Math.min(level + 1, 6)}` as 'h2'
  return function Heading({ node: _, ...props }: ComponentProps<'h2'> & { node?: unknown }) {
    return <Tag {...props} className={`${HEADING[level - 1]} mt-4 font-semibold`} />
  }
}

const COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  a: ({ node: _, ...props }) => <a {...props} className="text-indigo-700 underline" rel="nofollow noopener noreferrer" />,
  // A picture no wider than the card; lazy, and no referrer sent to another host.
  img: ({ node: _, ...props }) => <img {...props} alt={props.alt ?? ''} loading="lazy" referrerPolicy="no-referrer" className="inline max-w-full" />,
  ul: ({ node: _, ...props }) => <ul {...props} className="list-disc space-y-1 pl-6" />,
  ol: ({ node: _, ...props }) => <ol {...props} className="list-decimal space-y-1 pl-6" />,
  p: ({ node: _, ...props }) => <p {...props} className="leading-relaxed" />,
  blockquote: ({ node: _, ...props }) => <blockquote {...props} className="border-l-4 border-slate-200 pl-3 text-slate-600" />,
  // Focusable (tabIndex 0): a keyboard user scrolls a wide code block with the arrow keys.
  pre: ({ node: _, ...props }) => <pre {...props} tabIndex={0} className="overflow-x-auto rounded-md bg-slate-900 p-3 text-sm text-slate-100" />,
  // Inline code is shaded; inside a fenced block the pre's styles win (globals.css: .card-markdown pre code).
  code: ({ node: _, className, ...props }) => <code {...props} className={`${className ?? ''} rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em]`} />,
  table: ({ node: _, ...props }) => (
    <div className="overflow-x-auto">
      <table {...props} className="min-w-full text-sm" />
    </div>
  ),
  th: ({ node: _, ...props }) => <th {...props} className="border-b border-slate-200 px-2 py-1 text-left" />,
  td: ({ node: _, ...props }) => <td {...props} className="border-b border-slate-100 px-2 py-1" />,
  hr: () => <hr className="border-slate-200" />,
}

const asText = (source: string) => <pre className="whitespace-pre-wrap break-words font-sans text-sm">{source}</pre>

export function Markdown({ source, files }: { source: string; files?: CardFiles }) {
  let rendered: ReactElement
  if (!renderable(source)) rendered = asText(source)
  else {
    try {
      // Called, not mounted, so that a parser's failure on some input we did not foresee is caught
      // here (the card shown as text) instead of failing the whole page.
      rendered = ReactMarkdown({
        children: source,
        remarkPlugins: [remarkGfm],
        rehypePlugins: [rehypeRaw, [rehypeSanitize, SCHEMA]],
        components: COMPONENTS,
        urlTransform: (url, key) => cardUrl(url, key === 'src' ? 'image' : 'link', files),
      })
    } catch (error) {
      console.error('a card could not be rendered as Markdown', error)
      rendered = asText(source)
    }
  }
  return <div className="card-markdown space-y-3 text-slate-800">{rendered}</div>
}
