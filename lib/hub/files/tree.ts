// Reading a revision: the tree listing (one folder or recursive, with `expand`), paths-info, the
// commit history and its count, in the Hub's JSON shapes.
import { db } from '@/lib/db'
import type { Caller } from '@/lib/policy'
import { HubError } from '@/lib/http/errors'
import { folderOid, lfsPointer } from './git'
import { cardMetadataAt } from './model-card'
import { checkedFolder } from './paths'
import { entryNotFound, repoAccess, resolveRevision, revisionAndPath, treeOf, type CommitRow, type EntryRow, type RepoRef } from './revisions'

export type TreeItem = {
  type: 'file' | 'directory'
  oid: string
  size: number
  path: string
  lfs?: { oid: string; size: number; pointerSize: number }
  lastCommit?: { id: string; title: string; date: string }
}

/** The size of the pointer git stores for an LFS file (the tree listing's and repo info's `pointerSize`). */
function lfsPointerSize(e: EntryRow): number {
  return Buffer.byteLength(lfsPointer(e.blobSha256, Number(e.size)))
}

function fileItem(e: EntryRow): TreeItem {
  const size = Number(e.size)
  return {
    type: 'file',
    oid: e.gitOid,
    size,
    path: e.path,
    ...(e.lfs ? { lfs: { oid: e.blobSha256, size, pointerSize: lfsPointerSize(e) } } : {}),
  }
}

/** Files and folders of a tree; folders carry the newest commit among their files. */
function itemsOf(entries: EntryRow[], folder: string, recursive: boolean): { item: TreeItem; lastCommitIds: string[] }[] {
  const prefix = folder ? folder + '/' : ''
  const files = new Map<string, { item: TreeItem; lastCommitIds: string[] }>()
  const folders = new Map<string, EntryRow[]>()
  for (const e of entries) {
    if (!e.path.startsWith(prefix)) continue
    const rest = e.path.slice(prefix.length).split('/')
    // Every folder between `folder` and the file (only the first level unless recursive).
    for (let depth = 1; depth < rest.length && (recursive || depth === 1); depth++) {
      const dir = prefix + rest.slice(0, depth).join('/')
      if (!folders.has(dir)) folders.set(dir, [])
      folders.get(dir)!.push(e)
    }
    if (recursive || rest.length === 1) files.set(e.path, { item: fileItem(e), lastCommitIds: [e.lastCommitId] })
  }
  const out = [...files.values()]
  for (const [dir, inside] of folders) {
    out.push({
      item: { type: 'directory', oid: folderOid(inside.map((e) => ({ path: e.path, oid: e.gitOid }))), size: 0, path: dir },
      lastCommitIds: [...new Set(inside.map((e) => e.lastCommitId))],
    })
  }
  return out.sort((a, b) => (a.item.type === b.item.type ? (a.item.path < b.item.path ? -1 : 1) : a.item.type === 'directory' ? -1 : 1))
}

/** Adds lastCommit (the newest commit that changed the file, or any file of the folder). */
async function expandItems(items: { item: TreeItem; lastCommitIds: string[] }[]): Promise<TreeItem[]> {
  const ids = [...new Set(items.flatMap((i) => i.lastCommitIds))]
  const commits = new Map((await db.repoCommit.findMany({ where: { id: { in: ids } } })).map((c) => [c.id, c]))
  return items.map(({ item, lastCommitIds }) => {
    const newest = lastCommitIds.map((id) => commits.get(id)).filter((c): c is CommitRow => !!c).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]
    // No securityFileStatus: nothing here scans files, and huggingface_hub reads one as the Hub
    // writes it (its avScan and pickleImportScan), failing on { status: 'unscanned' } alone.
    return { ...item, ...(newest ? { lastCommit: { id: newest.id, title: newest.title, date: newest.createdAt.toISOString() } } : {}) }
  })
}

const PAGE = { plain: 1000, expanded: 50 }

/** GET /api/{type}s/{ns}/{name}/tree/{revision}/{path}?recursive&expand&cursor; next page in a Link header. */
/** Where: a revision and a folder, or an API URL's segments `{revision}/{folder}`, the revision encoded or not (revisionAndPath). */
type TreeTarget = { revision: string; path: string } | { segments: string[] }

export async function listTree(caller: Caller, ref: RepoRef, q: TreeTarget & { recursive: boolean; expand: boolean; cursor: string | null; url: URL }) {
  const { repo } = await repoAccess(caller, ref, 'read')
  const { revision, path } = 'segments' in q ? await revisionAndPath(repo.id, q.segments) : q
  const folder = path ? checkedFolder(path) : ''
  const commit = await resolveRevision(repo.id, revision)
  const entries = await treeOf(commit?.id)
  const items = itemsOf(entries, folder, q.recursive)
  if (folder && items.length === 0) {
    const file = entries.find((e) => e.path === folder)
    if (!file) throw entryNotFound(folder)
    items.push({ item: fileItem(file), lastCommitIds: [file.lastCommitId] })
  }
  const pageSize = q.expand ? PAGE.expanded : PAGE.plain
  const offset = q.cursor ? Number.parseInt(Buffer.from(q.cursor, 'base64url').toString('utf8'), 10) : 0
  if (!Number.isInteger(offset) || offset < 0) throw new HubError(400, 'Invalid cursor')
  const page = items.slice(offset, offset + pageSize)
  let link: string | null = null
  if (offset + pageSize < items.length) {
    const next = new URL(q.url)
    next.searchParams.set('cursor', Buffer.from(String(offset + pageSize)).toString('base64url'))
    link = `<${next.toString()}>; rel="next"`
  }
  return { items: q.expand ? await expandItems(page) : page.map((i) => i.item), link }
}

/** POST /api/{type}s/{ns}/{name}/paths-info/{revision}: the entries that exist among `paths`. */
export async function pathsInfo(caller: Caller, ref: RepoRef, revision: string, body: { paths?: unknown; expand?: unknown }) {
  if (!Array.isArray(body.paths) || body.paths.length > 1000) throw new HubError(400, '"paths" must be a list of at most 1000 paths')
  const paths = body.paths.map((p) => checkedFolder(p))
  const { repo } = await repoAccess(caller, ref, 'read')
  const commit = await resolveRevision(repo.id, revision)
  const entries = await treeOf(commit?.id)
  const byPath = new Map(entries.map((e) => [e.path, e]))
  const found: { item: TreeItem; lastCommitIds: string[] }[] = []
  for (const p of new Set(paths)) {
    const file = byPath.get(p)
    if (file) {
      found.push({ item: fileItem(file), lastCommitIds: [file.lastCommitId] })
      continue
    }
    const inside = entries.filter((e) => e.path.startsWith(p + '/'))
    if (inside.length) {
      found.push({
        item: { type: 'directory', oid: folderOid(inside.map((e) => ({ path: e.path, oid: e.gitOid }))), size: 0, path: p },
        lastCommitIds: [...new Set(inside.map((e) => e.lastCommitId))],
      })
    }
  }
  return body.expand === true ? expandItems(found) : found.map((f) => f.item)
}

/** The commits reachable from a revision, newest first. */
async function history(repoId: string, head: CommitRow | null): Promise<CommitRow[]> {
  if (!head) return []
  const all = new Map((await db.repoCommit.findMany({ where: { repoId } })).map((c) => [c.id, c]))
  const chain: CommitRow[] = []
  for (let c: CommitRow | undefined = head; c; c = c.parentId ? all.get(c.parentId) : undefined) chain.push(c)
  return chain
}

export type CommitView = { id: string; title: string; message: string; authors: { user: string; avatar: string }[]; date: string; changes: { path: string; change: string }[] }

/** `origin`: the hub's public origin; an avatar is an absolute URL there, as whoami gives avatars. */
function commitView(c: CommitRow, origin: string): CommitView {
  let changes: CommitView['changes'] = []
  try {
    changes = JSON.parse(c.changes) as CommitView['changes']
  } catch {
    changes = []
  }
  return { id: c.id, title: c.title, message: c.message, authors: [{ user: c.authorName, avatar: `${origin}/avatars/${encodeURIComponent(c.authorName)}.svg` }], date: c.createdAt.toISOString(), changes }
}

/** The most commits a page of a repo's history holds. */
export const MAX_COMMITS_PAGE = 1000

/**
 * GET /api/{type}s/{ns}/{name}/commits/{revision}?limit&p: a page of the revision's history, newest first (`limit` 1
 * to MAX_COMMITS_PAGE, `page` from 0), the total for X-Total-Count and the next page for Link.
 */
export async function listCommits(caller: Caller, ref: RepoRef, q: { revision: string; limit: number; page: number; url: URL }) {
  const { repo } = await repoAccess(caller, ref, 'read')
  const head = await resolveRevision(repo.id, q.revision)
  const chain = await history(repo.id, head)
  const { limit, page } = q
  const slice = chain.slice(page * limit, (page + 1) * limit)
  let link: string | null = null
  if ((page + 1) * limit < chain.length) {
    const next = new URL(q.url)
    next.searchParams.set('p', String(page + 1))
    link = `<${next.toString()}>; rel="next"`
  }
  return { commits: slice.map((c) => commitView(c, q.url.origin)), total: chain.length, link }
}

/** The head commit, files and card metadata of a revision for repo info (sha, siblings, cardData); nulls and none in an empty repo. */
/** A file of repo info's siblings; with `blobs` (huggingface_hub's files_metadata) its git blob id, size and LFS facts. */
export type Sibling = { rfilename: string; blobId?: string; size?: number; lfs?: { sha256: string; size: number; pointerSize: number } }

export async function revisionSummary(repoId: string, revision: string, options: { blobs?: boolean } = {}) {
  const commit = await resolveRevision(repoId, revision)
  const entries = await treeOf(commit?.id)
  const sibling = (e: EntryRow): Sibling => {
    if (!options.blobs) return { rfilename: e.path }
    const size = Number(e.size)
    return { rfilename: e.path, blobId: e.gitOid, size, ...(e.lfs ? { lfs: { sha256: e.blobSha256, size, pointerSize: lfsPointerSize(e) } } : {}) }
  }
  return {
    sha: commit?.id ?? null,
    lastModified: commit?.createdAt ?? null,
    siblings: entries.map(sibling),
    cardData: await cardMetadataAt(commit?.id),
  }
}

