import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  // Native and wasm-backed packages stay as Node requires instead of being bundled.
  serverExternalPackages: [
    '@libsql/client',
    'libsql',
    '@prisma/adapter-libsql',
    '@prisma/adapter-pg',
    'pg',
    'onnxruntime-node',
    '@huggingface/transformers',
    'sharp',
    'compromise',
  ],
  // Lets several builds of one checkout coexist (e.g. a test run beside a demo server).
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  // Type checking is its own step of the test run (npm run typecheck), over app/, lib/, tests/ and
  // scripts/ together; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  devIndicators: false,
  // No page of the hub may be framed by another site (clickjacking on consent and settings forms).
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
    ]
  },
}

export default nextConfig
