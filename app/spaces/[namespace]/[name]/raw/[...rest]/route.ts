// GET/HEAD /spaces/{ns}/{name}/raw/{revision}/{path}: lib/hub/files/resolve.ts
import { fileRoutes } from '@/lib/hub/files/routes'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

const routes = fileRoutes('space', 'raw')
export const GET = routes.GET
export const HEAD = routes.HEAD
export const OPTIONS = routes.OPTIONS
export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(['GET', 'HEAD', 'OPTIONS'], hubMethodNotAllowed)
