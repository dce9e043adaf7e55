// POST /spaces/{ns}/{name}.git/info/lfs/objects/batch|verify: lib/hub/files/lfs.ts
import { lfsRoutes } from '@/lib/hub/files/routes'

const routes = lfsRoutes('space')
export const POST = routes.POST
export const OPTIONS = routes.OPTIONS
