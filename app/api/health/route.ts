import { NextResponse } from 'next/server'
import { databaseAnswers } from '@/lib/hub/health'

// Readiness: answers 200 once the database answers.
export async function GET() {
  return (await databaseAnswers()) ? NextResponse.json({ status: 'ok' }) : NextResponse.json({ status: 'database unavailable' }, { status: 503 })
}
