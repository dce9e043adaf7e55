// CORS for the endpoints browsers call from other origins: OAuth (discovery, token, userinfo,
// device), whoami, and the Hub API a browser client uses (repo API, file downloads, LFS uploads):
// transformers.js and @huggingface/hub run in pages on any origin. Any origin, never cookies
// (no Allow-Credentials: a browser sends no session cookie and lets no page read a cookie-
// authenticated answer), so only a bearer token the page holds itself authorizes anything.
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Range, If-None-Match, If-Range',
  // What the clients read from answers: file identity and size (ETag, X-Repo-Commit, X-Linked-*,
  // Content-Range), paging (Link, X-Total-Count), the Hub's error codes, the upload part's ETag, and
  // the bearer challenge of a 401 (oauth4webapi reads it).
  'Access-Control-Expose-Headers':
    'ETag, Link, X-Total-Count, X-Repo-Commit, X-Linked-Etag, X-Linked-Size, X-Error-Code, X-Error-Message, Content-Range, Accept-Ranges, Content-Length, Content-Disposition, Retry-After, WWW-Authenticate',
  'Access-Control-Max-Age': '86400',
}

export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS })
}
