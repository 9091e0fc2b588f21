#!/usr/bin/env bash
# Builds bare-libmicrohttpd.c (the floor that production.sh runs beside the servers with
# FLOOR=1), starts it on a free port and checks that it answers with the body it was given.
# scripts/test.sh runs it, so the load tests' baseline cannot rot unnoticed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/loadtest/lib.sh
loadtest_make_workdir
loadtest_start_floor "$work" 2 300 || exit 1
answer=$(curl -fsS -w ' %{http_code} %{size_download}' "http://127.0.0.1:$floor_port/resolve?url=x")
case "$answer" in
  '{"matched":true,"pad":"'*'"} 200 300') echo "bare libmicrohttpd answers 200 with its 300-byte body" ;;
  *) echo "bare libmicrohttpd answered: $answer" >&2; exit 1 ;;
esac
