#!/usr/bin/env bash
# A production-sized scenario beside nginx: the config and links of
# generate-production.py (2,000 routes, 50 rules), served by a release `switchboard serve`
# (and, with BASE_BIN, a second build beside it), against nginx-light's `return 200` with a
# body of the same mean size; wrk (keep-alive) in interleaved rounds at each connection count,
# for two scenarios:
#   distinct  every request a link never asked before (a unique click id; the resolve cache
#             cannot answer);
#   repeat    the first 1,000 links of the list, over and over (the cache answers).
# Reports req/s, p50, p99, server CPU per request (user+system time of the server over the run
# ÷ requests), non-2xx and socket errors/timeouts, medians over rounds and ratios to nginx of
# the same rounds; writes the medians as CSV (for plot-production.py).
#
#   scripts/loadtest/production.sh                       # builds, 64/256/1024 conns, 3 rounds of 10 s
#   BASE_BIN=../base/.build/release/switchboard scripts/loadtest/production.sh   # a baseline build beside
#   DURATION=5s ROUNDS=1 CONNECTIONS=64 SCENARIOS=distinct scripts/loadtest/production.sh
#   VARIANTS="small-pool:SWITCHBOARD_X=1,SWITCHBOARD_Y=2" ...   # more instances of BIN, each with its environment
#   FLOOR=1 ...                                          # also bare-libmicrohttpd.c: libmicrohttpd alone, same settings
#   CSV=docs/benchmarks/production.csv ...             # where the medians go (default /tmp/switchboard-production.csv)
#   PIN=1 ...                                            # wrk on CPU 0 (one thread), each server on CPU 1 (one worker)
#   HEADERS=app ...                                      # requests carry a mobile app's header fields, not only Host
#   SERVER_THREADS=2 ...                                 # Switchboard's and the floor's workers (default: Switchboard's default)
#
# By default wrk runs on the same 2 cores as the servers (nginx with WORKERS=2 workers, Switchboard and
# the floor with SERVER_THREADS, by default Switchboard's own default; wrk -t2), so everything
# is CPU-bound and only ratios within one run mean anything. PIN=1 (as in scripts/loadtest.sh)
# gives each side a core of its own, to see what a request costs when the load generator does
# not share the server's core and caches. Processes started here are stopped on exit.
set -euo pipefail
# One compound command, which bash reads whole before running it: editing this file while a
# long run goes on cannot change what that run does (bash reads a plain script as it goes).
{
cd "$(dirname "$0")/../.."
source scripts/loadtest/lib.sh

BIN=${BIN:-.build/release/switchboard}
BASE_BIN=${BASE_BIN:-}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-"64 256 1024"}
SCENARIOS=${SCENARIOS:-"distinct repeat"}
URL_COUNT=${URL_COUNT:-50000}
PORT_BASE=${PORT_BASE:-28520}   # switchboard, base, nginx, then the variants: PORT_BASE, PORT_BASE+1, …
# Room for the most connections of a run (1,024 at least, the server's default limit), all from
# 127.0.0.1.
max_connections=1024
for conns in $CONNECTIONS; do [ "$conns" -gt "$max_connections" ] && max_connections=$conns; done
if [ "${PIN:-0}" = 1 ]; then
  server_pin=(taskset -c 1); wrk_pin=(taskset -c 0); WORKERS=1; SERVER_THREADS=1; wrk_threads=1
else
  # Unset, Switchboard picks its own default worker count; the floor then gets as many.
  server_pin=(); wrk_pin=(); WORKERS=${WORKERS:-2}; SERVER_THREADS=${SERVER_THREADS:-}; wrk_threads=2
fi

loadtest_need_tools
[ -n "${BIN_PREBUILT:-}" ] || [ "$BIN" != .build/release/switchboard ] || swift build -c release --product switchboard >/dev/null
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

loadtest_make_workdir

python3 scripts/loadtest/generate-production.py "$work/config" "$work/urls.txt" "$URL_COUNT"
cat >>"$work/config/switchboard.yaml" <<YAML
limits: { max_connections: $max_connections, max_connections_per_client: $max_connections }
YAML
[ -z "$SERVER_THREADS" ] || echo "threads: $SERVER_THREADS" >>"$work/config/switchboard.yaml"

declare -A bin port pid environment
names=(switchboard)
bin[switchboard]=$(realpath "$BIN")
if [ -n "$BASE_BIN" ]; then names+=(base); bin[base]=$(realpath "$BASE_BIN"); fi
port[switchboard]=$PORT_BASE; port[base]=$((PORT_BASE + 1)); port[nginx]=$((PORT_BASE + 2))
next_port=$((PORT_BASE + 3))
for variant in ${VARIANTS:-}; do
  name=${variant%%:*}; names+=("$name"); bin[$name]=${bin[switchboard]}; port[$name]=$next_port
  environment[$name]=$(tr ',' ' ' <<<"${variant#*:}"); next_port=$((next_port + 1))
done
for name in "${names[@]}" nginx; do
  if (exec 3<>"/dev/tcp/127.0.0.1/${port[$name]}") 2>/dev/null; then
    echo "port ${port[$name]} is in use (set PORT_BASE)" >&2; exit 1
  fi
done
for name in "${names[@]}"; do
  cp -r "$work/config" "$work/config-$name"
  sed -i "s#^data_dir:.*#data_dir: $work/data-$name#" "$work/config-$name/switchboard.yaml"
  env ${environment[$name]:-} "${server_pin[@]}" "${bin[$name]}" serve --config "$work/config-$name" --listen "127.0.0.1:${port[$name]}" --log-level info 2>"$work/$name.log" &
  pid[$name]=$!
done
for name in "${names[@]}"; do
  for _ in $(seq 200); do curl -fs "http://127.0.0.1:${port[$name]}/healthz" >/dev/null && break; sleep 0.1; done
  curl -fs "http://127.0.0.1:${port[$name]}/healthz" >/dev/null || { echo "$name did not start:" >&2; cat "$work/$name.log" >&2; exit 1; }
done
# The worker count Switchboard runs with, as its start-up line says (its default when unset).
server_threads=$(sed -n 's/.* threads=\([0-9][0-9]*\) .*HTTP server listening.*/\1/p' "$work/switchboard.log" | head -1)
[ -n "$server_threads" ] || { echo "no worker count in Switchboard's log:" >&2; cat "$work/switchboard.log" >&2; exit 1; }

# The nginx body: the mean size of the answers to the first 200 links; the builds must agree.
total=0; count=0
while read -r url; do
  url=${url//CIDX/0}
  answer=$(curl -s -w ' %{http_code}' "http://127.0.0.1:${port[switchboard]}/resolve?url=$url")
  if [ -n "$BASE_BIN" ]; then
    other=$(curl -s -w ' %{http_code}' "http://127.0.0.1:${port[base]}/resolve?url=$url")
    [ "$answer" = "$other" ] || echo "note: the builds answer differently for $url: [$other] [$answer]" >&2
  fi
  total=$((total + ${#answer} - 4)); count=$((count + 1))
done < <(head -200 "$work/urls.txt")
body_size=$((total / count))
loadtest_start_nginx "$work" "${port[nginx]}" "$WORKERS" "$body_size" "${server_pin[@]}"
servers=("${names[@]}" nginx)
if [ -n "${FLOOR:-}" ]; then
  # libmicrohttpd with the server's settings and no work of its own, answering the same body:
  # how much of the gap to nginx is the C library's and the kernel's, not Switchboard's.
  loadtest_start_floor "$work" "$server_threads" "$body_size" "${server_pin[@]}" || exit 1
  port[libmicrohttpd]=$floor_port
  pid[libmicrohttpd]=$floor_pid
  servers+=(libmicrohttpd)
fi

hz=$(getconf CLK_TCK)
ticks() { if [ "$1" = nginx ]; then loadtest_nginx_ticks "$work"; else loadtest_ticks "${pid[$1]}"; fi; }
run_id=0
run() { # name scenario conns -> "req/s p50 p99 cpu_us_per_req non2xx errors timeouts"
  local name=$1 scenario=$2 conns=$3 before after out
  run_id=$((run_id + 1))
  before=$(ticks "$name")
  out=$(SCENARIO=$scenario RUN_ID=$run_id URLS_FILE="$work/urls.txt" timeout 300 "${wrk_pin[@]}" wrk -t"$wrk_threads" -c"$conns" -d"$DURATION" \
    --timeout 5s --latency -s scripts/loadtest/production.lua "http://127.0.0.1:${port[$name]}" 2>&1) || true
  after=$(ticks "$name")
  read -r rps p50 p99 requests non2xx errors timeouts <<<"$(loadtest_wrk_figures "$out")"
  awk -v r="$rps" -v a="$p50" -v b="$p99" -v t=$((after - before)) -v hz="$hz" -v n="$requests" \
    -v x="$non2xx" -v e="$errors" -v o="$timeouts" \
    'BEGIN { printf "%s %s %s %.2f %s %s %s\n", r, a, b, (n > 0 ? t / hz / n * 1e6 : 0), x, e, o }'
}

echo "servers: ${servers[*]} ($server_threads threads for Switchboard and libmicrohttpd, $WORKERS nginx workers; wrk -t$wrk_threads$([ "${PIN:-0}" = 1 ] && echo ', pinned: wrk CPU 0, servers CPU 1' || echo ' on the same cores')); body $body_size bytes;"
echo "$URL_COUNT links, $ROUNDS interleaved rounds of $DURATION; scenarios: $SCENARIOS"
printf '%-6s %-9s %-5s %-12s %10s %8s %8s %10s %8s %7s %8s\n' conns scenario round server "req/s" "p50 ms" "p99 ms" "cpu us/req" non2xx errors timeouts
for conns in $CONNECTIONS; do
  for round in $(seq "$ROUNDS"); do
    for scenario in $SCENARIOS; do
      order=("${servers[@]}")
      # Odd rounds in listed order, even rounds reversed: a drift within a round cancels.
      if [ $((round % 2)) = 0 ]; then order=(); for ((i = ${#servers[@]} - 1; i >= 0; i--)); do order+=("${servers[$i]}"); done; fi
      for name in "${order[@]}"; do
        read -r rps p50 p99 cpu non2xx errors timeouts <<<"$(run "$name" "$scenario" "$conns")"
        printf '%-6s %-9s %-5s %-12s %10s %8s %8s %10s %8s %7s %8s\n' "$conns" "$scenario" "$round" "$name" "$rps" "$p50" "$p99" "$cpu" "$non2xx" "$errors" "$timeouts"
        echo "$conns $scenario $round $name $rps $p50 $p99 $cpu $non2xx $errors $timeouts" >>"$work/results"
      done
    done
  done
done
for name in "${names[@]}"; do echo "$name RSS at the end: $(( $(loadtest_rss_kib "${pid[$name]}") / 1024 )) MiB"; done

echo
python3 - "$work/results" "${CSV:-/tmp/switchboard-production.csv}" <<'PY'
import statistics, sys
rows = {}
for conns, scenario, rnd, name, *v in (l.split() for l in open(sys.argv[1])):
    rows.setdefault((int(conns), scenario, name), {})[rnd] = [float(x) for x in v]
med = statistics.median
def ratio(key, ref, i):  # median over rounds of the within-round ratio
    return med([key_r[i] / rows[ref][r][i] for r, key_r in rows[key].items() if rows[ref][r][i] > 0])
print("| connections | scenario | server | req/s | **× nginx** (rounds) | p50 ms | p99 ms | p99 × nginx | CPU µs/req | CPU × nginx | non-2xx | errors / timeouts |")
print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
csv = ["connections,scenario,server,rps,rps_ratio,p50_ms,p99_ms,p99_ratio,cpu_us,cpu_ratio,errors,timeouts"]
for conns, scenario, name in sorted(rows, key=lambda k: (k[0], k[1], k[2] == "nginx", k[2])):
    key, ref = (conns, scenario, name), (conns, scenario, "nginx")
    m = [med(x) for x in zip(*rows[key].values())]
    per = " ".join(f"{rows[key][r][0] / rows[ref][r][0]:.2f}" for r in sorted(rows[key], key=int))
    rr, pr, cr = ratio(key, ref, 0), ratio(key, ref, 2), ratio(key, ref, 3)
    errors = sum(v[5] for v in rows[key].values()); timeouts = sum(v[6] for v in rows[key].values())
    non2xx = sum(v[4] for v in rows[key].values())
    print(f"| {conns} | {scenario} | {name} | {m[0]:.0f} | **{rr:.2f}** ({per}) | {m[1]:.2f} | {m[2]:.2f} | {pr:.2f} | {m[3]:.1f} | {cr:.2f} | {non2xx:.0f} | {errors:.0f} / {timeouts:.0f} |")
    csv.append(f"{conns},{scenario},{name},{m[0]:.0f},{rr:.3f},{m[1]:.3f},{m[2]:.3f},{pr:.3f},{m[3]:.2f},{cr:.3f},{errors:.0f},{timeouts:.0f}")
open(sys.argv[2], "w").write("\n".join(csv) + "\n")
print(f"\nmedians written to {sys.argv[2]}")
PY
exit
}
