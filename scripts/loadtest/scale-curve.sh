#!/usr/bin/env bash
# Scale curve (issue 4): /resolve latency, throughput and RSS of `switchboard serve` with more
# routes and more rewrite rules. Each point is the demo config plus generated routes or rules,
# measured with the same wrk settings (-t2 -c64, keep-alive, DURATION each); figures are also
# given as ratios to the smallest point of the same run. Writes docs/benchmarks/scale-curve.csv
# and, with matplotlib (pip install matplotlib), docs/benchmarks/scale-curve.png.
#
#   scripts/loadtest/scale-curve.sh                                  # 1k, 10k, 100k routes; 10, 100, 1000 rules
#   ROUTE_COUNTS="1000 10000 100000 1000000" scripts/loadtest/scale-curve.sh
#   FORMAT=yaml scripts/loadtest/scale-curve.sh     # generated route files as YAML (default JSON)
#   CACHE_BYTES=16777216 scripts/loadtest/scale-curve.sh   # with the resolve cache (default off,
#                                                  # so that every request walks the router)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUTE_COUNTS=${ROUTE_COUNTS:-"1000 10000 100000"}
RULE_COUNTS=${RULE_COUNTS:-"10 100 1000"}
DURATION=${DURATION:-5s}
FORMAT=${FORMAT:-json}
CACHE_BYTES=${CACHE_BYTES:-0}
PORT=${PORT:-18496}
command -v wrk >/dev/null || { echo "scale-curve: wrk is missing (apt-get install wrk)" >&2; exit 2; }
swift build -c release --product switchboard >/dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p docs/benchmarks
csv=docs/benchmarks/scale-curve.csv
echo "kind,count,req_per_s,p50_ms,p99_ms,rss_mib,startup_s" >"$csv"

prepare() { # dir: a copy of the demo config with its own data_dir and the cache setting
  cp -r config "$1"
  sed -i "s#^data_dir:.*#data_dir: $work/data#" "$1/switchboard.yaml"
  echo "resolve_cache_bytes: $CACHE_BYTES" >>"$1/switchboard.yaml"
  # 1M generated routes plus the demo's own exceed the default max_routes of 1,000,000.
  printf 'limits:\n  max_routes: 2000000\n' >>"$1/switchboard.yaml"
}

measure() { # kind count config-dir urls-file
  local kind=$1 count=$2 dir=$3 urls=$4 started pid
  started=$(date +%s.%N)
  .build/release/switchboard serve --config "$dir" --listen "127.0.0.1:$PORT" --log-level warning >"$work/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 3000); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  local startup; startup=$(echo "$(date +%s.%N) - $started" | bc)
  local out; out=$(URLS_FILE="$urls" wrk -t2 -c64 -d"$DURATION" --latency -s scripts/loadtest/cycle.lua "http://127.0.0.1:$PORT" 2>&1)
  local rss; rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {v=$2; if (v ~ /us$/) {sub("us","",v); v/=1000} else if (v ~ /ms$/) {sub("ms","",v)} else if (v ~ /s$/) {sub("s","",v); v*=1000}; print v}' <<<"$out")
  p99=$(awk '$1=="99%" {v=$2; if (v ~ /us$/) {sub("us","",v); v/=1000} else if (v ~ /ms$/) {sub("ms","",v)} else if (v ~ /s$/) {sub("s","",v); v*=1000}; print v}' <<<"$out")
  echo "$kind,$count,$rps,$p50,$p99,$rss,$startup" | tee -a "$csv"
}

for count in $ROUTE_COUNTS; do
  dir="$work/routes-$count"; prepare "$dir"
  scripts/loadtest/generate-routes.py "$dir/routes.d/bulk.$FORMAT" "$count" "$work/urls-$count.txt"
  measure routes "$count" "$dir" "$work/urls-$count.txt"
done

for count in $RULE_COUNTS; do
  dir="$work/rules-$count"; prepare "$dir"
  python3 - "$dir/rewrites.yaml" "$count" "$work/rule-urls.txt" <<'PY'
import sys, urllib.parse
path, count, urls = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w") as out:
    out.write("rules:\n")
    for i in range(count - 1):
        out.write(f"  - {{ id: other{i}, match: '^https://m{i}\\.shop\\.example/item/([0-9]+)', target: 'shopapp://product/$1' }}\n")
    out.write("  - { id: web-item, match: '^https://www\\.shop\\.example/item/([0-9]+)', target: 'shopapp://product/$1' }\n")
with open(urls, "w") as out:
    for j in range(100):
        out.write(urllib.parse.quote(f"https://www.shop.example/item/{j}", safe="") + "\n")
PY
  measure rules "$count" "$dir" "$work/rule-urls.txt"
done

if python3 -c "import matplotlib" 2>/dev/null; then
  python3 scripts/loadtest/plot-scale-curve.py "$csv" docs/benchmarks/scale-curve.png
else
  echo "scale-curve: matplotlib is missing (pip install matplotlib); no plot" >&2
fi
