#!/usr/bin/env bash
# Soaks the test suite: a fresh clone of this checkout's HEAD (`npm ci` once), then the whole `npm test` N times, every
# other run beside a CPU hog (two busy processes, one per core on a 2-core machine), keeping each run's vitest JSON
# report and log. Prints each run's counts and duration as it ends, then a summary table: every run, and every test
# file that failed with how many runs it failed in. Exits non-zero when any run failed.
#
#   scripts/soak-tests.sh [-n RUNS] [-o DIR] [--keep] [-- VITEST_ARGS...]
#     -n RUNS   how many runs (default 10, or SOAK_RUNS); runs 2, 4, ... are the loaded ones
#     -o DIR    where the reports and logs go (default .tmp/soak/<time> in this checkout)
#     --keep    keep the clone (its path is printed) instead of removing it
#     VITEST_ARGS are passed on, e.g. `-- test/graph` to soak one folder
#   SOAK_HOGS=N  busy processes beside a loaded run (default 2)
#
# Only committed work is soaked (the clone is of HEAD). Everything started here is stopped on exit, on Ctrl-C and on
# SIGTERM: the hogs and the test run (by pid and process group), the private PostgreSQL servers the tests started
# (their directories are under the clone's TMPDIR), and the clone itself.
set -euo pipefail

runs="${SOAK_RUNS:-10}"
hogs_per_run="${SOAK_HOGS:-2}"
out=""
keep=0
vitest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs="$2"; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --) shift; vitest_args=("$@"); break ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "soak-tests.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) echo "soak-tests.sh: -n must be a whole number >= 1, got '$runs'" >&2; exit 2 ;; esac

source_repo=$(git rev-parse --show-toplevel)
head=$(git -C "$source_repo" rev-parse HEAD)
if [ -n "$(git -C "$source_repo" status --porcelain --untracked-files=no)" ]; then
  echo "soak-tests.sh: uncommitted changes are not soaked (the clone is of HEAD ${head:0:12})" >&2
fi
out="${out:-$source_repo/.tmp/soak/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/langgoap-soak.XXXXXX")
# The tests' temporary files (private PostgreSQL data directories among them) go under the clone's own TMPDIR, so
# cleaning up finds exactly what this soak started. PostgreSQL runs as the postgres user when we are root, so the
# directories on the way must let it through.
chmod 755 "$work"
mkdir -m 1777 "$work/tmp"
clone="$work/repo"

hogs=()
test_pid=""

stop_hogs() {
  local pid
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null || true; done
  hogs=()
}

stop_test_run() {
  [ -n "$test_pid" ] || return 0
  # The run is the leader of its own process group (setsid): end the whole group (npm, vitest, its workers).
  kill -TERM -- "-$test_pid" 2>/dev/null || true
  local waited=0
  while kill -0 "$test_pid" 2>/dev/null && [ "$waited" -lt 10 ]; do sleep 1; waited=$((waited + 1)); done
  kill -KILL -- "-$test_pid" 2>/dev/null || true
  wait "$test_pid" 2>/dev/null || true
  test_pid=""
}

stop_private_postgres() {
  local data dir
  for data in "$work"/tmp/langgoap-pg-test-*/data; do
    [ -f "$data/postmaster.pid" ] || continue
    dir=$(dirname "$data")
    PGDIR="$dir" PG_STOP_MODE=immediate bash "$clone/scripts/pg.sh" stop || true
  done
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM HUP
  stop_hogs
  stop_test_run
  if [ -d "$clone/scripts" ]; then stop_private_postgres; fi
  if [ "$keep" = 1 ]; then
    echo "soak-tests.sh: kept the clone at $clone" >&2
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

echo "== soak: $runs runs of npm test${vitest_args[*]:+ ${vitest_args[*]}} at ${head:0:12}, even runs beside $hogs_per_run busy processes"
echo "== reports: $out"
echo "== clone: $clone"
git clone --quiet --no-checkout "$source_repo" "$clone"
git -C "$clone" checkout --quiet --detach "$head"
echo "== npm ci"
(cd "$clone" && npm ci --no-audit --no-fund --loglevel=error) >"$out/npm-ci.log" 2>&1 || {
  echo "soak-tests.sh: npm ci failed (see $out/npm-ci.log)" >&2
  exit 1
}

export TMPDIR="$work/tmp"
echo "$head" >"$out/commit.txt"
: >"$out/runs.tsv"
for i in $(seq 1 "$runs"); do
  loaded=0
  if [ $((i % 2)) = 0 ]; then loaded=1; fi
  if [ "$loaded" = 1 ]; then
    for _ in $(seq 1 "$hogs_per_run"); do
      node -e 'for (;;) {}' &
      hogs+=("$!")
    done
  fi
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  started=$(date +%s%N)
  set +e
  (cd "$clone" && exec setsid npm test -- --reporter=default --reporter=json --outputFile="$out/run-$i.json" "${vitest_args[@]}") \
    >"$out/run-$i.log" 2>&1 &
  test_pid=$!
  wait "$test_pid"
  code=$?
  set -e
  test_pid=""
  ended=$(date +%s%N)
  stop_hogs
  load_after=$(cut -d' ' -f1 /proc/loadavg)
  seconds=$(((ended - started) / 1000000000))
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$loaded" "$code" "$seconds" "$load_before" "$load_after" >>"$out/runs.tsv"
  node "$clone/scripts/soak-summary.mjs" --run "$out" "$i"
done

node "$clone/scripts/soak-summary.mjs" --table "$out" | tee "$out/summary.txt"
