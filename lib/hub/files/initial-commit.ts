// A repo's first files, sent with its creation: @huggingface/hub's createRepo puts `files` (a few
// small files, base64) and `license` into POST /api/repos/create, and on the Hub they are the new
// repo's first commit on main ("initial commit"); a license, and a Space's title and SDK, become the
// README's metadata (spaceInfo reads the SDK there). The new-repository page does the same with its
// license. As on the Hub, that commit also holds a .gitattributes (the caller's own, if it sends one),
// so a new repo is never without a commit: a download or snapshot of an empty repo finds main.
// Every file is checked before the repo exists, so a refused request creates nothing.
import YAML from 'yaml'
import { z } from 'zod'
import { db } from '@/lib/db'
import { authorizedRepo, createRepo } from '@/lib/hub/repos'
import type { RepoType } from '@/lib/hub/names'
import type { Caller } from '@/lib/policy'
import { HubError, badRequest } from '@/lib/http/errors'
import { createCommit, inlineFileContent, inlineFileValue, type CommitOperation } from './commit'
import { fileLimits } from './limits'
import { checkedPath } from './paths'
import { DEFAULT_BRANCH } from './revisions'
import { firstCommitGitAttributes } from './gitattributes'

/** A license identifier as the Hub's metadata writes it ("mit", "apache-2.0", "cc-by-4.0", "other"). */
const LICENSE = /^[a-z0-9][a-z0-9.+-]{0,63}$/i
const README = 'README.md'

/** The SDKs a Space names in its card (what the Hub's createRepo accepts). */
export const SPACE_SDKS = ['gradio', 'docker', 'static', 'streamlit'] as const
export type SpaceSdk = (typeof SPACE_SDKS)[number]

/** What the card of a new repo says when the caller sends no README: its license, and a Space's title and SDK. */
export type InitialCard = { license?: string; space?: { title: string; sdk: SpaceSdk } }

/** The first commit's operations; 400 or 422 (as the commit API answers) for anything wrong. */
export function initialOperations(type: RepoType, files: z.output<typeof inlineFileValue>[], card: InitialCard = {}): CommitOperation[] {
  const { license, space } = card
  const { maxCommitOperations } = fileLimits()
  if (files.length > maxCommitOperations) throw new HubError(422, `A commit may hold at most ${maxCommitOperations} operations`)
  const paths = new Set<string>()
  const operations: CommitOperation[] = files.map((file) => {
    const path = checkedPath(file.path)
    if (paths.has(path)) throw badRequest(`${path} is given twice`)
    paths.add(path)
    return { kind: 'file', path, content: inlineFileContent(path, file.content, file.encoding) }
  })
  if (license !== undefined && !LICENSE.test(license)) throw badRequest(`Invalid license ${JSON.stringify(license.slice(0, 100))}: give an identifier such as "mit" or "apache-2.0"`)
  // A README of the caller's own keeps its words; the metadata goes into a README only where none is given.
  const metadata = [
    // A title is the user's text ("Demo: v2", "#1"): written as YAML writes it, quoted where a plain one would read otherwise.
    ...(space ? [YAML.stringify({ title: space.title }, { lineWidth: 0 }).trimEnd(), `sdk: ${space.sdk}`] : []),
    ...(license !== undefined ? [`license: ${license.toLowerCase()}`] : []),
  ]
  if (metadata.length > 0 && !paths.has(README)) {
    operations.push({ kind: 'file', path: README, content: Buffer.from(`---\n${metadata.join('\n')}\n---\n`) })
  }
  const gitAttributes = firstCommitGitAttributes(type, paths)
  if (gitAttributes) operations.unshift(gitAttributes)
  return operations
}

/**
 * Creates the repo and commits `operations` to main as its first commit. Should the commit fail
 * (the creator may create in the namespace but not write the repo, or the database fails), the
 * repo is removed again; the blobs already stored are left to the blob cleanup, as after any
 * refused commit.
 */
export async function createRepoWithFiles(
  caller: NonNullable<Caller>,
  input: Parameters<typeof createRepo>[1],
  operations: CommitOperation[],
  meta: { ip?: string | null } = {},
) {
  const repo = await createRepo(caller, input)
  try {
    await authorizedRepo(caller, repo.type as RepoType, repo.namespace, repo.name, 'write')
    await createCommit(caller, repo, DEFAULT_BRANCH, { summary: 'initial commit', description: '', parentCommit: null }, operations, meta)
  } catch (error) {
    // deleteMany: a repo someone deleted meanwhile must not hide why the commit failed.
    await db.repo.deleteMany({ where: { id: repo.id } })
    throw error
  }
  return repo
}
