// A full or read-only blob store disk is an outage, not a fault of the request: the soak's "blob
// store full" and "read-only" phases answered the uploads in flight 500 ("Internal error"); the
// route wrapper now answers 503 with Retry-After. The errors here are the kernel's own: a write to
// /dev/full fails with ENOSPC, as a write to a full disk does.
import fs from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { handle } from '@/lib/http/errors'
import { oauthHandler } from '@/lib/oauth/errors'

const writeToFullDisk = () => fs.writeFile('/dev/full', 'bytes of an upload')

describe.runIf(process.platform === 'linux')('a blob store that cannot take writes', () => {
  it('is a 503 with Retry-After in the hub API and OAuth shapes, not a 500', async () => {
    await expect(writeToFullDisk()).rejects.toMatchObject({ code: 'ENOSPC' })
    const hub = await handle(async () => {
      await writeToFullDisk()
      return new Response('stored')
    })()
    expect([hub.status, hub.headers.get('retry-after')]).toEqual([503, '5'])
    expect(await hub.json()).toEqual({ error: 'The file store cannot take writes for a moment; try again shortly' })
    const oauth = await oauthHandler(async () => {
      await writeToFullDisk()
      return new Response('stored')
    })()
    expect([oauth.status, ((await oauth.json()) as { error: string }).error]).toEqual([503, 'temporarily_unavailable'])
  })

  it('leaves other file system errors a 500', async () => {
    const missing = await handle(async () => {
      await fs.readFile('/nonexistent/modhub-test')
      return new Response('read')
    })()
    expect(missing.status).toBe(500)
  })
})
