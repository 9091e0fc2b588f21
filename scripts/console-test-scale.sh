#!/usr/bin/env bash
# How the console's Routes page scales: serves COUNT synthetic routes (scripts/loadtest/generate-routes.py)
# plus the demo config, then times the GET /admin/table calls the page makes (50 rows a page): the first page,
# the last page, and a search by id prefix or by module that matches nothing (the worst case: every route is
# looked at). Prints the median of 5 calls each, in milliseconds, measured by curl over loopback.
# Usage: scripts/console-test-scale.sh [COUNT] [BINARY]   (default 1000000, .build/release/switchboard)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
binary=$(realpath "${2:-.build/release/switchboard}")
work=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-console-scale.XXXXXX")
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r config "$work/config"
python3 scripts/loadtest/generate-routes.py "$work/config/routes.d/bulk.json" "$count"
printf 'limits: { max_routes: %d }\n' $((count + 100)) >>"$work/config/switchboard.yaml"
started=$(date +%s.%N)
(cd "$work" && SWITCHBOARD_STORE="" SWITCHBOARD_ADMIN_TOKEN=console-scale-token-0123456789abcdef exec "$binary" serve --config config \
  --listen 127.0.0.1:0 --drain-seconds 0 >"$work/server.log" 2>&1) &
server=$!
port=""
for _ in $(seq 1 3000); do
  port=$(grep 'switchboard listening' "$work/server.log" 2>/dev/null | grep -o 'address=127.0.0.1:[0-9]*' | head -1 | cut -d: -f2) \
    && [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/server.log" >&2; echo "console-test-scale: the server did not start" >&2; exit 1; }
echo "serving $count + 36 routes after $(echo "$(date +%s.%N) - $started" | bc) s"
median() {
  local path=$1 times=()
  for _ in 1 2 3 4 5; do
    times+=("$(curl -s -o /dev/null -w '%{time_total}' -H 'Authorization: Bearer console-scale-token-0123456789abcdef' "http://127.0.0.1:$port$path")")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p | awk '{printf "%.2f", $1 * 1000}'
}
total=$((count + 36))
for case in "first page|/admin/table?limit=50" "last page|/admin/table?limit=50&cursor=$((total - 50))" \
  "id prefix, no match|/admin/table?limit=50&prefix=nothing" "module, no match|/admin/table?limit=50&module=nothing" \
  "console page|/console"; do
  printf '%-22s %8s ms\n' "${case%%|*}" "$(median "${case#*|}")"
done
