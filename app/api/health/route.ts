import { NextResponse } from 'next/server'
import { readiness } from '@/lib/hub/health'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

// Readiness: 200 while the database answers and the file store can take bytes, 503 naming which cannot.
export async function GET() {
  const { ready, status, database, files } = await readiness()
  return NextResponse.json({ status, checks: { database: database ? 'ok' : 'unavailable', files: files ? 'ok' : 'unavailable' } }, { status: ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } })
}
export const { POST, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET'], hubMethodNotAllowed)
