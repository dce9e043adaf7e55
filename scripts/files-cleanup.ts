// Removes what interrupted or abandoned uploads left in the blob store (staged bytes) and blobs no
// revision refers to any more, both once older than a grace period: a day, or `-- --older-than
// HOURS` (at least 2: an upload URL is valid for an hour, and bytes it is still writing or has just
// written must not go). Run it from cron or a job.
import './load-env'
import { cleanupStaging } from '@/lib/storage'
import { removeUnreferencedBlobs } from '@/lib/hub/files'

const HOUR = 3600 * 1000
const MIN_HOURS = 2

function graceHours(): number {
  const at = process.argv.indexOf('--older-than')
  if (at === -1) return 24
  const value = process.argv[at + 1] ?? ''
  const hours = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN
  if (!(hours >= MIN_HOURS)) {
    console.error(`--older-than takes a number of hours, at least ${MIN_HOURS} (an upload URL is valid for an hour); got "${value.slice(0, 40)}"`)
    process.exit(2)
  }
  return hours
}

const hours = graceHours()
try {
  const staged = await cleanupStaging(hours * HOUR)
  const blobs = await removeUnreferencedBlobs({ graceMs: hours * HOUR })
  console.log(`removed ${staged} staged uploads and ${blobs} unreferenced blobs older than ${hours} h`)
  process.exit(0)
} catch (error) {
  // The database or the store out of reach: say so in a line (cron mails it); the next run goes on.
  console.error(`files:cleanup stopped: ${error instanceof Error ? error.message.trim().split('\n').at(-1) : String(error)}`)
  process.exit(1)
}
