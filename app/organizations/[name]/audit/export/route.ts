// GET /organizations/{name}/audit/export: the organization's audit log as JSON lines (admins
// only), with the same filters as the audit page. Streamed, so a long log is never held in memory.
import { callerFromRequest } from '@/lib/auth/caller'
import { authorizedOrg } from '@/lib/hub/orgs'
import { auditJsonLines, parseAuditQuery } from '@/lib/hub/audit'
import { handle } from '@/lib/http/errors'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

type Params = { params: Promise<{ name: string }> }

export const GET = handle(async (request: Request, { params }: Params) => {
  const caller = await callerFromRequest(request)
  // (Next decodes route handlers' params already; decoding twice made "%25" a 500.)
  const org = await authorizedOrg(caller, (await params).name)
  const lines = auditJsonLines(org.id, parseAuditQuery(new URL(request.url).searchParams))
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    async cancel() {
      await lines.return(undefined)
    },
  })
  return new Response(body, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${org.name}-audit-log.jsonl"`,
    },
  })
}, { cacheControl: 'no-store' })
export const { POST, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET'], hubMethodNotAllowed)
