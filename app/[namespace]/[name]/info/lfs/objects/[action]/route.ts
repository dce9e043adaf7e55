// POST /{ns}/{name}.git/info/lfs/objects/batch|verify: lib/hub/files/lfs.ts
import { lfsRoutes } from '@/lib/hub/files/routes'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

const routes = lfsRoutes('model')
export const POST = routes.POST
export const OPTIONS = routes.OPTIONS
export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(['POST', 'OPTIONS'], hubMethodNotAllowed)
