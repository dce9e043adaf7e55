#!/usr/bin/env bash
# Start (or stop) a throwaway PostgreSQL cluster from Debian's packages on 127.0.0.1, for tests.
#   scripts/pg-throwaway.sh start   -> prints the DATABASE_URL to use
#   scripts/pg-throwaway.sh stop
set -euo pipefail
cd "$(dirname "$0")/.."
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PGPORT=${PGPORT:-55432}
PGROOT=${PGROOT:-"$PWD/.pgdata"}
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "${1:-start}" in
  start)
    # Never pull the data folder from under a server that is still running there.
    as_postgres "$PGBIN/pg_ctl" -D "$PGROOT/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PGROOT" && mkdir -p "$PGROOT"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$PGROOT"
    as_postgres "$PGBIN/initdb" -D "$PGROOT/data" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
    as_postgres "$PGBIN/pg_ctl" -D "$PGROOT/data" -l "$PGROOT/log" -w \
      -o "-p $PGPORT -k $PGROOT -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off" start >/dev/null
    psql -h 127.0.0.1 -p "$PGPORT" -U postgres -qc 'create database modhub' >/dev/null
    echo "postgresql://postgres@127.0.0.1:$PGPORT/modhub"
    ;;
  stop)
    as_postgres "$PGBIN/pg_ctl" -D "$PGROOT/data" -m immediate stop >/dev/null 2>&1 || true
    ;;
esac
