#!/usr/bin/env bash
# Checks GET /metrics of a live server with prometheus-client's text parser and the Prometheus
# naming rules (scripts/python/check_metrics.py): serves a copy of the demo config with the
# built debug binary, sends resolves, an admin write and a reload, then scrapes. Also checks that
# the Grafana dashboard under deploy/ queries only series the server exposes.
# Usage: scripts/check-metrics.sh [BINARY]   (default .build/debug/switchboard)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "${1:-.build/debug/switchboard}")
python=$(scripts/python-tools.sh)
source scripts/lib/demo-server.sh
demo_server_prepare check-metrics
printf 'metrics_route_series: 3\n' >>"$work/config/switchboard.yaml"
# With the test PostgreSQL cluster (scripts/test.sh starts it), the store series are there too.
store="" optional=()
if [ -n "${SWITCHBOARD_TEST_POSTGRES:-}" ]; then
  database="switchboard_metrics_$$"
  psql -q "$SWITCHBOARD_TEST_POSTGRES" -c "CREATE DATABASE $database" >/dev/null
  store="${SWITCHBOARD_TEST_POSTGRES%/*}/$database"
else
  optional=(--optional switchboard_store_)
fi
token=check-metrics-token-0123456789abcdef
demo_server_start "$binary" "$store" "$token"
base="http://127.0.0.1:$port"
for url in product/1 product/2 cart user/me search/shoes product/3 nowhere; do
  curl -s -o /dev/null "$base/resolve?url=shopapp%3A%2F%2F${url//\//%2F}"
done
curl -s -o /dev/null -X POST -H "Authorization: Bearer $token" \
  -d '{"id":"metrics","match":"^shopapp://m$","target":"shopapp://cart"}' "$base/admin/rules"
curl -s -o /dev/null -X POST -H "Authorization: Bearer $token" "$base/admin/reload"
curl -fsS "$base/metrics" >"$work/metrics.txt"
"$python" scripts/python/check_metrics.py "$work/metrics.txt" --route-series 3 "${optional[@]}" \
  ${SWITCHBOARD_DASHBOARD:+--dashboard "$SWITCHBOARD_DASHBOARD"}
