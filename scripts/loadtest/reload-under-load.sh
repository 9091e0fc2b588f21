#!/usr/bin/env bash
# Reload under load (issue 4): while wrk drives GET /resolve (64 connections, keep-alive),
# reload a config of 100k routes 10 times (5 by changing a file, 5 by POST /admin/reload) and
# push 100 rules; report failed requests, p99 against a quiet run of the same length and
# settings, and each reload's duration.
#
#   scripts/loadtest/reload-under-load.sh            # ~3 min
#   ROUTES=20000 RELOADS=4 scripts/loadtest/reload-under-load.sh
#   FORMAT=yaml scripts/loadtest/reload-under-load.sh   # the generated route file as YAML (default JSON)
#
# wrk shares the machine's cores with the server (and the reloads): compare the ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUTES=${ROUTES:-100000}
RELOADS=${RELOADS:-10}
RULES=${RULES:-100}
FORMAT=${FORMAT:-json}
QUIET=${QUIET:-20s}
PORT=${PORT:-18495}
command -v wrk >/dev/null || { echo "reload-under-load: wrk is missing (apt-get install wrk)" >&2; exit 2; }

swift build -c release --product switchboard >/dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r config "$work/config"
sed -i "s#^data_dir:.*#data_dir: $work/data#" "$work/config/switchboard.yaml"
scripts/loadtest/generate-routes.py "$work/config/routes.d/bulk.$FORMAT" "$ROUTES"
SWITCHBOARD_ADMIN_TOKEN=loadtest-token-0123456789abcdef .build/release/switchboard serve --config "$work/config" --listen "127.0.0.1:$PORT" \
  >"$work/server.log" 2>&1 &
for _ in $(seq 600); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.2; done

# Only URLs that match, so that any non-2xx is a failure.
: >"$work/urls.txt"
while read -r url; do
  [ -n "$url" ] || continue
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/resolve?url=$url")
  [ "$code" = 200 ] && echo "$url" >>"$work/urls.txt"
done <scripts/loadtest/urls.txt

wrk_run() { # duration -> wrk output
  URLS_FILE="$work/urls.txt" wrk -t2 -c64 -d"$1" --timeout 10s --latency -s scripts/loadtest/cycle.lua "http://127.0.0.1:$PORT" 2>&1
}
failures() { awk '/Non-2xx|Socket errors/ {print}' <<<"$1" | tr '\n' ' '; }
p99() { awk '$1=="99%" {print $2}' <<<"$1"; }

quiet=$(wrk_run "$QUIET")
echo "quiet run ($QUIET): p99 $(p99 "$quiet"), $(awk '/Requests\/sec/ {print $2}' <<<"$quiet") req/s, failures: $(failures "$quiet")"

reloads_before=$(grep -c "config reloaded" "$work/server.log" || true)
# wrk itself in the background (not a subshell), so that SIGINT reaches it: it then stops
# and prints its statistics for exactly the reload period.
URLS_FILE="$work/urls.txt" wrk -t2 -c64 -d600s --timeout 10s --latency -s scripts/loadtest/cycle.lua \
  "http://127.0.0.1:$PORT" >"$work/loaded.txt" 2>&1 &
wrk_pid=$!
sleep 2
durations=()
for index in $(seq "$RELOADS"); do
  if [ $((index % 2)) -eq 1 ]; then
    # A real change (the first route's target), written as a new file like an editor or a deploy does.
    sed -i "2s/\"page\": \"Bulk[0-9]*\"/\"page\": \"Bulk$index\"/; 3s/page: Bulk[0-9]*/page: Bulk$index/" "$work/config/routes.d/bulk.$FORMAT"
    expected=$((reloads_before + 1))
    for _ in $(seq 1200); do
      [ "$(grep -c "config reloaded" "$work/server.log" || true)" -ge "$expected" ] && break
      sleep 0.1
    done
    reloads_before=$expected
    durations+=("file:$(grep "config reloaded" "$work/server.log" | tail -1 | sed -E 's/.*duration=([^ ]+ [a-z]+).*/\1/')")
  else
    seconds=$(curl -s -o /dev/null -w '%{time_total}' -X POST -H 'Authorization: Bearer loadtest-token-0123456789abcdef' "http://127.0.0.1:$PORT/admin/reload")
    reloads_before=$((reloads_before + 1))
    durations+=("api:${seconds}s")
  fi
done
pushed=0
for index in $(seq "$RULES"); do
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Authorization: Bearer loadtest-token-0123456789abcdef' -H 'Content-Type: application/json' \
    -d "{\"id\":\"load$index\",\"match\":\"^loadtest$index://\",\"target\":\"shopapp://me\"}" "http://127.0.0.1:$PORT/admin/rules")
  [ "$code" = 201 ] && pushed=$((pushed + 1))
done
kill -INT "$wrk_pid" 2>/dev/null || true
wait "$wrk_pid" 2>/dev/null || true
loaded=$(cat "$work/loaded.txt")
echo "under reloads: p99 $(p99 "$loaded"), $(awk '/Requests\/sec/ {print $2}' <<<"$loaded") req/s, $(awk '/requests in/ {print $1}' <<<"$loaded") requests, failures: $(failures "$loaded")"
echo "reloads ($ROUTES routes + the demo config): ${durations[*]}"
echo "rules pushed: $pushed of $RULES"
