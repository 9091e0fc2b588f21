#!/usr/bin/env bash
# Admin writes at 10,000 admin rules: the latency of one admin write and the start time, for the
# file store and for PostgreSQL. Targets: one write ≤ 20 ms (file) and ≤ 50 ms (PostgreSQL), a
# start ≤ 1 s.
#
# For each binary: a fresh data_dir (or database), `PUT /admin/rules` with RULES rules, then
# WRITES pairs of writes, each `DELETE /admin/rules/{id}` then `POST /admin/rules` putting it back
# (the state stays at RULES rules, the history fills up as it does in production); each is timed
# with curl. Then SIGTERM, and a start is timed until /healthz answers. The table gives the
# median, p90 and max write as curl saw it, the same for the store's part of it (`store_ms` of
# the server's "admin state changed" log line: the time `commit` took, fsync included; "-" for
# a build that does not log it), the PUT of all rules and the store's part of it (a whole
# snapshot written, as a compaction does), the start, and the size of data_dir.
# With BASELINE=path/to/switchboard (another build, e.g. of main), both are measured one after
# the other, on the same rules.
#
#   scripts/loadtest/admin-write.sh                                          # file store
#   STORE=postgres://postgres@127.0.0.1:5432/postgres scripts/loadtest/admin-write.sh
#   BASELINE=../main/.build/release/switchboard WRITES=20 scripts/loadtest/admin-write.sh
#
# STORE=postgres://… needs psql: a database is created for each run (and dropped after).
set -euo pipefail
cd "$(dirname "$0")/../.."
RULES=${RULES:-10000}
WRITES=${WRITES:-50}
STORE=${STORE:-file}
PORT=${PORT:-18531}
BASELINE=${BASELINE:-}
[ -n "${SKIP_BUILD:-}" ] || swift build -c release --product switchboard >/dev/null
current=${CURRENT:-.build/release/switchboard}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$RULES" >"$work/rules.json" <<'PY'
import json, sys
count = int(sys.argv[1])
rules = [{"id": f"bulk{i:05d}", "match": f"^shopapp://bulk/{i:05d}(?:/|$)", "target": f"shopapp://product/{i}?from=bulk"}
         for i in range(count)]
print(json.dumps({"rules": rules}))
PY

now_ms() { date +%s%3N; }

# Times one request; prints milliseconds. Fails on an unexpected status.
timed() { # method path [body]
  local out
  if [ $# -ge 3 ]; then
    out=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -X "$1" -H 'Authorization: Bearer loadtest-token-0123456789abcdef' \
      -H 'Content-Type: application/json' --data-binary "$3" "http://127.0.0.1:$PORT$2")
  else
    out=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -X "$1" -H 'Authorization: Bearer loadtest-token-0123456789abcdef' "http://127.0.0.1:$PORT$2")
  fi
  case ${out%% *} in 2*) ;; *) echo "admin-write: $1 $2 answered ${out%% *}" >&2; return 1 ;; esac
  awk -v t="${out#* }" 'BEGIN { printf "%.1f\n", t * 1000 }'
}

start_server() { # binary config log; waits for /healthz; sets $server and $started (ms)
  if curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz"; then echo "admin-write: port $PORT is busy; set PORT" >&2; exit 1; fi
  local begin; begin=$(now_ms)
  SWITCHBOARD_ADMIN_TOKEN=loadtest-token-0123456789abcdef SWITCHBOARD_STORE="$store" "$1" serve --config "$2" --listen "127.0.0.1:$PORT" >>"$3" 2>&1 &
  server=$!
  for _ in $(seq 1 3000); do
    if curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz"; then started=$(($(now_ms) - begin)); return; fi
    kill -0 "$server" 2>/dev/null || { echo "admin-write: the server exited; see $3" >&2; cat "$3" >&2; exit 1; }
    sleep 0.01
  done
  echo "admin-write: no answer within 30 s" >&2; exit 1
}

stop_server() {
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
}

stats() { # file of numbers → "median p90 max"
  sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%.1f %.1f %.1f\n", v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], v[NR] }'
}

measure() { # label binary
  local label=$1 binary=$2 dir="$work/config-$1" log="$work/$1.log"
  rm -rf "$dir" "$work/data"; cp -r config "$dir"
  sed -i "s#^data_dir:.*#data_dir: $work/data#" "$dir/switchboard.yaml"
  printf 'limits:\n  max_body_bytes: 16777216\n' >>"$dir/switchboard.yaml"
  store=file
  if [ "$STORE" != file ]; then
    local database="sb_bench_${label}_$$"
    database=${database//[^a-z0-9_]/_}
    psql -q "$STORE" -c "CREATE DATABASE $database" >/dev/null
    store="${STORE%/*}/$database"
  fi
  start_server "$binary" "$dir" "$log"
  local put; put=$(timed PUT /admin/rules "@$work/rules.json")
  : >"$work/$label.writes"
  for i in $(seq 1 "$WRITES"); do
    local id; id=$(printf 'bulk%05d' $((i % RULES)))
    timed DELETE "/admin/rules/$id" >>"$work/$label.writes"
    timed POST /admin/rules "{\"id\":\"$id\",\"match\":\"^shopapp://bulk/back$i\",\"target\":\"shopapp://me\"}" >>"$work/$label.writes"
  done
  stop_server
  start_server "$binary" "$dir" "$log"
  local start=$started
  stop_server
  local size="-"
  [ "$STORE" = file ] && size=$(du -sh "$work/data" | cut -f1)
  [ "$STORE" = file ] || psql -q "$STORE" -c "DROP DATABASE ${store##*/}" >/dev/null
  read -r median p90 max < <(stats "$work/$label.writes")
  grep 'admin state changed' "$log" | sed -n 's/.*store_ms=\([0-9.]*\).*/\1/p' | tail -n $((WRITES * 2)) >"$work/$label.store"
  # The PUT writes the whole state (a snapshot), as a compaction does.
  local put_store; put_store=$(grep 'admin state changed' "$log" | sed -n 's/.*store_ms=\([0-9.]*\).*/\1/p' | head -1)
  local store_stats="- - -"
  [ -s "$work/$label.store" ] && store_stats=$(stats "$work/$label.store")
  read -r store_median store_p90 store_max <<<"$store_stats"
  printf '| %-8s | %4s | %5d | %7s | %7s | %7s | %6s | %6s | %6s | %6s | %6s | %6s | %6s |\n' \
    "$label" "$STORE_KIND" $((WRITES * 2)) "$median" "$p90" "$max" "$store_median" "$store_p90" "$store_max" "$put" "${put_store:--}" "$start" "$size"
}

STORE_KIND=file
[ "$STORE" = file ] || STORE_KIND=pg
echo "$RULES admin rules; times in ms; history entries after the run: $((WRITES * 2 + 1))"
echo
echo "| build | store | writes | write median | p90 | max | store median | p90 | max | PUT all | its store | start | data_dir |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
[ -z "$BASELINE" ] || measure baseline "$BASELINE"
measure current "$current"
