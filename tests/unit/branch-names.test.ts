// Branch names (lib/hub/files/paths.ts): which a client may create, and which branch a name means.
import { describe, expect, it } from 'vitest'
import { branchNameProblem, branchNamed, checkedBranchName } from '@/lib/hub/files/paths'

describe('branchNamed: the branch a client names, for reads and writes alike', () => {
  it('reads refs/heads/X as X (once), HEAD as the default branch, anything else as itself', () => {
    expect(branchNamed('refs/heads/main')).toBe('main')
    expect(branchNamed('refs/heads/feat/x')).toBe('feat/x')
    expect(branchNamed('refs/heads/refs/heads/x')).toBe('refs/heads/x')
    expect(branchNamed('refs/heads/HEAD')).toBe('HEAD')
    expect(branchNamed('HEAD')).toBe('main')
    expect(branchNamed('dev')).toBe('dev')
  })

  it('is the name itself for every name checkedBranchName accepts', () => {
    for (const name of ['dev', 'feat/x', 'refs/heads/dev', 'v1.0', 'naïve']) expect(branchNamed(checkedBranchName(name))).toBe(checkedBranchName(name))
  })
})

describe('checkedBranchName: git check-ref-format, and the hub\'s own rules', () => {
  it('accepts what git accepts, refs/heads/X as X', () => {
    for (const name of ['main', 'feat/x', 'release/v1.0', 'user@host', 'a-b_c+d', 'naïve', 'deadbeef', 'x'.repeat(200)]) expect(branchNameProblem(name)).toBeNull()
    expect(checkedBranchName('refs/heads/copy')).toBe('copy')
  })

  it.each([
    ['', 'empty'], ['HEAD', 'HEAD'], ['refs/heads/HEAD', 'HEAD'], ['refs/pr/1', 'refs/'], ['refs/heads/refs/tags/v1', 'refs/'],
    ['0123456789abcdef0123456789abcdef01234567', 'commit id'], ['@', '"@"'], ['a@{1}', '@{'], ['a..b', '".."'],
    ['a b', 'spaces'], ['a\u0001b', 'control'], ['a\u007fb', 'control'], ['a~1', '~'], ['a^', '~'], ['a:b', '~'], ['a?', '~'], ['a*', '~'], ['a[b', '~'], ['a\\b', '~'],
    ['/a', '"/"'], ['a/', '"/"'], ['a//b', '"//"'], ['.a', '"."'], ['a/.b', '"."'], ['a.', 'end with "."'], ['a.lock', '.lock'], ['a.lock/b', '.lock'],
    ['-a', '"-"'], ['a#b', '#'], ['a%b', '%'], ['x'.repeat(201), 'at most'], ['a\ud800', 'Unicode'],
  ])('refuses %j (%s)', (name, reason) => {
    expect(() => checkedBranchName(name)).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining(reason) }))
  })

  it('refuses a value that is not a string', () => {
    expect(() => checkedBranchName(undefined)).toThrow(expect.objectContaining({ status: 400 }))
  })
})
