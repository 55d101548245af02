#!/usr/bin/env bash
# Starts or stops a private throwaway PostgreSQL for tests, on a loopback port or (PG_LISTEN=socket) on a Unix socket
# in its own directory only: no TCP port, so nothing on the machine can take the port between choosing and binding it.
# Throwaway data, so no fsync: start-up and writes do not wait on a busy disk. Commits are acknowledged before their WAL
# is written (synchronous_commit=off) unless PG_SYNC_COMMIT=on: a test that crashes the server (pg_ctl stop -m immediate)
# and checks what survived needs it on, or a commit already acknowledged can be lost with the WAL buffers. (fsync=off is
# safe there: the server's processes die, the kernel's page cache holds what was written.)
#   source scripts/pg.sh start   # exports PG_URL
#   scripts/pg.sh stop           # PG_STOP_MODE=immediate skips the shutdown checkpoint, smart waits for clients to leave
set -u
PGDIR="${PGDIR:-/tmp/langgoap-pg}"
PGPORT="${PGPORT:-54329}"
PG_LISTEN="${PG_LISTEN:-tcp}"
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
      run_as_postgres "$BIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust --no-sync >/dev/null
    fi
    if [ "$PG_LISTEN" = socket ]; then listen="''"; else listen=127.0.0.1; fi
    if ! run_as_postgres "$BIN/pg_ctl" -D "$PGDIR/data" status >/dev/null 2>&1; then
      run_as_postgres "$BIN/pg_ctl" -D "$PGDIR/data" \
        -o "-p $PGPORT -k $PGDIR -c listen_addresses=$listen -c fsync=off -c synchronous_commit=${PG_SYNC_COMMIT:-off} -c full_page_writes=off" \
        -l "$PGDIR/log.txt" -w start >/dev/null
    fi
    if [ "$PG_LISTEN" = socket ]; then
      # node-postgres and libpq read a Unix socket's directory from the host parameter.
      export PG_URL="postgresql://postgres@localhost/postgres?host=$PGDIR&port=$PGPORT"
    else
      export PG_URL="postgresql://postgres@127.0.0.1:$PGPORT/postgres"
    fi
    echo "pg.sh: PostgreSQL running at $PG_URL" >&2
    ;;
  stop)
    BIN=$(dirname "$(ls "$PG_ROOT"/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1)")
    # PG_STOP_MODE=immediate: no checkpoint, for a throwaway server whose owner is gone (test/support/pg-watchdog.sh).
    # PG_STOP_MODE=smart waits up to PG_STOP_WAIT seconds (default 60) for the clients to disconnect; the caller stops
    # it fast after that if it is still up.
    run_as_postgres "$BIN/pg_ctl" -D "$PGDIR/data" -m "${PG_STOP_MODE:-fast}" -t "${PG_STOP_WAIT:-60}" stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: source scripts/pg.sh start | scripts/pg.sh stop" >&2
    ;;
esac
