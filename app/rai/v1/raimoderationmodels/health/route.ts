// GET /rai/v1/raimoderationmodels/health: readiness of the moderation models, for load balancers.
// 200 once every installed model is loaded (eager loading) or loadable (lazy); 503 while eager
// loading is still running or a model failed to load. Lists which engine each check would use.
import { handle } from '@/lib/http/errors'
import { readiness } from '@/lib/moderation/runtime'
import { refuseOtherMethods } from '@/lib/http/methods'
import { moderationMethodNotAllowed } from '@/lib/moderation/api/errors'

export const dynamic = 'force-dynamic'

export const GET = handle(
  async () => {
    const state = readiness()
    return Response.json(state, { status: state.ready ? 200 : 503 })
  },
  { cacheControl: 'no-store' },
)
export const { POST, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET'], moderationMethodNotAllowed)
