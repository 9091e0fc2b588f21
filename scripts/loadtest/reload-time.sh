#!/usr/bin/env bash
# Reload time and memory (issue 4: reload of 100k routes ≤ 150 ms, RSS with 1M routes ≤ 300 MB).
# For each route count and file format: the demo config plus N generated routes (the synthetic
# set /v{a}/resource{b}/:id/sub{c}, as in scale-curve.sh) in routes.d/bulk.json or bulk.yaml;
# `switchboard serve` (release) starts, then `POST /admin/reload` runs RELOADS times; the table
# gives the start time, the median reload duration the server logs, and VmRSS SETTLE seconds
# (default 2) after the last reload, once the memory it freed has been handed back.
# With BASELINE=path/to/switchboard (another build, e.g. of main), both binaries are measured
# one after the other on the same files and the figures are also given as ratios.
#
#   scripts/loadtest/reload-time.sh                                       # 100k and 1M, JSON and YAML
#   BASELINE=../baseline/.build-baseline/release/switchboard scripts/loadtest/reload-time.sh
#   COUNTS=100000 FORMATS=json RELOADS=3 scripts/loadtest/reload-time.sh
#   GAP=2 scripts/loadtest/reload-time.sh                                 # 2 s between reloads
#
# A server that does not start, or a reload that does not finish, within LIMIT seconds (default
# 300) is stopped and reported as "timeout". No load generator runs: the machine is otherwise idle.
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNTS=${COUNTS:-"100000 1000000"}
FORMATS=${FORMATS:-"json yaml"}
RELOADS=${RELOADS:-5}
GAP=${GAP:-0}
LIMIT=${LIMIT:-300}
PORT=${PORT:-18497}
BASELINE=${BASELINE:-}
[ -n "${SKIP_BUILD:-}" ] || swift build -c release --product switchboard >/dev/null
current=.build/release/switchboard
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

generate() { # count format dir
  local count=$1 format=$2 dir=$3
  rm -rf "$dir"; cp -r config "$dir"
  sed -i "s#^data_dir:.*#data_dir: $work/data#" "$dir/switchboard.yaml"
  # Room for the generated routes on top of the demo config (the default limit is 1,000,000).
  printf 'limits:\n  max_routes: %d\n' $((count + 10000)) >>"$dir/switchboard.yaml"
  scripts/loadtest/generate-routes.py "$dir/routes.d/bulk.$format" "$count"
}

# Prints "startup_s median_reload_ms rss_mib" (or "timeout" fields) for one binary and config.
measure() { # binary dir
  local binary=$1 dir=$2 started pid log=$work/server.log up=""
  started=$(date +%s.%N)
  SWITCHBOARD_ADMIN_TOKEN=loadtest-token-0123456789abcdef "$binary" serve --config "$dir" --listen "127.0.0.1:$PORT" --log-level info >"$log" 2>&1 &
  pid=$!
  local deadline=$(($(date +%s) + LIMIT))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    if curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then up=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$up" ]; then
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
      echo "timeout - -"
    else
      echo "reload-time: $binary did not start: $(tail -3 "$log")" >&2
      echo "failed - -"
    fi
    return
  fi
  local startup; startup=$(echo "$(date +%s.%N) - $started" | bc)
  local durations=() i
  for ((i = 0; i < RELOADS; i++)); do
    # GAP seconds between reloads: the previous reload's memory is handed back meanwhile, as
    # between reloads minutes apart in production (0: back to back).
    [ "$i" -eq 0 ] || sleep "$GAP"
    if ! curl -fs -o /dev/null -m "$LIMIT" -X POST -H 'Authorization: Bearer loadtest-token-0123456789abcdef' "http://127.0.0.1:$PORT/admin/reload"; then
      durations+=(timeout); break
    fi
    # The server logs each reload's duration, e.g. `duration=0.084523 seconds`.
    durations+=("$(grep "config reloaded" "$log" | grep "trigger=api" | tail -1 \
      | sed -E 's/.*duration=([0-9.e+-]+) (seconds|ms|milliseconds).*/\1 \2/' \
      | awk '{ if ($2 == "seconds") printf "%.1f", $1 * 1000; else printf "%.1f", $1 }')")
  done
  # The previous snapshot is freed and memory handed back on a background thread after each
  # reload (MemoryReclaimer): RSS is read once that has settled.
  sleep "${SETTLE:-2}"
  local rss; rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  local median
  if [[ " ${durations[*]} " == *" timeout "* ]]; then median=timeout; else
    median=$(printf '%s\n' "${durations[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  fi
  printf '%.2f %s %s\n' "$startup" "$median" "$rss"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.3f×", a / b; else print "-" }'; }

rows=()
for count in $COUNTS; do
  for format in $FORMATS; do
    dir="$work/config-$count-$format"
    generate "$count" "$format" "$dir"
    read -r s1 r1 m1 < <(measure "$current" "$dir")
    if [ -n "$BASELINE" ]; then
      read -r s0 r0 m0 < <(measure "$BASELINE" "$dir")
      rows+=("| $count | $format | $s1 s | $s0 s | $r1 ms | $r0 ms | $(ratio "$r1" "$r0") | $m1 MiB | $m0 MiB | $(ratio "$m1" "$m0") |")
    else
      rows+=("| $count | $format | $s1 s | $r1 ms | $m1 MiB |")
    fi
    echo "${rows[-1]}" >&2
    rm -rf "$dir"
  done
done

echo
if [ -n "$BASELINE" ]; then
  echo "| routes | format | start | start (baseline) | reload, median of $RELOADS | baseline | ratio | RSS | RSS (baseline) | ratio |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| routes | format | start | reload, median of $RELOADS | RSS |"
  echo "|---:|---|---:|---:|---:|"
fi
printf '%s\n' "${rows[@]}"
