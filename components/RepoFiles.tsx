// "Files and versions": one folder of a revision with sizes, LFS badges and download links, a
// branch selector, and (for writers) upload and delete.
import Link from 'next/link'
import { listRefs, listTree, type RepoRef } from '@/lib/hub/files'
import type { Caller } from '@/lib/policy'
import { encodedFilePath, repoPath } from '@/lib/hub/names'
import { RepoUpload, DeleteFileButton } from '@/components/RepoUpload'
import { BreakableName } from '@/components/repo/BreakableName'
import { DownloadIcon } from '@/components/repo/icons'
import { NoticeArea } from '@/components/Notice'

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['kB', 'MB', 'GB', 'TB']
  let value = bytes / 1000
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`
}

export async function RepoFiles({ caller, repo, revision, folder, mayWrite }: { caller: Caller; repo: RepoRef; revision: string; folder: string; mayWrite: boolean }) {
  const base = repoPath(repo.type, repo.namespace, repo.name)
  const [{ items }, refs] = await Promise.all([
    listTree(caller, repo, { revision, path: folder, recursive: false, expand: true, cursor: null, url: new URL('http://hub.invalid/') }),
    listRefs(caller, repo),
  ])
  const branches = refs.branches.map((b) => b.name)
  if (!branches.includes('main')) branches.unshift('main')
  const tab = (rev: string, path = '') => `${base}?tab=files&rev=${encodeURIComponent(rev)}${path ? `&path=${encodeURIComponent(path)}` : ''}`
  const crumbs = folder ? folder.split('/') : []
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <form method="get" action={base} className="flex items-center gap-2">
          <input type="hidden" name="tab" value="files" />
          <label htmlFor="rev" className="text-sm text-slate-600">Branch</label>
          <select id="rev" name="rev" defaultValue={revision} className="input w-auto py-1">
            {branches.map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
          <button className="btn-secondary py-1" type="submit">Switch</button>
        </form>
        <nav aria-label="Folder" className="min-w-0 text-sm [overflow-wrap:anywhere]">
          <Link href={tab(revision)} className="font-medium text-indigo-700 hover:underline">{repo.name}</Link>
          {crumbs.map((c, i) => (
            <span key={i}>
              <span className="px-1 text-slate-400">/</span>
              <Link href={tab(revision, crumbs.slice(0, i + 1).join('/'))} className="text-indigo-700 hover:underline"><BreakableName name={c} /></Link>
            </span>
          ))}
        </nav>
      </div>
      {/* A file's Delete says what it deleted here, above the list (its row is gone). */}
      <NoticeArea className="">
        {items.length === 0 ? (
          <p className="text-sm text-slate-600">No files yet. Upload some below, or push with any Hugging Face compatible client pointed at this hub.</p>
        ) : (
          <div className="overflow-x-auto">
            {/* The name column takes what the others leave: sizes and actions never wrap, the name wraps
                between its words. Below sm the size moves under the name and the actions are icons. */}
            <table className="w-full text-sm" data-testid="file-list">
              <thead className="text-left text-xs uppercase text-slate-500">
                <tr>
                  <th className="w-full py-2 pr-3">Name</th>
                  <th className="hidden py-2 pr-3 sm:table-cell">Size</th>
                  <th className="hidden py-2 pr-3 lg:table-cell">Last commit</th>
                  <th className="py-2"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {items.map((item) => {
                  const name = item.path.slice(folder ? folder.length + 1 : 0)
                  return (
                    <tr key={item.path}>
                      <td className="py-2 pr-3 [overflow-wrap:anywhere]" data-testid="file-name">
                        {item.type === 'directory' ? (
                          <Link href={tab(revision, item.path)} className="font-medium text-indigo-700 hover:underline"><span aria-hidden="true">📁 </span><BreakableName name={name} /></Link>
                        ) : (
                          <>
                            <Link className="text-indigo-700 hover:underline" href={`${base}/blob/${encodeURIComponent(revision)}/${encodedFilePath(item.path)}`}><BreakableName name={name} /></Link>
                            {item.lfs && <> <span className="badge border-sky-300 bg-sky-50 align-middle text-sky-800" title={`sha256 ${item.lfs.oid}`}>LFS</span></>}
                            <span className="block text-xs text-slate-500 sm:hidden">{formatSize(item.size)}</span>
                          </>
                        )}
                      </td>
                      <td className="hidden whitespace-nowrap py-2 pr-3 text-slate-600 sm:table-cell">{item.type === 'file' ? formatSize(item.size) : ''}</td>
                      <td className="hidden py-2 pr-3 text-slate-500 lg:table-cell"><span className="block max-w-xs truncate" title={item.lastCommit?.title}>{item.lastCommit?.title}</span></td>
                      <td className="whitespace-nowrap py-2 text-right">
                        {item.type === 'file' && (
                          <span className="flex items-start justify-end gap-1.5 sm:gap-2">
                            <a className="btn-secondary px-2 py-1.5 sm:px-3.5 sm:py-1" href={`${base}/resolve/${encodeURIComponent(revision)}/${encodedFilePath(item.path)}?download=true`} download aria-label={`Download ${name}`} title={`Download ${name}`}>
                              <DownloadIcon className="h-4 w-4 sm:hidden" />
                              <span className="hidden sm:inline">Download</span>
                            </a>
                            {mayWrite && <DeleteFileButton repo={repo} branch={revision} path={item.path} />}
                          </span>
                        )}
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        )}
      </NoticeArea>
      {mayWrite && <RepoUpload repo={repo} branch={revision} folder={folder} />}
    </div>
  )
}
