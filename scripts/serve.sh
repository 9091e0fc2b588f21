#!/usr/bin/env bash
# Serves the default config on 127.0.0.1:8080: installs system libraries if missing,
# builds a release binary, then runs `switchboard serve --config config --drain-seconds 0`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product switchboard
# Local use: stop at once on Ctrl-C (a deployment keeps the default drain, see README "Probes and shutdown").
exec .build/release/switchboard serve --config config --drain-seconds 0 "$@"
