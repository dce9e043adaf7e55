// Downloads: GET/HEAD /{ns}/{name}/resolve/{revision}/{path} (the file) and /raw/ (what git
// stores: an LFS file's pointer), with the headers the Hub's clients read and single byte ranges.
import { Readable } from 'node:stream'
import { readBlob } from '@/lib/storage'
import type { Caller } from '@/lib/policy'
import { lfsPointer } from './git'
import { actionToRead, entryAt, entryNotFound, repoAccess, resolveRevision, type RepoRef } from './revisions'
import { checkedPath } from './paths'
import { streamResponse } from '@/lib/http/stream-response'

export type FileRequest = {
  revision: string
  path: string
  raw: boolean
  method: 'GET' | 'HEAD'
  range: string | null
  /** A Range applies only while this validator (an ETag) still names the file (RFC 9110 13.1.5). */
  ifRange: string | null
  ifNoneMatch: string | null
  noContentDisposition: boolean
  download: boolean
}

/**
 * Parses one `bytes=` range against a size; null: answer the whole file; 'unsatisfiable': 416.
 * A header that is not one valid range (several ranges, another unit, last before first) is
 * ignored, as RFC 9110 14.2 lets a server do. An empty file has no byte to range over: its whole
 * (empty) answer is given, with the size in Content-Range (fileResponse), because
 * @huggingface/hub's fileDownloadInfo asks every file for `bytes=0-0` and reads the size there.
 */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return null
  if (match[1] !== '' && match[2] !== '' && Number(match[1]) > Number(match[2])) return null
  if (size === 0) return null
  let start: number
  let end: number
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    start = Math.max(0, size - suffix)
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  }
  if (start >= size) return 'unsatisfiable'
  return { start, end }
}

/** If-None-Match: `*` or one of the listed tags (weak or strong) is the file's. */
function matchesAny(header: string, etag: string): boolean {
  return header.split(',').some((t) => {
    const tag = t.trim()
    return tag === '*' || tag.replace(/^W\//, '') === etag
  })
}

function contentDisposition(path: string, download: boolean) {
  const name = path.split('/').pop()!
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `${download ? 'attachment' : 'inline'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

export async function fileResponse(caller: Caller, ref: RepoRef, req: FileRequest): Promise<Response> {
  const path = checkedPath(req.path)
  const { repo } = await repoAccess(caller, ref, actionToRead(path))
  const commit = await resolveRevision(repo.id, req.revision)
  const entry = await entryAt(commit?.id, path)
  if (!commit || !entry) throw entryNotFound(path, commit?.id)

  // /raw/ of an LFS file is its pointer, as git stores it; everything else is the file's bytes.
  const pointer = req.raw && entry.lfs ? Buffer.from(lfsPointer(entry.blobSha256, Number(entry.size))) : null
  const size = pointer ? pointer.length : Number(entry.size)
  const etag = `"${entry.lfs && !pointer ? entry.blobSha256 : entry.gitOid}"`
  const headers = new Headers({
    ETag: etag,
    'X-Repo-Commit': commit.id,
    'Accept-Ranges': 'bytes',
    'Content-Type': pointer ? 'text/plain; charset=utf-8' : 'application/octet-stream',
    'Cache-Control': repo.private || repo.gated ? 'private, max-age=0, must-revalidate' : 'public, max-age=0, must-revalidate',
  })
  if (entry.lfs && !pointer) {
    headers.set('X-Linked-Etag', etag)
    headers.set('X-Linked-Size', String(entry.size))
  }
  if (!req.noContentDisposition) headers.set('Content-Disposition', contentDisposition(path, req.download))
  if (req.ifNoneMatch && matchesAny(req.ifNoneMatch, etag)) return new Response(null, { status: 304, headers })
  // A resumed download whose file changed since (the branch moved) gets the whole new file, not
  // the new file's bytes after the old one's. If-Range is a strong ETag or a date: dates are not
  // kept, so a date never matches.
  const range = req.ifRange !== null && req.ifRange.trim() !== etag ? null : parseRange(req.range, size)
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${size}`)
    headers.set('Content-Type', 'application/json')
    return new Response(JSON.stringify({ error: `Range not satisfiable for a file of ${size} bytes` }), { status: 416, headers })
  }
  const status = range ? 206 : 200
  const length = range ? range.end - range.start + 1 : size
  headers.set('Content-Length', String(length))
  if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
  else if (size === 0 && req.range) headers.set('Content-Range', 'bytes */0')
  if (req.method === 'HEAD' || length === 0) return new Response(null, { status, headers })
  // The whole file is read as the range 0..size-1 too: a stream that knows where it ends stops after
  // its last byte instead of reading once more (with a fresh buffer) to find the end of the file.
  const body = pointer ? Readable.from([range ? pointer.subarray(range.start, range.end + 1) : pointer]) : await readBlob(entry.blobSha256, range ?? { start: 0, end: size - 1 })
  return streamResponse(body, { status, headers })
}
