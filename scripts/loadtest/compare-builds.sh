#!/usr/bin/env bash
# Two builds of `switchboard serve` side by side under the load of scripts/loadtest.sh: the
# default config with the resolve cache on, and a second instance of each build with
# `resolve_cache_bytes: 0` (every request resolved), plus nginx-light returning a body of the
# same size as the reference. Same wrk settings (keep-alive, the repeat-URL mix of
# scripts/loadtest/cycle.lua over scripts/loadtest/urls.txt), interleaved rounds, and a
# Markdown table of req/s, p50, p99, CPU per request and new/base per configuration.
#
#   scripts/loadtest/compare-builds.sh BASE_BIN NEW_BIN
#   BASE_BIN=../base/.build/release/switchboard NEW_BIN=.build/release/switchboard scripts/loadtest/compare-builds.sh
#   DURATION=5s ROUNDS=1 CONNECTIONS=64 scripts/loadtest/compare-builds.sh BASE_BIN NEW_BIN   # a quick look
#   PIN=1 ...                          # wrk on CPU 0 (one thread), the servers on CPU 1 (one worker each)
#
# Every round runs base and new back to back, in alternating order (odd rounds base first,
# even rounds new first) so a drift of the machine's speed within a round cancels over an
# even number of rounds; new/base is the median of the per-round ratios, each from two runs
# a few seconds apart. wrk shares the cores with the servers, so all figures are CPU-bound and
# only ratios within one run mean anything. Only loopback addresses; all processes started
# here are stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."

BASE_BIN=${1:-${BASE_BIN:-}}
NEW_BIN=${2:-${NEW_BIN:-}}
if [ -z "$BASE_BIN" ] || [ -z "$NEW_BIN" ]; then
  echo "usage: $0 BASE_BIN NEW_BIN   (or env BASE_BIN, NEW_BIN)" >&2; exit 2
fi
BASE_BIN=$(realpath "$BASE_BIN"); NEW_BIN=$(realpath "$NEW_BIN")
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-4}
CONNECTIONS=${CONNECTIONS:-"64 256"}
PORT_BASE=${PORT_BASE:-18490}   # base, new, base-nocache, new-nocache, nginx: PORT_BASE..PORT_BASE+4
PIN=${PIN:-0}
if [ "$PIN" = 1 ]; then
  server_cpu=(taskset -c 1); wrk_cpu=(taskset -c 0); workers=1; wrk_threads=1
else
  server_cpu=(); wrk_cpu=(); workers=2; wrk_threads=2
fi

source scripts/loadtest/lib.sh
loadtest_need_tools

loadtest_make_workdir

# One server per (build, cache): the same config directory, each with a data_dir of its own.
declare -A bin port pid
names=(base new base-nocache new-nocache)
bin[base]=$BASE_BIN; bin[new]=$NEW_BIN; bin[base-nocache]=$BASE_BIN; bin[new-nocache]=$NEW_BIN
for i in "${!names[@]}"; do
  name=${names[$i]}; port[$name]=$((PORT_BASE + i)); dir="$work/config-$name"
  if (exec 3<>"/dev/tcp/127.0.0.1/${port[$name]}") 2>/dev/null; then
    echo "port ${port[$name]} is in use (set PORT_BASE)" >&2; exit 1
  fi
  cp -r config "$dir"
  sed -i "s#^data_dir:.*#data_dir: $work/data-$name#" "$dir/switchboard.yaml"
  echo "threads: $workers" >>"$dir/switchboard.yaml"
  [[ $name == *-nocache ]] && echo "resolve_cache_bytes: 0" >>"$dir/switchboard.yaml"
  "${server_cpu[@]}" "${bin[$name]}" serve --config "$dir" --listen "127.0.0.1:${port[$name]}" --log-level warning 2>"$work/$name.log" &
  pid[$name]=$!
done
port[nginx]=$((PORT_BASE + 4))
for name in "${names[@]}"; do
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:${port[$name]}/healthz" >/dev/null && break; sleep 0.1; done
  curl -fs "http://127.0.0.1:${port[$name]}/healthz" >/dev/null || { echo "$name did not start:" >&2; cat "$work/$name.log" >&2; exit 1; }
done

# The builds must answer the mix alike (same statuses, same bodies), or the comparison is moot.
mean_size() { # port -> mean body size over the URL mix
  local total=0 count=0 url
  while read -r url; do
    [ -n "$url" ] || continue
    total=$((total + $(curl -s -o /dev/null -w '%{size_download}' "http://127.0.0.1:$1/resolve?url=$url")))
    count=$((count + 1))
  done < scripts/loadtest/urls.txt
  echo $((total / count))
}
while read -r url; do
  [ -n "$url" ] || continue
  a=$(curl -s -w ' %{http_code}' "http://127.0.0.1:${port[base]}/resolve?url=$url")
  b=$(curl -s -w ' %{http_code}' "http://127.0.0.1:${port[new]}/resolve?url=$url")
  [ "$a" = "$b" ] || echo "note: the builds answer differently for $url: base [$a] new [$b]" >&2
done < scripts/loadtest/urls.txt
body_size=$(mean_size "${port[base]}")
loadtest_start_nginx "$work" "${port[nginx]}" "$workers" "$body_size" "${server_cpu[@]}"

hz=$(getconf CLK_TCK)
ticks() { # name -> user+system ticks of that server (nginx: its workers)
  if [ "$1" = nginx ]; then loadtest_nginx_ticks "$work"; else loadtest_ticks "${pid[$1]}"; fi
}
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
child_ticks() { # ticks of the waited-for children of this shell (wrk); `times` must run in this shell, not a pipe
  times >"$work/times.$BASHPID"
  awk -v hz="$hz" 'NR==2 { gsub(/[ms]/, " "); print int(($1 * 60 + $2 + $3 * 60 + $4) * hz) }' "$work/times.$BASHPID"
}
run() { # name conns -> "req/s p50_ms p99_ms cpu_us_per_req non2xx_per_mille other_cpu_% errors"
  # other_cpu_%: the machine's busy time during the run that is neither this server's nor wrk's
  # (other processes on the box, and kernel softirq time charged to no process), as a share of
  # all cores: a run where it is far above the others is disturbed.
  local name=$1 conns=$2 before after sys0 sys1 wrk0 wrk1 secs out rps p50 p99 requests non2xx errors
  before=$(ticks "$name"); sys0=$(busy_ticks); child_ticks >"$work/wrk0"; secs=$(date +%s%N)
  out=$(URLS_FILE=scripts/loadtest/urls.txt timeout 120 "${wrk_cpu[@]}" wrk -t"$wrk_threads" -c"$conns" -d"$DURATION" --latency \
    -s scripts/loadtest/cycle.lua "http://127.0.0.1:${port[$name]}" 2>&1)
  after=$(ticks "$name"); sys1=$(busy_ticks); child_ticks >"$work/wrk1"; secs=$(( $(date +%s%N) - secs ))
  wrk0=$(cat "$work/wrk0"); wrk1=$(cat "$work/wrk1")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out"); p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out"); non2xx=${non2xx:-0}
  errors=$(awk '/Socket errors/ {print}' <<<"$out" | tr -s ' ' | tr ' ' '_')
  awk -v r="$rps" -v a="$(loadtest_to_ms "$p50")" -v b="$(loadtest_to_ms "$p99")" -v t=$((after - before)) -v hz="$hz" -v n="$requests" -v x="$non2xx" \
    -v o=$((sys1 - sys0 - (after - before) - (wrk1 - wrk0))) -v cap="$(awk -v ns="$secs" -v hz="$hz" -v c="$(nproc)" 'BEGIN { print ns / 1e9 * hz * c }')" -v e="${errors:--}" \
    'BEGIN { o = o < 0 ? 0 : o; printf "%s %s %s %.2f %.0f %.0f %s\n", r, a, b, t / hz / n * 1e6, x / n * 1000, o / cap * 100, e }'
}

echo "base: $BASE_BIN"
echo "new:  $NEW_BIN"
echo "body size $body_size bytes (nginx: $(mean_size "${port[nginx]}")); $workers worker(s) per server, wrk -t$wrk_threads -c{$CONNECTIONS}$([ "$PIN" = 1 ] && echo ', pinned (wrk CPU 0, servers CPU 1)'), keep-alive, $DURATION per run, $ROUNDS interleaved rounds"
printf '%-6s %-5s %-12s %10s %8s %8s %10s %8s %8s  %s\n' conns round server "req/s" "p50 ms" "p99 ms" "cpu us/req" "non2xx‰" "other %" "socket errors"
for conns in $CONNECTIONS; do
  for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then order="base new base-nocache new-nocache nginx"; else order="new base new-nocache base-nocache nginx"; fi
    for name in $order; do
      read -r rps p50 p99 cpu non2xx other errors <<<"$(run "$name" "$conns")"
      printf '%-6s %-5s %-12s %10s %8s %8s %10s %8s %8s  %s\n' "$conns" "$round" "$name" "$rps" "$p50" "$p99" "$cpu" "$non2xx" "$other" \
        "$([ "$errors" = - ] || echo "$errors")"
      echo "$conns $round $name $rps $p50 $p99 $cpu" >> "$work/results"
    done
  done
done

echo
python3 - "$work/results" <<'PY'
import statistics, sys
by = {}
for conns, rnd, name, *v in (l.split() for l in open(sys.argv[1])):
    by.setdefault((conns, name), {})[rnd] = [float(x) for x in v]
med = lambda xs: statistics.median(xs)
def ratio(conns, new, base, i):  # median over rounds of new/base within the round
    return med([by[(conns, new)][r][i] / by[(conns, base)][r][i] for r in by[(conns, base)]])
print("| connections | resolve cache | base req/s | new req/s | **new/base req/s** (rounds) | p50 base / new ms | p99 base / new ms | new/base p99 | CPU µs/req base / new | new/base CPU | nginx req/s | base / new × nginx |")
print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for conns in sorted({c for c, _ in by}, key=int):
    ng = med([v[0] for v in by[(conns, "nginx")].values()])
    for cache, suffix in (("on", ""), ("off", "-nocache")):
        b, n = "base" + suffix, "new" + suffix
        mb = [med(x) for x in zip(*by[(conns, b)].values())]
        mn = [med(x) for x in zip(*by[(conns, n)].values())]
        per_round = " ".join(f"{by[(conns, n)][r][0] / by[(conns, b)][r][0]:.2f}" for r in sorted(by[(conns, b)], key=int))
        print(f"| {conns} | {cache} | {mb[0]:.0f} | {mn[0]:.0f} | **{ratio(conns, n, b, 0):.3f}** ({per_round}) | {mb[1]:.2f} / {mn[1]:.2f} | {mb[2]:.2f} / {mn[2]:.2f} "
              f"| {ratio(conns, n, b, 2):.2f} | {mb[3]:.1f} / {mn[3]:.1f} | {ratio(conns, n, b, 3):.3f} | {ng:.0f} | {mb[0] / ng:.2f} / {mn[0] / ng:.2f} |")
PY
