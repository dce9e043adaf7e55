#!/usr/bin/env bash
# npm run soak [-- --short]: builds if there is no production build, runs bench/soak/run.ts, and on
# any exit (failure, Ctrl-C, kill) ends every process the run started (their process groups are in
# .tmp/soak/pids) and the soak's PostgreSQL, and unmounts the blob store's tmpfs.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
mkdir -p .tmp/soak
# One soak at a time: a second would share the ports, the database folders and this bookkeeping.
exec 9>.tmp/soak/lock
flock -n 9 || { echo "another soak is running (.tmp/soak/lock)"; exit 1; }
: >.tmp/soak/pids
runner=
cleanup() {
  [ -n "$runner" ] && kill "$runner" 2>/dev/null
  while read -r pid; do [ -n "$pid" ] && kill -KILL -- "-$pid" 2>/dev/null; done <.tmp/soak/pids
  if [ -f .tmp/soak/pgroot ]; then
    pgroot=$(cat .tmp/soak/pgroot)
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$pgroot/data" -m immediate stop >/dev/null 2>&1
    else /usr/lib/postgresql/15/bin/pg_ctl -D "$pgroot/data" -m immediate stop >/dev/null 2>&1; fi
  fi
  if [ -f .tmp/soak/mounts ]; then
    while read -r dir; do [ -n "$dir" ] && umount -l "$dir" 2>/dev/null; done <.tmp/soak/mounts
    rm -f .tmp/soak/mounts
  fi
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
if [ ! -f .next/BUILD_ID ]; then npm run build >.tmp/soak/build.log 2>&1 || { tail -30 .tmp/soak/build.log; exit 1; }; fi
npx tsx scripts/db.ts generate >/dev/null || exit 1
node node_modules/tsx/dist/cli.mjs bench/soak/run.ts "$@" &
runner=$!
wait "$runner"
status=$?
runner=
exit $status
