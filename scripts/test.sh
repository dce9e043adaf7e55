#!/usr/bin/env bash
# Runs every test: unit and integration tests (vitest) on SQLite, the integration tests again on
# PostgreSQL when one is available, then the end-to-end tests (Playwright + Debian Chromium)
# against a production build. Ends with "N passed, N failed".
#   TEST_POSTGRES_URL=postgresql://...   use this PostgreSQL (else a throwaway cluster is started
#                                        when Debian's PostgreSQL is installed; SKIP_POSTGRES=1 skips)
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
export AUTH_SECRET=${AUTH_SECRET:-test-only-secret}
mkdir -p .tmp
rm -f .tmp/report-*.json
[ -d node_modules/next ] || npm ci --ignore-scripts --no-audit --no-fund || exit 1
npx tsx scripts/db.ts generate >/dev/null || exit 1

echo "::: type check (tsc --noEmit over app, lib, tests, scripts)"
if npx tsc --noEmit -p . >.tmp/tsc.log 2>&1; then tc_pass=1; tc_fail=0; else tc_pass=0; tc_fail=1; grep 'error TS' .tmp/tsc.log | head -30; fi
echo "{\"name\":\"typecheck\",\"passed\":$tc_pass,\"failed\":$tc_fail}" >.tmp/report-typecheck.json

echo "::: unit + integration tests (SQLite)"
DATABASE_URL=file:./.tmp/vitest-sqlite.db npx vitest run --reporter=default --reporter=json --outputFile=.tmp/report-vitest-sqlite.json
reports=(.tmp/report-typecheck.json .tmp/report-vitest-sqlite.json)

pg_started=
if [ -z "${SKIP_POSTGRES:-}" ]; then
  if [ -z "${TEST_POSTGRES_URL:-}" ] && [ -x /usr/lib/postgresql/15/bin/postgres ]; then
    # A cluster of the test run's own (port and folder), so a developer's server is left alone.
    export PGPORT=${TEST_PGPORT:-55499} PGROOT="$PWD/.pgdata-test"
    if TEST_POSTGRES_URL=$(scripts/pg-throwaway.sh start); then pg_started=1; else
      echo "could not start the throwaway PostgreSQL; its log: $PGROOT/log"
      echo '{"name":"postgres-start","passed":0,"failed":1}' >.tmp/report-postgres-start.json
      reports+=(.tmp/report-postgres-start.json)
    fi
  fi
  if [ -n "${TEST_POSTGRES_URL:-}" ]; then
    echo "::: integration tests (PostgreSQL)"
    DATABASE_URL=$TEST_POSTGRES_URL npx vitest run tests/integration --reporter=default --reporter=json --outputFile=.tmp/report-vitest-postgres.json
    reports+=(.tmp/report-vitest-postgres.json)
  fi
  [ -n "$pg_started" ] && scripts/pg-throwaway.sh stop
fi

echo "::: build"
if npm run build >.tmp/build.log 2>&1; then
  echo "::: end-to-end tests (Playwright, Debian Chromium)"
  export DATABASE_URL=file:./.tmp/e2e.db
  rm -f .tmp/e2e.db*
  npx tsx scripts/db.ts deploy && npx tsx scripts/seed.ts >/dev/null
  PLAYWRIGHT_JSON=.tmp/report-playwright.json npx playwright test
  echo "::: playground again with the seeded tiny neural model repos (browser and server must agree)"
  MODERATION_MODEL_TOXICITY=hub-models/unbiased-toxic-roberta-tiny MODERATION_MODEL_PROMPT_INJECTION=hub-models/deberta-v3-base-injection-tiny \
  MODERATION_MODEL_TOPIC=hub-models/deberta-v3-base-zeroshot-v2.0-tiny MODERATION_MODEL_TOPIC_MINI=hub-models/nli-MiniLM2-L6-H768-tiny \
  MODERATION_MODEL_EMBEDDING=hub-models/multi-qa-mpnet-base-dot-v1-tiny MODERATION_MODEL_GIBBERISH=hub-models/autonlp-Gibberish-Detector-492513457-tiny \
  MODERATION_MODEL_BANCODE=hub-models/codenlbert-tiny PLAYWRIGHT_JSON=.tmp/report-playwright-neural.json npx playwright test tests/e2e/playground.spec.ts
else
  tail -50 .tmp/build.log
  echo "build failed"
fi
reports+=(.tmp/report-playwright.json .tmp/report-playwright-neural.json)

# The soak's short form on the build above: one instance on SQLite under mixed load, killed with
# kill -9 and restarted, clients hanging up mid-request and mid-upload, another process holding the
# write lock; one test per invariant checked from the database (bench/soak; npm run soak runs the
# full form, PostgreSQL with three instances included).
echo "::: soak, short form (SQLite, about a minute)"
[ -f .next/BUILD_ID ] && npm run soak -- --short
reports+=(.tmp/report-soak.json)

echo "::: summary"
node scripts/test-summary.mjs "${reports[@]}"
