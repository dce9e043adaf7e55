// Where to send the browser after sign-in: only a path on this hub. Browsers read "\" as "/" and
// drop tabs and newlines inside URLs, so "/\evil.com" or "/<tab>/evil.com" would leave the site.
export function safeNextPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || /[\\\s\u0000-\u001f\u007f]/.test(value)) return '/'
  return value.startsWith('//') ? '/' : value
}
