// README.md's front matter as the Hub reads it into cardData: YAML, not a flat subset of it.
import { describe, expect, it } from 'vitest'
import { parseFrontMatter } from '@/lib/hub/files/model-card'
import { cardTags } from '@/lib/hub/repos'
import { initialOperations } from '@/lib/hub/files/initial-commit'

describe('parseFrontMatter', () => {
  it('reads nested lists and maps, numbers and anchors as YAML does', () => {
    const card = [
      '---',
      'license: mit',
      'thumbnail: 123',
      'model-index:',
      '  - name: m',
      '    results: []',
      'widget:',
      '  - text: hello',
      'defaults: &d [1, 2]',
      'again: *d',
      'tags:',
      '  - moderation',
      '  - "quoted: yes"',
      '---',
      '# Body',
    ].join('\n')
    const { metadata, body } = parseFrontMatter(card)
    expect(metadata).toEqual({
      license: 'mit',
      thumbnail: 123,
      'model-index': [{ name: 'm', results: [] }],
      widget: [{ text: 'hello' }],
      defaults: [1, 2],
      again: [1, 2],
      tags: ['moderation', 'quoted: yes'],
    })
    expect(body).toBe('# Body')
    expect(cardTags(metadata)).toEqual(['moderation', 'quoted: yes', 'license:mit'])
  })

  it('reads a card that starts with a byte-order mark, and one with front matter only', () => {
    expect(parseFrontMatter('\uFEFF---\nlicense: apache-2.0\n---\nText').metadata).toEqual({ license: 'apache-2.0' })
    expect(parseFrontMatter('---\nlicense: mit\n---').metadata).toEqual({ license: 'mit' })
  })

  it('counts front matter YAML cannot read, or that is not a map, as none, and keeps the body', () => {
    expect(parseFrontMatter('---\nkey: [unclosed\n---\nBody')).toEqual({ metadata: {}, body: 'Body' })
    expect(parseFrontMatter('---\n- a\n- b\n---\nBody')).toEqual({ metadata: {}, body: 'Body' })
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${'bcdefghi'[i]}: &${'bcdefghi'[i]} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n')
    expect(parseFrontMatter(`---\n${laughs}\n---\nBody`).metadata).toEqual({})
    expect(parseFrontMatter(`---\nk: ${'['.repeat(100_000)}\n---\nBody`).metadata).toEqual({})
    expect(parseFrontMatter('No front matter').metadata).toEqual({})
  })
  it('reads a long card an entry at a time: an entry too large to read safely is left out, the others kept', () => {
    const results = Array.from({ length: 400 }, (_, i) => `      - task: {type: t${i}}\n        metrics: [{type: accuracy, value: 0.${i}}]`).join('\n')
    const card = `---\nlicense: mit\nmodel-index:\n  - name: big\n    results:\n${results}\npipeline_tag: text-classification\ntags: [a, b]\n---\nBody`
    expect(card.length).toBeGreaterThan(4096)
    expect(parseFrontMatter(card).metadata).toEqual({ license: 'mit', pipeline_tag: 'text-classification', tags: ['a', 'b'] })
    expect(parseFrontMatter('---\n- a\n- b\n' + 'x'.repeat(5000) + '\n---\nBody').metadata).toEqual({})
  })
  it('a new Space\'s title reads back as it was given, whatever YAML makes of plain text ("Demo: v2", "#1", "yes")', () => {
    for (const title of ['a-space', 'Demo: v2', '#1', 'yes', '123']) {
      const [readme] = initialOperations([], { space: { title, sdk: 'gradio' } })
      const text = Buffer.from((readme as { content: Uint8Array }).content).toString('utf8')
      expect(parseFrontMatter(text).metadata).toEqual({ title, sdk: 'gradio' })
    }
  })
})
