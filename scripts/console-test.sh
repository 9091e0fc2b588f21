#!/usr/bin/env bash
# The console in a real browser: serves a copy of the demo config with the console enabled and an
# admin token (the built debug binary), then drives headless Chromium (Debian's chromium and
# chromium-driver) through Selenium (scripts/python/console_test.py): sign in, search the routes,
# try a link and read the drawn trace, preview a degrade rule against sampled traffic, apply it,
# see /resolve change, roll back; and markup in route ids, targets and URLs never runs.
# Usage: scripts/console-test.sh [--screenshots DIR] [BINARY]   (default .build/debug/switchboard)
set -euo pipefail
cd "$(dirname "$0")/.."
screenshots=()
if [ "${1:-}" = "--screenshots" ]; then
  screenshots=(--screenshots "$(realpath "$2")")
  shift 2
fi
binary=$(realpath "${1:-.build/debug/switchboard}")
python=$(scripts/python-tools.sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-console.XXXXXX")
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r config "$work/config"
# Every /resolve is sampled, so that the few the test makes are there to preview against.
printf 'console: { enabled: true }\ntraffic_sample: { every: 1 }\n' >>"$work/config/switchboard.yaml"
token="console-test-$$-$RANDOM"
(cd "$work" && SWITCHBOARD_STORE="" SWITCHBOARD_ADMIN_TOKEN="$token" exec "$binary" serve --config config \
  --listen 127.0.0.1:0 --drain-seconds 0 >"$work/server.log" 2>&1) &
server=$!
port=""
for _ in $(seq 1 100); do
  port=$(grep -o 'address=127.0.0.1:[0-9]*' "$work/server.log" 2>/dev/null | head -1 | cut -d: -f2) && [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/server.log" >&2; echo "console-test: the server did not start" >&2; exit 1; }
SWITCHBOARD_CONSOLE_TOKEN="$token" "$python" scripts/python/console_test.py "http://127.0.0.1:$port" "${screenshots[@]}" \
  || { echo "console-test: server log:" >&2; tail -n 50 "$work/server.log" >&2; exit 1; }
