import { NextResponse } from 'next/server'
import { databaseAnswers } from '@/lib/hub/health'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

// Readiness: answers 200 once the database answers.
export async function GET() {
  return (await databaseAnswers()) ? NextResponse.json({ status: 'ok' }) : NextResponse.json({ status: 'database unavailable' }, { status: 503 })
}
export const { POST, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET'], hubMethodNotAllowed)
