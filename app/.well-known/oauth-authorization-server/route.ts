// RFC 8414 metadata for MCP and other OAuth clients: the same document as openid-configuration.
export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from '@/app/.well-known/openid-configuration/route'

export const dynamic = 'force-dynamic'
