// Removes what interrupted or abandoned uploads left in the blob store (staged bytes older than a
// day) and blobs no revision refers to any more (older than a day). Run it from cron or a job.
import './load-env'
import { cleanupStaging } from '@/lib/storage'
import { removeUnreferencedBlobs } from '@/lib/hub/files'

const DAY = 24 * 3600 * 1000
const staged = await cleanupStaging(DAY)
const blobs = await removeUnreferencedBlobs({ graceMs: DAY })
console.log(`removed ${staged} staged uploads and ${blobs} unreferenced blobs`)
process.exit(0)
