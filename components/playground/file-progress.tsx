import type { FileProgress } from '@/lib/moderation/browser/model-files'

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** One row per model file: a bar, bytes loaded of the total, and the download speed (or "from cache"). */
export function FileProgressList({ files }: { files: FileProgress[] }) {
  if (files.length === 0) return <p className="text-sm text-slate-500">No model files loaded yet.</p>
  return (
    <ul className="space-y-1.5" aria-label="Model files">
      {files.map((file) => {
        const fraction = file.total > 0 ? Math.min(1, file.loaded / file.total) : file.done ? 1 : 0
        return (
          // Phones: name and size on one line, the bar full width under them; wider: all three in a row.
          <li key={file.url} data-testid="file-progress" data-source={file.source} className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-2 gap-y-0.5 text-xs sm:grid-cols-[minmax(0,14rem)_minmax(6rem,1fr)_minmax(0,13rem)]">
            <span className="truncate font-mono text-slate-700" title={file.name}>{file.name}</span>
            <progress className="col-span-2 row-start-2 h-2 w-full accent-brand-600 sm:col-span-1 sm:col-start-2 sm:row-start-1" max={1} value={fraction} aria-label={`${file.name} downloaded`} />
            <span className="truncate text-right tabular-nums text-slate-600 sm:col-start-3 sm:row-start-1">
              {file.total > 0 ? `${formatBytes(file.loaded)} / ${formatBytes(file.total)}` : formatBytes(file.loaded)}{' '}
              {file.source === 'cache' ? '· from cache' : file.bytesPerSecond > 0 ? `· ${formatBytes(file.bytesPerSecond)}/s` : ''}
            </span>
          </li>
        )
      })}
    </ul>
  )
}
