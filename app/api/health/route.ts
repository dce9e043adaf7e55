import { NextResponse } from 'next/server'
import { db } from '@/lib/db'

// Readiness: answers 200 once the database answers.
export async function GET() {
  try {
    await db.user.count()
    return NextResponse.json({ status: 'ok' })
  } catch {
    return NextResponse.json({ status: 'database unavailable' }, { status: 503 })
  }
}
