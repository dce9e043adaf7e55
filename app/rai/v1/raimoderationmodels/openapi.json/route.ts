import { hubUrl } from '@/lib/config'
import { moderationOpenApi } from '@/lib/moderation/api/openapi'
import { moderationSettings } from '@/lib/moderation/api/settings'

export function GET() {
  return Response.json(moderationOpenApi({ hubUrl: hubUrl(), limits: moderationSettings().limits }))
}
