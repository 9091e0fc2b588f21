#!/usr/bin/env bash
# Side-by-side load test: `switchboard serve` on the default config (with its resolve cache, and
# a second instance with `resolve_cache_bytes: 0`, so every request is resolved) against
# nginx-light returning a body of the same size, same wrk settings, interleaved rounds.
#
#   scripts/loadtest.sh                 # 64 and 256 connections, 10 s, 3 rounds
#   DURATION=5s ROUNDS=1 scripts/loadtest.sh
#   PIN=1 scripts/loadtest.sh          # wrk on CPU 0 (one thread), the servers on CPU 1 (one worker each)
#
# wrk runs on the same 2 cores as the servers, so every figure is CPU-bound: compare the
# ratios of one run, not absolute numbers across runs. Only loopback addresses are used.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
PIN=${PIN:-0}
if [ "$PIN" = 1 ]; then
  # Each side gets a core of its own: the servers' tail latency is then theirs, not the
  # scheduler's. Both servers get one worker, wrk one thread.
  server_cpu=(taskset -c 1); wrk_cpu=(taskset -c 0); workers=1; wrk_threads=1
else
  server_cpu=(); wrk_cpu=(); workers=2; wrk_threads=2
fi
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-"64 256"}
SB_PORT=${SB_PORT:-18480}
NGINX_PORT=${NGINX_PORT:-18481}
SB_NOCACHE_PORT=${SB_NOCACHE_PORT:-18482}
SERVERS=${SERVERS:-"switchboard switchboard-nocache nginx"}

scripts/install-deps.sh
source scripts/loadtest/lib.sh
loadtest_need_tools

swift build -c release --product switchboard >/dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; loadtest_stop_nginx "$work"; wait 2>/dev/null; rm -rf "$work"' EXIT

cp -r config "$work/config"
sed -i "s#^data_dir:.*#data_dir: $work/data#" "$work/config/switchboard.yaml"
echo "threads: $workers" >>"$work/config/switchboard.yaml"
"${server_cpu[@]}" .build/release/switchboard serve --config "$work/config" --listen "127.0.0.1:$SB_PORT" --log-level warning &
sb_pid=$!
cp -r "$work/config" "$work/config-nocache"
echo "resolve_cache_bytes: 0" >>"$work/config-nocache/switchboard.yaml"
sed -i "s#^data_dir:.*#data_dir: $work/data-nocache#" "$work/config-nocache/switchboard.yaml"
"${server_cpu[@]}" .build/release/switchboard serve --config "$work/config-nocache" --listen "127.0.0.1:$SB_NOCACHE_PORT" --log-level warning &
sb_nocache_pid=$!

# The nginx body: the mean size of Switchboard's answers for the same URLs.
for port in $SB_PORT $SB_NOCACHE_PORT; do
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
done
total=0; count=0
while read -r url; do
  [ -n "$url" ] || continue
  size=$(curl -s -o /dev/null -w '%{size_download}' "http://127.0.0.1:$SB_PORT/resolve?url=$url")
  total=$((total + size)); count=$((count + 1))
done < scripts/loadtest/urls.txt
body_size=$((total / count))
loadtest_start_nginx "$work" "$NGINX_PORT" "$workers" "$body_size" "${server_cpu[@]}"

hz=$(getconf CLK_TCK)

run() { # name port conns -> "req/s p50 p99 cpu_us_per_req"
  local name=$1 port=$2 conns=$3 before after out
  ticks() {
    case $name in
      switchboard) loadtest_ticks $sb_pid ;;
      switchboard-nocache) loadtest_ticks $sb_nocache_pid ;;
      *) loadtest_nginx_ticks "$work" ;;
    esac
  }
  before=$(ticks)
  out=$(URLS_FILE=scripts/loadtest/urls.txt "${wrk_cpu[@]}" wrk -t"$wrk_threads" -c"$conns" -d"$DURATION" --latency -s scripts/loadtest/cycle.lua "http://127.0.0.1:$port" 2>&1)
  after=$(ticks)
  local rps p50 p99 requests errors
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  errors=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')
  local cpu
  cpu=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN { printf "%.1f", t / hz / n * 1e6 }')
  echo "$rps $p50 $p99 $cpu ${errors:-}"
}


echo "body size $body_size bytes; $workers worker(s) per server, wrk -t$wrk_threads$([ "$PIN" = 1 ] && echo ', pinned (wrk CPU 0, servers CPU 1)'), keep-alive, $DURATION per run, $ROUNDS interleaved rounds"
printf '%-6s %-5s %-20s %10s %9s %9s %10s   %s\n' conns round server "req/s" "p50 ms" "p99 ms" "cpu us/req" notes
for conns in $CONNECTIONS; do
  for round in $(seq "$ROUNDS"); do
    for name in $SERVERS; do
      case $name in
        switchboard) port=$SB_PORT ;;
        switchboard-nocache) port=$SB_NOCACHE_PORT ;;
        *) port=$NGINX_PORT ;;
      esac
      read -r rps p50 p99 cpu notes <<<"$(run $name $port "$conns")"
      printf '%-6s %-5s %-20s %10s %9s %9s %10s   %s\n' "$conns" "$round" "$name" "$rps" "$(loadtest_to_ms "$p50")" "$(loadtest_to_ms "$p99")" "$cpu" "${notes:-}"
      echo "$conns $name $rps $(loadtest_to_ms "$p50") $(loadtest_to_ms "$p99") $cpu" >> "$work/results"
    done
  done
done

echo
echo "Medians over rounds, and ratios to nginx in the same run:"
python3 - "$work/results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
by = {}
for conns, name, rps, p50, p99, cpu in rows:
    by.setdefault((conns, name), []).append((float(rps), float(p50), float(p99), float(cpu)))
print(f"{'conns':<6} {'server':<20} {'req/s':>8} {'× nginx':>8} {'p50 ms':>7} {'p99 ms':>7} {'p99 × nginx':>11} {'cpu µs/req':>10} {'cpu × nginx':>11}")
for conns in sorted({c for c, _ in by}, key=int):
    ng = [statistics.median(x) for x in zip(*by[(conns, "nginx")])]
    for name in sorted({n for _, n in by}, key=lambda n: (n == "nginx", n)):
        m = [statistics.median(x) for x in zip(*by[(conns, name)])]
        print(f"{conns:<6} {name:<20} {m[0]:>8.0f} {m[0]/ng[0]:>8.2f} {m[1]:>7.2f} {m[2]:>7.2f} {m[2]/ng[2]:>11.2f} {m[3]:>10.1f} {m[3]/ng[3]:>11.2f}")
PY
