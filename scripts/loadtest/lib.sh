# Shared pieces of the HTTP load scripts (sourced, not run): the tools, nginx as the reference
# server, CPU time of a server, and reading wrk's report. Only loopback addresses are used.

# Installs wrk and nginx-light when missing (Debian packages).
loadtest_need_tools() {
  local need=()
  command -v wrk >/dev/null || need+=(wrk)
  command -v nginx >/dev/null || need+=(nginx-light)
  if [ ${#need[@]} -gt 0 ]; then
    local sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >/dev/null
  fi
}

# loadtest_start_nginx WORK PORT WORKERS BODY_SIZE [PREFIX...]: nginx-light answering every
# `/resolve` with `return 200` and a JSON body of BODY_SIZE bytes, its pid file in WORK/nginx.pid.
# PREFIX (e.g. `taskset -c 1`) runs before nginx.
loadtest_start_nginx() {
  local work=$1 port=$2 workers=$3 size=$4; shift 4
  local body; body=$(printf '{"matched":true,"pad":"%*s"}' $((size - 26)) "" | tr ' ' x)
  cat >"$work/nginx.conf" <<NGINX
worker_processes $workers;
worker_rlimit_nofile 65536;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port;
    location /resolve { default_type application/json; return 200 '$body'; }
  }
}
NGINX
  "$@" nginx -c "$work/nginx.conf" -p "$work"
  for _ in $(seq 50); do [ -s "$work/nginx.pid" ] && break; sleep 0.1; done
}

# loadtest_start_floor WORK WORKERS BODY_SIZE [PREFIX...]: builds bare-libmicrohttpd.c
# (libmicrohttpd with the server's settings and no work of its own, answering the nginx body) and
# starts it, a background job, on a free loopback port; sets floor_pid and floor_port. PREFIX
# (e.g. `taskset -c 0`) runs before it. Run from the repository.
loadtest_start_floor() {
  local work=$1 workers=$2 size=$3; shift 3
  # shellcheck disable=SC2046 # pkg-config prints several flags
  "${CC:-$(command -v cc || command -v clang)}" -O2 -Wall -Wextra -Werror -o "$work/bare-libmicrohttpd" \
    scripts/loadtest/bare-libmicrohttpd.c $(pkg-config --cflags --libs libmicrohttpd)
  "$@" "$work/bare-libmicrohttpd" 0 "$workers" "$size" >"$work/libmicrohttpd.out" 2>"$work/libmicrohttpd.log" &
  floor_pid=$!
  floor_port=""
  for _ in $(seq 50); do
    floor_port=$(awk '/^port /{print $2}' "$work/libmicrohttpd.out")
    [ -n "$floor_port" ] && return 0
    kill -0 "$floor_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "bare libmicrohttpd did not start:" >&2
  cat "$work/libmicrohttpd.log" >&2
  return 1
}

# loadtest_stop_nginx WORK
loadtest_stop_nginx() {
  [ -f "$1/nginx.pid" ] && kill "$(cat "$1/nginx.pid")" 2>/dev/null || true
}

# loadtest_ticks PID: user+system clock ticks of a process so far.
loadtest_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# loadtest_nginx_ticks WORK: user+system ticks of the nginx workers (children of the master).
loadtest_nginx_ticks() {
  local p sum=0
  for p in $(pgrep -P "$(cat "$1/nginx.pid")"); do sum=$((sum + $(loadtest_ticks "$p"))); done
  echo $sum
}

# loadtest_rss_kib PID: resident set size in KiB.
loadtest_rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

# loadtest_to_ms VALUE: wrk's latency (`812.00us`, `6.20ms`, `1.02s`) in milliseconds.
loadtest_to_ms() {
  awk -v v="$1" 'BEGIN { if (v ~ /us$/) printf "%.3f", v / 1000; else if (v ~ /ms$/) printf "%.3f", v + 0; else printf "%.3f", v * 1000 }'
}

# loadtest_wrk_figures WRK_OUTPUT: "req/s p50_ms p99_ms requests non2xx socket_errors timeouts"
# from wrk's --latency report (socket errors are connect+read+write).
loadtest_wrk_figures() {
  local out=$1 rps p50 p99 requests non2xx errors timeouts
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(loadtest_to_ms "$(awk '$1=="50%" {print $2}' <<<"$out")")
  p99=$(loadtest_to_ms "$(awk '$1=="99%" {print $2}' <<<"$out")")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  errors=$(awk '/Socket errors/ { gsub(/,/, ""); print $4 + $6 + $8 }' <<<"$out")
  timeouts=$(awk '/Socket errors/ { gsub(/,/, ""); print $10 }' <<<"$out")
  echo "${rps:-0} $p50 $p99 ${requests:-0} ${non2xx:-0} ${errors:-0} ${timeouts:-0}"
}

# loadtest_make_workdir: sets $work to a new scratch folder, removed at exit together with every
# background job of the script and the nginx it may have started there.
loadtest_make_workdir() {
  work=$(mktemp -d)
  trap loadtest_cleanup EXIT
  trap 'exit 130' INT TERM
}

loadtest_cleanup() {
  local pids
  pids=$(jobs -p)
  loadtest_stop_nginx "$work"
  [ -n "$pids" ] && { kill $pids 2>/dev/null; wait $pids 2>/dev/null; }
  rm -rf "$work"
}
