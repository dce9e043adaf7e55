import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { whoami } from '@/lib/hub/identity'
import { handle, unauthorized } from '@/lib/http/errors'
import { preflight } from '@/lib/http/cors'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

export const GET = handle(
  async (request: Request) => {
    const caller = await callerFromRequest(request)
    if (!caller) throw unauthorized('Authorization header is required')
    return NextResponse.json(await whoami(caller.userId, caller.principal))
  },
  { cors: true },
)

export const OPTIONS = preflight
export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(['GET', 'OPTIONS'], hubMethodNotAllowed)
