#!/usr/bin/env bash
# Runs every test: installs the build libraries and the test toolchain if missing
# (scripts/install-test-deps.sh), checks formatting, validates openapi.yaml, builds, checks the docs
# (scripts/check-docs.sh), starts a throwaway PostgreSQL cluster for the replica tests
# (scripts/pg-test-cluster.sh), runs `swift test` (in three groups, or once with the arguments given,
# e.g. `scripts/test.sh --filter ResolveDifferential`), then checks the benchmark thresholds
# (scripts/check-thresholds.sh), a live server's /metrics with prometheus-client
# (scripts/check-metrics.sh), builds and starts the load tests' libmicrohttpd floor
# (scripts/loadtest/floor-check.sh), drives the console in headless Chromium (scripts/console-test.sh),
# and, as root, replays the Dockerfile without Docker (scripts/container-replay.sh;
# SWITCHBOARD_SKIP_REPLAY=1 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-test-deps.sh
replay=""
if [ "$(id -u)" -eq 0 ] && [ -z "${SWITCHBOARD_SKIP_REPLAY:-}" ]; then
  # The replay's Debian root (minutes when not cached) is made while the tests build and run.
  replay=$(mktemp "${TMPDIR:-/tmp}/switchboard-rootfs.XXXXXX")
  scripts/container-replay.sh rootfs >"$replay" 2>&1 &
  rootfs_job=$!
fi
# Formatting is checked, not fixed: run `swift-format format -i -r Sources Tests Benchmarks/Sources`.
swift-format lint --strict -r Sources Tests Benchmarks/Sources
# A real OpenAPI 3.0 validator (the Swift tests check that the server answers as the document says).
scripts/check-openapi.sh
swift build --build-tests
# The docs: links and anchors, config snippets through `switchboard check`, the README's quick start
# against a server started from config/.
scripts/check-docs.sh
cluster=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-pg.XXXXXX")
chmod 755 "$cluster"
trap 'scripts/pg-test-cluster.sh stop "$cluster"; rm -rf "$cluster"' EXIT
SWITCHBOARD_TEST_POSTGRES=$(scripts/pg-test-cluster.sh start "$cluster")
export SWITCHBOARD_TEST_POSTGRES
export SWITCHBOARD_TEST_POSTGRES_CLUSTER="$cluster"
if [ $# -gt 0 ]; then
  swift test --skip-build "$@"
else
  # Three runs, one after the other: the core's property tests, then the rest, then the code
  # generators' tests, which run kotlinc and swiftc. Each group takes both cores for tens of
  # seconds on this machine class, and together they starved the server suites' tasks past the
  # deadlines of tests that wait for a server to start or a reload to run.
  compilers="KotlinCodegenTests|SwiftCodegenTests"
  swift test --skip-build --filter SwitchboardCoreTests
  swift test --skip-build --skip SwitchboardCoreTests --skip "$compilers"
  swift test --skip-build --filter "$compilers"
fi
# Allocations, heap per route and callgrind instruction counts against Benchmarks/thresholds.json.
scripts/check-thresholds.sh
# The metrics of a live server through prometheus-client's parser, and the dashboard's queries against them.
SWITCHBOARD_DASHBOARD=deploy/grafana/switchboard-dashboard.json scripts/check-metrics.sh
# The load tests' floor (libmicrohttpd alone, production.sh FLOOR=1) builds and answers.
scripts/loadtest/floor-check.sh
# The admin console in headless Chromium through Selenium: the Double 11 story and markup that must not run.
scripts/console-test.sh
if [ -n "$replay" ]; then
  wait "$rootfs_job" || { cat "$replay" >&2; exit 1; }
  rm -f "$replay"
  scripts/container-replay.sh
fi
