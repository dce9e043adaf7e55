// GET/HEAD /{ns}/{name}/resolve/{revision}/{path}: lib/hub/files/resolve.ts
import { fileRoutes } from '@/lib/hub/files/routes'

const routes = fileRoutes('model', 'resolve')
export const GET = routes.GET
export const HEAD = routes.HEAD
export const OPTIONS = routes.OPTIONS
