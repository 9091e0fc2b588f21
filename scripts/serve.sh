#!/usr/bin/env bash
# Serves the default config on 127.0.0.1:8080: installs system libraries if missing,
# builds a release binary, then runs `switchboard serve --config config`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product switchboard
exec .build/release/switchboard serve --config config "$@"
