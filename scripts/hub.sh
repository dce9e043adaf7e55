#!/usr/bin/env bash
# Runs the hub on a fresh clone: installs, prepares the database (SQLite by default) with demo
# data, builds and starts. PORT (default 3000) and DATABASE_URL may be set.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
export PORT=${PORT:-3000}
export HUB_URL=${HUB_URL:-http://localhost:$PORT}
[ -d node_modules/next ] || npm ci --ignore-scripts --no-audit --no-fund
echo "::: database"
npx tsx scripts/db.ts generate >/dev/null
npx tsx scripts/db.ts deploy
npx tsx scripts/seed.ts
echo "::: build"
npm run build
echo
echo "ModHub is starting at $HUB_URL"
echo "Sign in as alice / alice-demo-pass (more demo accounts in the README)."
# npm start's command line (package.json), without npm in between.
MALLOC_MMAP_THRESHOLD_=131072 exec node --max-semi-space-size=4 scripts/serve.mjs
