// Readiness of the hub's state: the database answers.
import { db } from '@/lib/db'

export async function databaseAnswers(): Promise<boolean> {
  try {
    await db.user.count()
    return true
  } catch {
    return false
  }
}
