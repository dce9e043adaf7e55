// The listing and collection route handlers behind a `fetch`, for the unmodified @huggingface/hub
// clients (their `fetch` option): requests go to the handlers as Next's router would hand them
// over, whatever origin a URL names, so a Link header on another origin (HUB_URL) is followed too.
import { GET as listGET } from '@/app/api/[repoType]/route'
import { GET as collectionsGET, POST as collectionsPOST } from '@/app/api/collections/route'
import { GET as collectionGET } from '@/app/api/collections/[namespace]/[slug]/route'
import { POST as itemsPOST } from '@/app/api/collections/[namespace]/[slug]/items/route'

/** Every URL the clients fetched, in order. */
export const fetched: string[] = []

export async function hubFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init)
  fetched.push(request.url)
  const [api, first, namespace, slug, rest, ...extra] = new URL(request.url).pathname.split('/').filter(Boolean).map(decodeURIComponent)
  if (api !== 'api' || !first || extra.length > 0) return new Response('no route', { status: 404 })
  if (first !== 'collections' && !namespace) return listGET(request, { params: Promise.resolve({ repoType: first }) })
  if (first === 'collections' && !namespace) return request.method === 'POST' ? collectionsPOST(request) : collectionsGET(request)
  if (first === 'collections' && namespace && slug && !rest) return collectionGET(request, { params: Promise.resolve({ namespace, slug }) })
  if (first === 'collections' && namespace && slug && rest === 'items') return itemsPOST(request, { params: Promise.resolve({ namespace, slug }) })
  return new Response('no route', { status: 404 })
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

/** The URL in a Link header's rel="next", as both clients read it. */
export function nextLink(response: Response): string | null {
  return /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1] ?? null
}
