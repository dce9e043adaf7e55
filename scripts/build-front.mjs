// `npm run build`'s last step: bundles scripts/front.ts (the fast path of scripts/serve.mjs) into
// the build folder beside Next's output, so `npm start` runs plain JavaScript. Only the settings
// table is bundled into it; packages stay imports, and the route handlers it calls are Next's
// own build output, loaded at start (scripts/front.ts says why).
import path from 'node:path'
import { build } from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')
// next.config.ts's distDir rule.
const distDir = path.join(root, process.env.NEXT_DIST_DIR || '.next')
await build({
  entryPoints: [path.join(root, 'scripts/front.ts')],
  outfile: path.join(distDir, 'front.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: path.join(root, 'tsconfig.json'),
  logLevel: 'warning',
})
