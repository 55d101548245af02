#!/usr/bin/env bash
# Ties a test's private PostgreSQL (test/support/postgres.ts) to the test process that started it: when that process
# is gone without stopping the server (killed from outside, so no afterAll ran), stops the server at once
# (`pg_ctl stop -m immediate`) and removes its directory.
#   PGDIR=... PGPORT=... pg-watchdog.sh OWNER_PID
# Exits by itself when the owner removes PGDIR (it stopped the server normally). Polls twice a second with bash
# builtins only (one `sleep` per poll), so it costs next to nothing beside a long test file.
set -u
owner="$1"
here=$(dirname "$0")
# The owner's state and start time from /proc/PID/stat (fields 3 and 22; read after the ")" ending the command name),
# so a zombie left for its parent to reap, or a recycled pid, counts as gone.
status() {
  local line
  read -r line 2>/dev/null <"/proc/$owner/stat" || return 1
  local rest=${line##*) }
  local fields
  read -r -a fields <<<"$rest"
  printf '%s %s' "${fields[0]}" "${fields[19]}"
}
born=$(status) || born=""
alive() {
  if [ -z "$born" ]; then kill -0 "$owner" 2>/dev/null; return; fi
  local now
  now=$(status) || return 1
  case "${now%% *}" in Z | X) return 1 ;; esac
  [ "${now#* }" = "${born#* }" ]
}
while alive && [ -d "$PGDIR" ]; do sleep 0.5; done
[ -d "$PGDIR" ] || exit 0
PG_STOP_MODE=immediate bash "$here/../../scripts/pg.sh" stop
rm -rf "$PGDIR"
