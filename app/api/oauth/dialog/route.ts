// The moderation API's OpenAPI document names this authorization URL; it is /oauth/authorize.
export { GET, POST } from '@/app/oauth/authorize/route'
