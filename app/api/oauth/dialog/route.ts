// The moderation API's OpenAPI document names this authorization URL; it is /oauth/authorize.
export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from '@/app/oauth/authorize/route'
