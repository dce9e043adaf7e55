// The editor page of one text file (/{ns}/{name}/edit/{branch}/{path}, as on the Hub), for callers
// who may write the repository: the file's text in FileEditor, committed to that branch. README.md
// may be missing: the editor then creates it from a starter model card. Other missing files, files
// that are not text or too large to show, and revisions that are not branches get no editor.
import Link from 'next/link'
import { DEFAULT_BRANCH, fileView, listRefs, MAX_VIEW_BYTES, type RepoRef } from '@/lib/hub/files'
import { HubError } from '@/lib/http/errors'
import type { Caller } from '@/lib/policy'
import { encodedFilePath, repoPath } from '@/lib/hub/names'
import { formatSize } from '@/components/RepoFiles'
import { FileEditor } from '@/components/repo/FileEditor'

export const CARD_PATH = 'README.md'

/** A new card: the Hub's front matter (its license left to fill in) and a title. */
export function cardTemplate(name: string): string {
  return `---\nlicense: \n---\n# ${name}\n`
}

export async function RepoFileEdit({ caller, repo, revision, path, cardLabel }: { caller: Caller; repo: RepoRef; revision: string; path: string; cardLabel: string }) {
  const base = repoPath(repo.type, repo.namespace, repo.name)
  const rev = encodeURIComponent(revision)
  const fileHref = `${base}/blob/${rev}/${encodedFilePath(path)}`
  const branch = (await listRefs(caller, repo)).branches.find((b) => b.name === revision)
  if (!branch && revision !== DEFAULT_BRANCH) {
    return (
      <p className="text-sm text-slate-600">
        Edits are commits on a branch, and <code>{revision}</code> is not one. <Link className="text-indigo-700 underline" href={`${base}/edit/${DEFAULT_BRANCH}/${encodedFilePath(path)}`}>Edit {path} on {DEFAULT_BRANCH}</Link>
      </p>
    )
  }
  const file = await fileView(caller, repo, revision, path).catch((e: unknown) => {
    // A missing model card is the one file the editor creates; anything else missing is a 404.
    if (e instanceof HubError && e.status === 404 && path === CARD_PATH) return null
    throw e
  })
  if (file && file.text === null) {
    return (
      <p className="text-sm text-slate-600">
        {file.unshown === 'too-large' ? `This file is ${formatSize(file.size)}: files up to ${formatSize(MAX_VIEW_BYTES)} can be edited in the browser.` : 'This file is not text: it cannot be edited in the browser.'}{' '}
        <Link className="text-indigo-700 underline" href={fileHref}>Back to {path}</Link>
      </p>
    )
  }
  const isCard = path === CARD_PATH
  return (
    <FileEditor
      repo={{ type: repo.type, namespace: repo.namespace, name: repo.name }}
      branch={revision}
      path={path}
      initialText={file ? file.text! : cardTemplate(repo.name)}
      creating={file === null}
      parentCommit={file?.commitId ?? branch?.targetCommit ?? null}
      fileHref={fileHref}
      cancelHref={file ? fileHref : base}
      hint={isCard ? `The ${cardLabel.toLowerCase()}: Markdown, with its metadata (license, tags…) as YAML between the --- lines at the top.` : undefined}
    />
  )
}
