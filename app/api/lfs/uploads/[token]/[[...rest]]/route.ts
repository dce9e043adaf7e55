// Signed LFS upload URLs handed out by the batch API (lib/hub/files/lfs.ts):
//   PUT  /api/lfs/uploads/{token}             the whole object (basic transfer)
//   PUT  /api/lfs/uploads/{token}/part/{n}    one part (multipart transfer), answers its ETag
//   POST /api/lfs/uploads/{token}/complete    joins the parts
import { completeUpload, uploadObject, uploadPart } from '@/lib/hub/files'
import { handle, jsonBody, notFound } from '@/lib/http/errors'
import { preflight } from '@/lib/http/cors'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

type Params = { params: Promise<{ token: string; rest?: string[] }> }

export const PUT = handle(async (request: Request, { params }: Params) => {
  const { token, rest = [] } = await params
  if (rest.length === 0) {
    await uploadObject(token, request)
    return new Response(null, { status: 200 })
  }
  if (rest.length === 2 && rest[0] === 'part' && /^\d{1,5}$/.test(rest[1]!)) {
    const etag = await uploadPart(token, Number(rest[1]), request)
    return new Response(null, { status: 200, headers: { ETag: etag } })
  }
  throw notFound()
}, { cors: true })

export const POST = handle(async (request: Request, { params }: Params) => {
  const { token, rest = [] } = await params
  if (!(rest.length === 1 && rest[0] === 'complete')) throw notFound()
  await completeUpload(token, await jsonBody(request, 1024 * 1024))
  return Response.json({ success: true })
}, { cors: true })

export const OPTIONS = preflight
export const { GET, HEAD, PATCH, DELETE } = refuseOtherMethods(['PUT', 'POST', 'OPTIONS'], hubMethodNotAllowed)
