// Markdown of model, dataset and Space cards, as the Hub renders them: CommonMark with GitHub's
// extensions (tables, strikethrough, task lists, autolinks, nested lists) through remark, and the
// HTML cards mix in (`<div align="center">`, `<img width=…>`, `<details>`) through rehype-raw, then
// rehype-sanitize with GitHub's allow-list: no script, no event handlers, no style, no iframes.
// Rendered to React elements on the server, never to an HTML string.
//
// Relative links and images are the repository's files: a link opens the file's page at the
// revision shown, an image loads from its resolve URL (so a card's pictures in the repo show).
// Only http(s), mailto and in-page (#) targets survive; javascript:, data: and the like are dropped.
import type { ComponentProps } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize'

/** Where the card's repository files are: `{blob}/{path}` shows one, `{resolve}/{path}` is its bytes. */
export type CardFiles = { blob: string; resolve: string }

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

/** A link or image target as the page may use it, or null (the attribute is dropped). */
export function cardUrl(url: string, kind: 'link' | 'image', files?: CardFiles): string | null {
  const u = url.trim()
  if (u.startsWith('#')) return u
  if (ABSOLUTE.test(u)) return /^(https?:|mailto:)/i.test(u) && !(kind === 'image' && /^mailto:/i.test(u)) ? u : null
  if (u.startsWith('//')) return null // protocol-relative: another host, whatever the page's scheme
  if (u.startsWith('/')) return u // a path on this hub
  if (!files) return null
  // Relative to the card, which sits at the repository's root.
  const path = u.replace(/^\.\//, '')
  return `${kind === 'image' ? files.resolve : files.blob}/${path.split('/').map((s) => (s === '..' ? '' : s)).filter(Boolean).join('/')}`
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
  pre: ({ node: _, ...props }) => <pre {...props} className="overflow-x-auto rounded-md bg-slate-900 p-3 text-sm text-slate-100" />,
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

export function Markdown({ source, files }: { source: string; files?: CardFiles }) {
  return (
    <div className="card-markdown space-y-3 text-slate-800">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeRaw, [rehypeSanitize, SCHEMA]]}
        components={COMPONENTS}
        urlTransform={(url, key) => cardUrl(url, key === 'src' ? 'image' : 'link', files)}
      >
        {source}
      </ReactMarkdown>
    </div>
  )
}
