#!/usr/bin/env bash
# POST /admin/preview at the size of issue 19: a traffic sample of URLS (10,000) requests against
# ROUTES (2,000) routes and RULES (50) rewrite rules. Target: well under a second.
#
# Serves a generated config (scripts/loadtest/generate-routes.py plus RULES rules of
# rewrites.yaml) with `traffic_sample: { urls: URLS, every: 1 }`, fills the sample with URLS
# GET /resolve requests over one keep-alive connection (distinct links: route links with
# tracking and id query values, links the rules rewrite, links nothing matches; each with a
# platform and an app version), then times RUNS previews of each kind: an added admin rule
# (the router is reused), an added admin route (the routes are registered again) and a reload
# (the config directory is read again). For each: the median, min and max of the server's own
# figure (`sample.elapsedMs`: resolving the sample twice and comparing) and of the whole call
# as curl saw it. Also the sample's memory (`switchboard_traffic_sample_bytes`) and the growth
# of the process's resident memory while it filled (the resolve cache is off, so that it does
# not grow with the sample).
#
#   scripts/loadtest/preview-time.sh                  # builds release first
#   SKIP_BUILD=1 RUNS=11 scripts/loadtest/preview-time.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUTES=${ROUTES:-2000}
RULES=${RULES:-50}
URLS=${URLS:-10000}
RUNS=${RUNS:-7}
PORT=${PORT:-18541}
[ -n "${SKIP_BUILD:-}" ] || swift build -c release --product switchboard >/dev/null
binary=$(realpath "${BINARY:-.build/release/switchboard}")
work=$(mktemp -d)
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/config/routes.d"
python3 scripts/loadtest/generate-routes.py "$work/config/routes.d/bulk.yaml" "$ROUTES"
python3 - "$RULES" >"$work/config/rewrites.yaml" <<'PY'
import sys
print("rules:")
for i in range(int(sys.argv[1])):
    print(f"  - {{ id: legacy{i}, match: '^shopapp://legacy{i}/([0-9]+)', target: 'shopapp://v{i % 10}/resource{i % 20}/$1/sub0' }}")
PY
cat >"$work/config/switchboard.yaml" <<YAML
schemes: [shopapp]
listen: "127.0.0.1:$PORT"
data_dir: "$work/data"
drain_seconds: 0
traffic_sample: { urls: $URLS, every: 1, max_bytes: 16777216 }
resolve_cache_bytes: 0
YAML
SWITCHBOARD_ADMIN_TOKEN=loadtest-token-0123456789abcdef "$binary" serve --config "$work/config" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 300); do
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break
  sleep 0.1
done
metric() { curl -fsS "http://127.0.0.1:$PORT/metrics" | awk -v name="$1" '$1 == name { print $2 }'; }
rss_before=$(metric process_resident_memory_bytes)

python3 - "$PORT" "$URLS" "$ROUTES" "$RULES" <<'PY'
import http.client, random, sys, urllib.parse
port, count, routes, rules = (int(a) for a in sys.argv[1:5])
random.seed(19)
connection = http.client.HTTPConnection("127.0.0.1", port)
platforms = ["ios", "android", "web"]
for n in range(count):
    kind = n % 10
    if kind < 7:
        i = random.randrange(routes)
        link = f"shopapp://v{i % 10}/resource{i // 100}/{random.randrange(10**6)}/sub{(i // 10) % 10}"
        link += f"?utm_source=push&utm_campaign=d11&uid={random.randrange(10**8)}&tab=reviews"
    elif kind < 9:
        link = f"shopapp://legacy{random.randrange(rules)}/{random.randrange(10**6)}"
    else:
        link = f"shopapp://nowhere/{random.randrange(10**6)}?token={random.randrange(10**12):x}"
    query = "url=" + urllib.parse.quote(link, safe="") + f"&platform={platforms[n % 3]}&appVersion=5.{n % 7}.0"
    connection.request("GET", "/resolve?" + query)
    connection.getresponse().read()
PY
sampled=$(metric switchboard_traffic_sample_urls)
bytes=$(metric switchboard_traffic_sample_bytes)
rss_after=$(metric process_resident_memory_bytes)
[ "$sampled" = "$URLS" ] || { echo "preview-time: the sample holds $sampled requests, not $URLS" >&2; exit 1; }

# One preview RUNS times; prints "name median min max" for the server's figure and curl's.
measure() { # name body
  local results=()
  for _ in $(seq "$RUNS"); do
    curl -fsS -o "$work/answer.json" -w '%{time_total}\n' -H 'Authorization: Bearer loadtest-token-0123456789abcdef' \
      -H 'Content-Type: application/json' --data-binary "$2" "http://127.0.0.1:$PORT/admin/preview" >"$work/curl.txt"
    results+=("$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print(a["sample"]["elapsedMs"], a["sample"]["changed"], a["sample"]["distinct"])' "$work/answer.json") $(cat "$work/curl.txt")")
  done
  printf '%s\n' "${results[@]}" | python3 -c '
import statistics, sys
name = sys.argv[1]
rows = [line.split() for line in sys.stdin if line.strip()]
server = sorted(float(r[0]) for r in rows)
wall = sorted(float(r[3]) * 1000 for r in rows)
print(f"| {name} | {rows[0][2]} | {rows[0][1]} | {statistics.median(server):.1f} ({server[0]:.1f}–{server[-1]:.1f}) | {statistics.median(wall):.1f} ({wall[0]:.1f}–{wall[-1]:.1f}) |")
' "$1"
}

echo "routes $ROUTES, rules $RULES, sample $sampled requests, $bytes bytes (switchboard_traffic_sample_bytes);"
echo "resident memory grew by $(( (rss_after - rss_before) / 1024 )) KiB while the sample filled; $RUNS runs each"
echo
echo "| preview | distinct | changed | server ms (min–max) | whole call ms (min–max) |"
echo "|---|---:|---:|---:|---:|"
measure "POST /admin/rules (router reused)" \
  '{"method":"POST","path":"/admin/rules","body":{"id":"double11","match":"^shopapp://v3/","target":"shopapp://v0/resource0/1/sub0"}}'
measure "POST /admin/routes (routes registered again)" \
  '{"method":"POST","path":"/admin/routes","body":{"id":"promo","pattern":"/nowhere/:id","target":{"page":"Promo"}}}'
measure "POST /admin/reload (directory read again)" '{"method":"POST","path":"/admin/reload"}'
