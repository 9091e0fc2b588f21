#!/usr/bin/env bash
# The console in a real browser: serves a copy of the demo config with the console enabled and an
# admin token (the built debug binary), then drives headless Chromium (Debian's chromium and
# chromium-driver) through Selenium (scripts/python/console_test.py): sign in, search the routes,
# try a link and read the drawn trace, preview a degrade rule against sampled traffic, apply it,
# see /resolve change, roll back; read the Analytics chart and make a rule for an unmatched link; and markup in route ids, targets and URLs never runs.
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
source scripts/lib/demo-server.sh
demo_server_prepare console-test
# Every /resolve is sampled, so that the few the test makes are there to preview against.
# (The demo config has the console on.)
printf 'traffic_sample: { every: 1 }\n' >>"$work/config/switchboard.yaml"
token="console-test-token-$$-$RANDOM-0123456789"
demo_server_start "$binary" "" "$token"
SWITCHBOARD_CONSOLE_TOKEN="$token" "$python" scripts/python/console_test.py "http://127.0.0.1:$port" "${screenshots[@]}" \
  || { echo "console-test: server log:" >&2; tail -n 50 "$work/server.log" >&2; exit 1; }
