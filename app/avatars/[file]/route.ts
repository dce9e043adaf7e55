// Default avatars: a deterministic two-colour monogram, so profiles need no external image host.
import { createHash } from 'node:crypto'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

export async function GET(_: Request, { params }: { params: Promise<{ file: string }> }) {
  // Next hands route handlers their params decoded already: decoding again made "%25.svg" a 500.
  const name = (await params).file.replace(/\.svg$/, '').slice(0, 64)
  const hue = createHash('sha256').update(name).digest()[0]! * (360 / 256)
  const letter = (name[0] ?? '?').toUpperCase().replace(/[^A-Z0-9]/, '?')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="16" fill="hsl(${hue.toFixed(0)} 70% 45%)"/><text x="48" y="62" font-family="system-ui,sans-serif" font-size="44" font-weight="600" fill="#fff" text-anchor="middle">${letter}</text></svg>`
  return new Response(svg, { headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' } })
}
export const { POST, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET'], hubMethodNotAllowed)
