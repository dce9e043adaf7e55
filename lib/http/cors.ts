// CORS for the endpoints browsers call from other origins (discovery, token, userinfo, whoami):
// any origin, no cookies, and a preflight that allows the Authorization header.
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '86400',
}

export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS })
}
