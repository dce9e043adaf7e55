import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { whoami } from '@/lib/hub/identity'
import { errorResponse, unauthorized } from '@/lib/http/errors'
import { preflight, withCors } from '@/lib/http/cors'

export async function GET(request: Request) {
  try {
    const caller = await callerFromRequest(request)
    if (!caller) throw unauthorized('Authorization header is required')
    return withCors(NextResponse.json(await whoami(caller.userId, caller.principal)))
  } catch (error) {
    return withCors(errorResponse(error))
  }
}

export const OPTIONS = preflight
