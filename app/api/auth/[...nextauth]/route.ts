import { handlers } from '@/lib/auth/nextauth'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

export const { GET, POST } = handlers
export const { PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET', 'POST'], hubMethodNotAllowed)
