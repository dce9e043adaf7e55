// The model files the playground runs in the browser: neural models from MODELS_DIR and the
// offline engines' graphs. Only files in the playground's catalog are served (no path from the
// URL reaches the file system unchecked).
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { modelFileOnDisk } from '@/lib/moderation/browser/server-catalog'

export async function GET(_request: Request, { params }: { params: Promise<{ path: string[] }> }) {
  const file = await modelFileOnDisk((await params).path)
  let size: number
  try {
    const stat = file ? fs.statSync(file) : null
    if (!stat?.isFile()) return new Response('Not found', { status: 404 })
    size = stat.size
  } catch {
    return new Response('Not found', { status: 404 })
  }
  const body = Readable.toWeb(fs.createReadStream(file!)) as ReadableStream<Uint8Array>
  return new Response(body, {
    headers: {
      'Content-Type': file!.endsWith('.json') ? 'application/json' : 'application/octet-stream',
      'Content-Length': String(size),
      // The playground keeps these in the Cache API under versioned URLs; a second HTTP copy would only double the storage.
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
