// Cards as Markdown (components/Markdown): where links and pictures point, and inputs that would
// overwhelm the parsers shown as text instead of failing the page.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { Markdown, cardUrl } from '@/components/Markdown'

const files = { blob: '/alice/m/blob/main', resolve: '/alice/m/resolve/main', folder: 'docs/guide' }
const html = (source: string, f = files) => renderToStaticMarkup(createElement(Markdown, { source, files: f }))

describe('cardUrl', () => {
  it('resolves relative paths against the file\'s folder, held at the repository root', () => {
    expect(cardUrl('notes.txt', 'link', files)).toBe('/alice/m/blob/main/docs/guide/notes.txt')
    expect(cardUrl('./a b.md#usage', 'link', files)).toBe('/alice/m/blob/main/docs/guide/a%20b.md#usage')
    expect(cardUrl('../README.md', 'link', files)).toBe('/alice/m/blob/main/docs/README.md')
    expect(cardUrl('../../../../x.png', 'image', files)).toBe('/alice/m/resolve/main/x.png')
    expect(cardUrl('%2e%2e/%2E%2E/y.txt', 'link', files)).toBe('/alice/m/blob/main/y.txt')
    expect(cardUrl('bad%zz', 'link', files)).toBeNull()
  })

  it('keeps http(s), mailto, fragments and paths on the hub; drops the rest', () => {
    expect(cardUrl('https://example.org/a', 'link', files)).toBe('https://example.org/a')
    expect(cardUrl('mailto:a@b.c', 'link', files)).toBe('mailto:a@b.c')
    expect(cardUrl('mailto:a@b.c', 'image', files)).toBeNull()
    expect(cardUrl('#top', 'link', files)).toBe('#top')
    expect(cardUrl('/models', 'link', files)).toBe('/models')
    for (const hostile of ['javascript:alert(1)', 'JaVaScRiPt:x', 'data:text/html,x', 'vbscript:x', '//evil.example/x', '/\\evil.example/x']) {
      expect([hostile, cardUrl(hostile, 'link', files)]).toEqual([hostile, null])
    }
  })
})

describe('Markdown', () => {
  it('renders GitHub Markdown, and HTML within GitHub\'s allow-list only', () => {
    const out = html('1. a\n   - nested\n\n~~old~~ [x](javascript:alert(1)) <img src="p.png" onerror="alert(1)"> <script>alert(1)</script>')
    expect(out).toContain('<li>nested</li>')
    expect(out).toContain('<del>old</del>')
    expect(out).toContain('src="/alice/m/resolve/main/docs/guide/p.png"')
    expect(out).not.toMatch(/onerror|<script|javascript:/i)
  })

  it('shows as text what nests deeper than any card (these overflowed the parsers\' stack or took minutes)', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const source of ['- '.repeat(1500) + 'x', '>'.repeat(3000) + ' deep', '<div>'.repeat(3000) + 'x', 'a'.repeat(300 * 1024)]) {
      const out = html(source)
      expect(out.startsWith('<div class="card-markdown')).toBe(true)
      expect(out).toContain('<pre')
    }
    error.mockRestore()
  })
})
