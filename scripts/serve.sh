#!/usr/bin/env bash
# Serves the demo config (config/) on 127.0.0.1:8080: installs the build and runtime libraries if
# missing (scripts/install-deps.sh: pkg-config, PCRE2, libmicrohttpd, libpq, curl; no test tools),
# builds a release binary, then runs `switchboard serve --config config --drain-seconds 0`.
# Extra arguments go to `switchboard serve` (e.g. --listen 127.0.0.1:9090).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product switchboard
# Local use: stop at once on Ctrl-C (a deployment keeps the default drain, docs/operations.md).
exec .build/release/switchboard serve --config config --drain-seconds 0 "$@"
