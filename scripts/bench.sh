#!/usr/bin/env bash
# Runs the core benchmark suite (Benchmarks/, a package of its own): release build, pinned to
# one core, Switchboard beside RoutingKit 4.9.3 in the same process. Prints a Markdown table.
#
# Usage: scripts/bench.sh [--rounds N] [--only lookup|build|rewrite]
# The route sets are Benchmarks/routes (override with SWITCHBOARD_BENCH_SETS=DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
sets="${SWITCHBOARD_BENCH_SETS:-$(pwd)/Benchmarks/routes}"
if [[ ! -f "$sets/github-api.txt" ]]; then
    echo "bench: route sets not found in $sets (set SWITCHBOARD_BENCH_SETS)" >&2
    exit 2
fi
swift build -c release --package-path Benchmarks >&2
pin=()
if command -v taskset >/dev/null && [[ "$(nproc)" -gt 1 ]]; then pin=(taskset -c 1); fi
"${pin[@]}" Benchmarks/.build/release/SwitchboardBenchmarks --sets "$sets" "$@"
