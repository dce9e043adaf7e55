// README.md's front matter as the Hub reads it into cardData: YAML, not a flat subset of it.
import { describe, expect, it } from 'vitest'
import { parseFrontMatter } from '@/lib/hub/files/model-card'
import { parseYamlSources } from '@/lib/hub/files/yaml-thread'
import { cardTags } from '@/lib/hub/repos'
import { initialOperations } from '@/lib/hub/files/initial-commit'

describe('parseFrontMatter', () => {
  it('reads nested lists and maps, numbers and anchors as YAML does', async () => {
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
    const { metadata, body } = await parseFrontMatter(card)
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

  it('reads a card that starts with a byte-order mark, and one with front matter only', async () => {
    expect((await parseFrontMatter('\uFEFF---\nlicense: apache-2.0\n---\nText')).metadata).toEqual({ license: 'apache-2.0' })
    expect((await parseFrontMatter('---\nlicense: mit\n---')).metadata).toEqual({ license: 'mit' })
  })

  it('counts front matter YAML cannot read, or that is not a map, as none, and keeps the body', async () => {
    expect(await parseFrontMatter('---\nkey: [unclosed\n---\nBody')).toEqual({ metadata: {}, body: 'Body' })
    expect(await parseFrontMatter('---\n- a\n- b\n---\nBody')).toEqual({ metadata: {}, body: 'Body' })
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${'bcdefghi'[i]}: &${'bcdefghi'[i]} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n')
    // Aliases that would expand past 100 nodes are not read: only the entry without one is kept.
    expect(Object.keys((await parseFrontMatter(`---\n${laughs}\n---\nBody`)).metadata)).toEqual(['a'])
    expect((await parseFrontMatter(`---\nk: ${'['.repeat(100_000)}\n---\nBody`)).metadata).toEqual({})
    expect((await parseFrontMatter('No front matter')).metadata).toEqual({})
  })
  it('reads a long card an entry at a time: an entry too large to read safely is left out, the others kept', async () => {
    const results = Array.from({ length: 400 }, (_, i) => `      - task: {type: t${i}}\n        metrics: [{type: accuracy, value: 0.${i}}]`).join('\n')
    const card = `---\nlicense: mit\nmodel-index:\n  - name: big\n    results:\n${results}\npipeline_tag: text-classification\ntags: [a, b]\n---\nBody`
    expect(card.length).toBeGreaterThan(4096)
    expect((await parseFrontMatter(card)).metadata).toEqual({ license: 'mit', pipeline_tag: 'text-classification', tags: ['a', 'b'] })
    expect((await parseFrontMatter('---\n- a\n- b\n' + 'x'.repeat(5000) + '\n---\nBody')).metadata).toEqual({})
  })
  it('a new Space\'s title reads back as it was given, whatever YAML makes of plain text ("Demo: v2", "#1", "yes")', async () => {
    for (const title of ['a-space', 'Demo: v2', '#1', 'yes', '123']) {
      const readme = initialOperations('space', [], { space: { title, sdk: 'gradio' } }).find((operation) => 'path' in operation && operation.path === 'README.md')
      const text = Buffer.from((readme as { content: Uint8Array }).content).toString('utf8')
      expect((await parseFrontMatter(text)).metadata).toEqual({ title, sdk: 'gradio' })
    }
  })
  it('keeps the other entries when one cannot be read (a colon in a plain value, a duplicate key, a tab); the closing --- is a line of its own', async () => {
    expect((await parseFrontMatter('---\ntitle: Demo: v2\nsdk: gradio\nlicense: mit\n---\nBody')).metadata).toEqual({ sdk: 'gradio', license: 'mit' })
    expect((await parseFrontMatter('---\nlicense: mit\nlicense: apache-2.0\ntags: [a]\n---\n')).metadata).toEqual({ license: 'apache-2.0', tags: ['a'] })
    expect((await parseFrontMatter('---\n# ----------\nlicense: mit\ndescription: ends with ---\ntags: [a]\n---\nBody')).metadata).toEqual({ license: 'mit', description: 'ends with ---', tags: ['a'] })
    expect((await parseFrontMatter('---\n---\nBody'))).toEqual({ metadata: {}, body: 'Body' })
  })

  it('reads a __proto__ key as data, never as the metadata\'s prototype', async () => {
    const { metadata } = await parseFrontMatter('---\n__proto__:\n  pipeline_tag: text-classification\nlicense: mit\n---\n')
    expect(metadata).toEqual({ license: 'mit' })
    expect(metadata.pipeline_tag).toBeUndefined()
  })

  it('reads YAML on a thread with a time limit: a read past it counts as unreadable and the next read gets a new thread; the loop turns meanwhile', async () => {
    const hostile = 'k: ' + '[{'.repeat(15) + '}]'.repeat(15) + '[a]'.repeat(1300)
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const [slow] = await parseYamlSources(Array(15).fill(hostile), 5)
    clearInterval(timer)
    expect(slow).toBeNull()
    expect(ticks).toBeGreaterThan(0)
    expect(await parseYamlSources(['a: 1', 'b: [unclosed'])).toEqual([{ value: { a: 1 } }, null])
  })
})
