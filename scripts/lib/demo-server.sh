# Serves a copy of the demo config (config/) with a built binary on a free loopback port, for
# the scripts that check a live server (check-metrics.sh, console-test.sh). Source it, then:
#   demo_server_prepare NAME   # $work: a new scratch folder with config/ copied in, removed at exit
#   (append settings to "$work/config/switchboard.yaml")
#   demo_server_start BINARY STORE TOKEN   # starts it; sets $server (its pid) and $port, or exits 1

demo_server_prepare() {
  demo_server_name=$1
  work=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-$1.XXXXXX")
  server=""
  trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
  cp -r config "$work/config"
}

demo_server_start() {
  (cd "$work" && SWITCHBOARD_STORE="$2" SWITCHBOARD_ADMIN_TOKEN="$3" exec "$1" serve --config config \
    --listen 127.0.0.1:0 --drain-seconds 0 >"$work/server.log" 2>&1) &
  server=$!
  port=""
  for _ in $(seq 1 100); do
    port=$(grep -o 'address=127.0.0.1:[0-9]*' "$work/server.log" 2>/dev/null | head -1 | cut -d: -f2) && [ -n "$port" ] && return
    sleep 0.1
  done
  cat "$work/server.log" >&2
  echo "$demo_server_name: the server did not start" >&2
  exit 1
}
