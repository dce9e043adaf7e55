import { hubUrl } from '@/lib/config'
import { moderationOpenApi } from '@/lib/moderation/api/openapi'
import { moderationSettings } from '@/lib/moderation/api/settings'
import { refuseOtherMethods } from '@/lib/http/methods'
import { moderationMethodNotAllowed } from '@/lib/moderation/api/errors'

export function GET() {
  return Response.json(moderationOpenApi({ hubUrl: hubUrl(), limits: moderationSettings().limits }))
}
export const { POST, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET'], moderationMethodNotAllowed)
