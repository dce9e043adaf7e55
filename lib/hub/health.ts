// Readiness of the hub's state, for GET /api/health (load balancers, orchestrators): the database
// answers, and the file store can take bytes (reachable, writable, not full). Both are asked at
// once; a store that does not answer within a few seconds counts as down (lib/storage).
import { db } from '@/lib/db'
import { blobStore } from '@/lib/storage'

async function databaseAnswers(): Promise<boolean> {
  try {
    await db.user.count()
    return true
  } catch {
    return false
  }
}

export type Readiness = { ready: boolean; status: 'ok' | 'database unavailable' | 'file store unavailable' | 'database and file store unavailable'; database: boolean; files: boolean }

export async function readiness(): Promise<Readiness> {
  const [database, files] = await Promise.all([databaseAnswers(), blobStore().ready()])
  const status = database && files ? 'ok' : !database && !files ? 'database and file store unavailable' : database ? 'file store unavailable' : 'database unavailable'
  return { ready: database && files, status, database, files }
}
