#!/usr/bin/env bash
# Starts or stops a private throwaway PostgreSQL on a loopback port for tests.
#   source scripts/pg.sh start   # exports PG_URL
#   scripts/pg.sh stop           # PG_STOP_MODE=immediate skips the shutdown checkpoint
set -u
PGDIR="${PGDIR:-/tmp/langgoap-pg}"
PGPORT="${PGPORT:-54329}"
# Where the server binaries live (Debian layout); test/support/requirements.ts looks here too.
PG_ROOT="${LANGGOAP_PG_ROOT:-/usr/lib/postgresql}"
pg_bin() {
  local initdb
  initdb=$(ls "$PG_ROOT"/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$initdb" ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || return 1
    initdb=$(ls "$PG_ROOT"/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  fi
  dirname "$initdb"
}
run_as_postgres() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "${1:-}" in
  start)
    BIN=$(pg_bin) || { echo "pg.sh: PostgreSQL is not available" >&2; return 1 2>/dev/null || exit 1; }
    if [ ! -f "$PGDIR/data/PG_VERSION" ]; then
      mkdir -p "$PGDIR"
      [ "$(id -u)" = "0" ] && chown postgres:postgres "$PGDIR"
      run_as_postgres "$BIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust >/dev/null
    fi
    if ! run_as_postgres "$BIN/pg_ctl" -D "$PGDIR/data" status >/dev/null 2>&1; then
      run_as_postgres "$BIN/pg_ctl" -D "$PGDIR/data" -o "-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1" -l "$PGDIR/log.txt" -w start >/dev/null
    fi
    export PG_URL="postgresql://postgres@127.0.0.1:$PGPORT/postgres"
    echo "pg.sh: PostgreSQL running at $PG_URL" >&2
    ;;
  stop)
    BIN=$(dirname "$(ls "$PG_ROOT"/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1)")
    # PG_STOP_MODE=immediate: no checkpoint, for a throwaway server whose owner is gone (test/support/pg-watchdog.sh).
    run_as_postgres "$BIN/pg_ctl" -D "$PGDIR/data" -m "${PG_STOP_MODE:-fast}" stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: source scripts/pg.sh start | scripts/pg.sh stop" >&2
    ;;
esac
