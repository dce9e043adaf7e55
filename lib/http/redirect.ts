// Redirect answers of route handlers. Location is always an absolute URL: a path is resolved on
// the hub's public origin (HUB_URL), since clients that follow redirects themselves parse it with
// `new URL(location)`, which refuses a bare path.
import { hubUrl } from '@/lib/config'

export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { ...headers, Location: new URL(location, `${hubUrl()}/`).toString() } })
}
