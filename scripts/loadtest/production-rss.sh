#!/usr/bin/env bash
# Memory under the distinct-URL production scenario: the server's RSS after the first
# million requests and after TOTAL (default 10 million), every request a link never asked before;
# growth must stay within 10 % (the resolve cache and the metrics are bounded).
#
#   scripts/loadtest/production-rss.sh                  # release build, 64 connections
#   BIN=path/to/switchboard TOTAL=3000000 scripts/loadtest/production-rss.sh
#
# wrk runs in slices of SLICE (default 20s) with a new RUN_ID each, so click ids never repeat
# across slices; the count of requests is the server's own (`/metrics`).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/loadtest/lib.sh

BIN=${BIN:-.build/release/switchboard}
TOTAL=${TOTAL:-10000000}
FIRST=${FIRST:-1000000}
SLICE=${SLICE:-20s}
CONNECTIONS=${CONNECTIONS:-64}
PORT=${PORT:-28530}

loadtest_need_tools
[ -n "${BIN_PREBUILT:-}" ] || [ "$BIN" != .build/release/switchboard ] || swift build -c release --product switchboard >/dev/null
loadtest_make_workdir

python3 scripts/loadtest/generate-production.py "$work/config" "$work/urls.txt"
sed -i "s#^data_dir:.*#data_dir: $work/data#" "$work/config/switchboard.yaml"
echo "threads: 2" >>"$work/config/switchboard.yaml"
"$BIN" serve --config "$work/config" --listen "127.0.0.1:$PORT" --log-level warning 2>"$work/server.log" &
pid=$!
for _ in $(seq 200); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

answered() { # requests to /resolve the server has answered
  curl -fs "http://127.0.0.1:$PORT/metrics" | awk '/^switchboard_http_requests_total\{endpoint="resolve"/ {n += $2} END {print n + 0}'
}
cache_entries() {
  curl -fs "http://127.0.0.1:$PORT/metrics" | awk '/^switchboard_resolve_cache_requests_total/ {printf "%s=%s ", $1, $2}'
}

echo "requests rss_mib"
slice=0; first_rss=""
while :; do
  slice=$((slice + 1))
  SCENARIO=distinct RUN_ID=$slice URLS_FILE="$work/urls.txt" wrk -t2 -c"$CONNECTIONS" -d"$SLICE" \
    -s scripts/loadtest/production.lua "http://127.0.0.1:$PORT" >/dev/null
  n=$(answered); rss=$(( $(loadtest_rss_kib $pid) / 1024 ))
  echo "$n $rss"
  if [ -z "$first_rss" ] && [ "$n" -ge "$FIRST" ]; then first_rss=$rss; first_n=$n; fi
  [ "$n" -ge "$TOTAL" ] && break
done
echo "$(cache_entries)"
awk -v a="$first_rss" -v an="$first_n" -v b="$rss" -v bn="$n" 'BEGIN {
  printf "RSS after %d requests: %d MiB; after %d: %d MiB; growth %.1f %% (limit 10 %%)\n", an, a, bn, b, (b - a) / a * 100 }'
