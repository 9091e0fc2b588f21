#!/usr/bin/env bash
# Builds bare-libmicrohttpd.c (the floor that production.sh runs beside the servers with
# FLOOR=1), starts it on a free port and checks that it answers with the body it was given.
# scripts/test.sh runs it, so the load tests' baseline cannot rot unnoticed.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck disable=SC2046 # pkg-config prints several flags
"${CC:-$(command -v cc || command -v clang)}" -O2 -Wall -Wextra -Werror -o "$work/bare" scripts/loadtest/bare-libmicrohttpd.c $(pkg-config --cflags --libs libmicrohttpd)
"$work/bare" 0 2 300 >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 50); do grep -q '^port ' "$work/out" && break; sleep 0.1; done
port=$(awk '/^port /{print $2}' "$work/out")
[ -n "$port" ] || { echo "bare libmicrohttpd did not start:" >&2; cat "$work/err" >&2; exit 1; }
answer=$(curl -fsS -w ' %{http_code} %{size_download}' "http://127.0.0.1:$port/resolve?url=x")
case "$answer" in
  '{"matched":true,"pad":"'*'"} 200 300') echo "bare libmicrohttpd answers 200 with its 300-byte body" ;;
  *) echo "bare libmicrohttpd answered: $answer" >&2; exit 1 ;;
esac
