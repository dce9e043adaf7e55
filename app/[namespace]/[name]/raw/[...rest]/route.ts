// GET/HEAD /{ns}/{name}/raw/{revision}/{path}: lib/hub/files/resolve.ts
import { fileRoutes } from '@/lib/hub/files/routes'

const routes = fileRoutes('model', 'raw')
export const GET = routes.GET
export const HEAD = routes.HEAD
export const OPTIONS = routes.OPTIONS
