// POST /datasets/{ns}/{name}.git/info/lfs/objects/batch|verify: lib/hub/files/lfs.ts
import { lfsRoutes } from '@/lib/hub/files/routes'

export const POST = lfsRoutes('dataset').POST
