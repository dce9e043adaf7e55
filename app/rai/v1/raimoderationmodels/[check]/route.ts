import { principalFromAuthorization } from '@/lib/auth/bearer'
import { methodNotAllowed } from '@/lib/moderation/api/errors'
import { createModerationHandler } from '@/lib/moderation/api/handler'
import { moderationSettings } from '@/lib/moderation/api/settings'
import { deploymentEngines } from '@/lib/moderation/engines/registry'
import { mayUseModeration } from '@/lib/policy'
import { addressKey, clientIp } from '@/lib/ratelimit'

const handleModerationRequest = createModerationHandler({
  ...moderationSettings(),
  engines: deploymentEngines(),
  resolvePrincipal: principalFromAuthorization,
  mayUseModeration,
  clientKey: (request) => addressKey(clientIp(request.headers)),
})

export async function POST(request: Request, { params }: { params: Promise<{ check: string }> }) {
  return handleModerationRequest(request, (await params).check)
}

export const GET = methodNotAllowed
export const PUT = methodNotAllowed
export const PATCH = methodNotAllowed
export const DELETE = methodNotAllowed
// As FastAPI answers it (Next's own OPTIONS listed every method, most of them refused).
export const OPTIONS = methodNotAllowed
