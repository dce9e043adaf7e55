// One file's page (/{ns}/{name}/blob/{rev}/{path}): where it is, its size, and its text with line
// numbers when it is text and not too large; a Markdown file is shown rendered, with its source a
// click away. Every file can be downloaded from here.
import Link from 'next/link'
import { fileView, listRefs, MAX_VIEW_BYTES, splitFrontMatter, DEFAULT_BRANCH, type RepoRef } from '@/lib/hub/files'
import type { Caller } from '@/lib/policy'
import { encodedFilePath, repoPath } from '@/lib/hub/names'
import { Markdown } from '@/components/Markdown'
import { formatSize } from '@/components/RepoFiles'
import { SuccessNotice } from '@/components/Notice'
import { PencilIcon } from '@/components/repo/icons'
import { BreakableName } from '@/components/repo/BreakableName'

/** Lines shown in the page; the rest of a longer file is read from its download. */
const MAX_LINES = 5000

/**
 * `mayWrite`: the caller may commit to the repository: a text file shown on a branch gets an Edit
 * button. `committed`: the commit id the editor just made (?committed=), said in a notice while it
 * is still the head of this revision.
 */
export async function RepoFileView({ caller, repo, revision, path, mayWrite = false, committed }: { caller: Caller; repo: RepoRef; revision: string; path: string; mayWrite?: boolean; committed?: string }) {
  const file = await fileView(caller, repo, revision, path)
  // Edits are commits on a branch: a file seen at a commit id has none to commit to.
  const editable = mayWrite && file.text !== null && (revision === DEFAULT_BRANCH || (await listRefs(caller, repo)).branches.some((b) => b.name === revision))
  const justCommitted = committed !== undefined && /^[0-9a-f]{7,64}$/.test(committed) && file.commitId.startsWith(committed)
  const base = repoPath(repo.type, repo.namespace, repo.name)
  const rev = encodeURIComponent(revision)
  const folderLink = (folder: string) => `${base}?tab=files&rev=${rev}${folder ? `&path=${encodeURIComponent(folder)}` : ''}`
  const crumbs = file.path.split('/')
  const allLines = file.text === null ? [] : file.text.replace(/\n$/, '').split('\n')
  // A row per line: a file of nothing but newlines would be half a million rows (a page of hundreds
  // of megabytes, minutes of the server's time). Past MAX_LINES the rest is the download's.
  const lines = allLines.slice(0, MAX_LINES)
  const markdown = /\.(md|markdown)$/i.test(file.path) && file.text !== null
  // Relative links in a Markdown file are relative to its folder.
  const folder = crumbs.slice(0, -1).join('/')
  // The text with line numbers.
  const source = file.text === null ? null : (
    <>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="font-mono text-xs leading-5" data-testid="file-text">
          <tbody>
            {lines.map((line, i) => (
              <tr key={i}>
                <td className="select-none border-r border-slate-100 px-2 text-right align-top text-slate-400">{i + 1}</td>
                <td className="whitespace-pre px-3">{line || ' '}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {allLines.length > MAX_LINES && (
        <p className="mt-2 text-slate-600">The first {MAX_LINES.toLocaleString('en')} of {allLines.length.toLocaleString('en')} lines: download the file to read the rest.</p>
      )}
    </>
  )
  return (
    <div className="space-y-4">
      {justCommitted && (
        <SuccessNotice>
          Your changes to {file.path} were committed to {revision} as <Link className="font-mono underline" href={`${base}/commit/${file.commitId}`}>{file.commitId.slice(0, 8)}</Link>.
        </SuccessNotice>
      )}
      <nav aria-label="File path" className="text-sm [overflow-wrap:anywhere]">
        <Link href={folderLink('')} className="font-medium text-indigo-700 hover:underline">{repo.name}</Link>
        {crumbs.map((c, i) => (
          <span key={i}>
            <span className="px-1 text-slate-400">/</span>
            {i < crumbs.length - 1 ? (
              <Link href={folderLink(crumbs.slice(0, i + 1).join('/'))} className="text-indigo-700 hover:underline"><BreakableName name={c} /></Link>
            ) : (
              <span aria-current="page" className="font-medium"><BreakableName name={c} /></span>
            )}
          </span>
        ))}
      </nav>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 pb-3 text-sm text-slate-600">
        <span>
          {formatSize(file.size)}
          {file.lfs && <span className="badge ml-2 border-sky-300 bg-sky-50 text-sky-800">LFS</span>}
          <span className="ml-2">· at <code className="text-xs">{revision}</code></span>
        </span>
        <span className="flex flex-wrap gap-2">
          {editable && (
            <Link className="btn-secondary py-1" href={`${base}/edit/${rev}/${encodedFilePath(file.path)}`} aria-label={`Edit ${file.path}`}>
              <PencilIcon />
              Edit
            </Link>
          )}
          <Link className="btn-secondary py-1" href={`${base}/commits/${rev}/${encodedFilePath(file.path)}`} aria-label={`History of ${file.path}`}>History</Link>
          <a className="btn-secondary py-1" href={`${base}/resolve/${rev}/${encodedFilePath(file.path)}`}>Raw</a>
          <a className="btn-secondary py-1" href={`${base}/resolve/${rev}/${encodedFilePath(file.path)}?download=true`} download>Download</a>
        </span>
      </div>
      {file.unshown === 'too-large' && <p className="text-sm text-slate-600">This file is {formatSize(file.size)}, more than the {formatSize(MAX_VIEW_BYTES)} shown in a page: download it to read it.</p>}
      {file.unshown === 'binary' && <p className="text-sm text-slate-600">This file is not text: download it to use it.</p>}
      {/* The front matter is metadata, not Markdown: the rendered view leaves it out, the source keeps it. */}
      {markdown && <Markdown source={splitFrontMatter(file.text!).body} files={{ blob: `${base}/blob/${rev}`, resolve: `${base}/resolve/${rev}`, folder }} />}
      {/* A Markdown file's source is a click away under its rendering; any other text is shown as is
          (a <details> without a summary would show the browser's own "Details" marker). */}
      {source && markdown && (
        <details className="text-sm">
          <summary className="cursor-pointer text-slate-600">Source</summary>
          {source}
        </details>
      )}
      {source && !markdown && <div className="text-sm">{source}</div>}
    </div>
  )
}
