#!/usr/bin/env bash
# Serves the demo config (config/) on 127.0.0.1:8080: installs the build and runtime libraries if
# missing (scripts/install-deps.sh: pkg-config, PCRE2, libmicrohttpd with GnuTLS, libpq, libqrencode,
# libcurl, curl; no test tools),
# builds a release binary, then runs `switchboard serve --config config --drain-seconds 0`.
# The admin API and the console need a token of 24 characters or more: unless
# SWITCHBOARD_ADMIN_TOKEN is set, one is made on the first run and kept in data/admin-token (the
# demo's data directory, not in git), so another shell can use it:
#   export SWITCHBOARD_ADMIN_TOKEN=$(cat data/admin-token)
# Extra arguments go to `switchboard serve` (e.g. --listen 127.0.0.1:9090).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product switchboard
if [ -z "${SWITCHBOARD_ADMIN_TOKEN:-}" ]; then
  mkdir -p data
  [ -s data/admin-token ] || (umask 077 && od -An -tx1 -N24 /dev/urandom | tr -d ' \n' >data/admin-token)
  SWITCHBOARD_ADMIN_TOKEN=$(cat data/admin-token)
  export SWITCHBOARD_ADMIN_TOKEN
  echo "serve.sh: the admin token is in data/admin-token: export SWITCHBOARD_ADMIN_TOKEN=\$(cat data/admin-token)" >&2
fi
# Local use: stop at once on Ctrl-C (a deployment keeps the default drain, docs/operations.md).
exec .build/release/switchboard serve --config config --drain-seconds 0 "$@"
