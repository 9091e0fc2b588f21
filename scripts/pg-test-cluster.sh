#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (issue 7): initdb in a temporary directory,
# trust authentication, listening on 127.0.0.1 only, fsync off. Run as root (CI), the server
# runs as the unprivileged `postgres` user that Debian's postgresql package creates.
#
# synchronous_commit stays on: a commit is acknowledged only once its WAL is written, so a
# server killed with `kill` (immediate shutdown) loses nothing acknowledged. fsync off only
# matters if the machine itself crashes, which a test never does.
#
#   scripts/pg-test-cluster.sh start DIR [PORT]   # prints the connection URL
#   scripts/pg-test-cluster.sh stop DIR            # a clean (fast) shutdown
#   scripts/pg-test-cluster.sh kill DIR            # an immediate shutdown, as after a crash
#   scripts/pg-test-cluster.sh restart DIR         # start again after a stop (tests use this)
set -euo pipefail
command=${1:?usage: pg-test-cluster.sh start|stop|kill|restart DIR [PORT]}
dir=${2:?usage: pg-test-cluster.sh start|stop|kill|restart DIR [PORT]}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/pg_ctl" ] || { echo "pg-test-cluster: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 2; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
  start)
    port=${3:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = on
full_page_writes = off
max_connections = 200
CONF
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  restart)
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start >/dev/null
    ;;
  stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
    ;;
  kill)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: pg-test-cluster.sh start|stop|kill|restart DIR [PORT]" >&2; exit 2 ;;
esac
