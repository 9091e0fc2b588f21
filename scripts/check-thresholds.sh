#!/usr/bin/env bash
# Checks the benchmark figures that do not depend on the machine's speed against
# Benchmarks/thresholds.json (scripts/python/check_thresholds.py): allocations per lookup and per
# in-process resolve and heap per route from one run of the core suite, and instructions per
# resolve of the production shape under valgrind's callgrind. Fails on a regression beyond the
# tolerance each entry states. Builds the suite in release (Benchmarks/, a package of its own).
#
# Usage: scripts/check-thresholds.sh [--update]   (--update writes the measured values into the file)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "check-thresholds: valgrind is missing (scripts/install-test-deps.sh)" >&2; exit 1; }
swift build -c release --package-path Benchmarks --product SwitchboardBenchmarks >&2 || {
  echo "check-thresholds: the benchmark suite (Benchmarks/) does not build: its sources must follow Core's API" >&2
  exit 1
}
binary=Benchmarks/.build/release/SwitchboardBenchmarks
measured=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-thresholds.XXXXXX")
trap 'rm -rf "$measured"' EXIT
for suite in lookup build production; do
  "$binary" --sets Benchmarks/routes --rounds 1 --only "$suite" >"$measured/suite-$suite.md"
done
# Instructions inside Resolver.resolve(_:appendingBodyTo:) only: the set-up (building the routes
# and the links) is not collected. `--set` names the list: none fire, one fires.
function=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["callgrind_function"])' Benchmarks/thresholds.json)
for list in none one; do
  valgrind --tool=callgrind --callgrind-out-file="$measured/callgrind-$list.out" --toggle-collect="$function" \
    "$binary" --only production-once --set "$list" >/dev/null 2>"$measured/valgrind-$list.log" \
    || { cat "$measured/valgrind-$list.log" >&2; exit 1; }
  collected=$(sed -nE 's/^(totals|summary): *([0-9]+).*/\2/p' "$measured/callgrind-$list.out" | head -1)
  [ -n "$collected" ] && [ "$collected" -gt 0 ] || {
    echo "check-thresholds: callgrind collected nothing in $function: was it renamed? Update callgrind_function in Benchmarks/thresholds.json" >&2
    exit 1
  }
  echo "$collected 10000" >"$measured/callgrind-$list.txt"
done
exec python3 scripts/python/check_thresholds.py Benchmarks/thresholds.json "$measured" "$@"
