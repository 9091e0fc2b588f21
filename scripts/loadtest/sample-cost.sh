#!/usr/bin/env bash
# What the traffic sample costs GET /resolve: one build, three servers on the demo config that
# differ only in `traffic_sample` — off (`urls: 0`), the default (`every: 16`) and the worst case
# (`every: 1`, every request redacted and kept) — under the same wrk load (keep-alive, the
# repeat-URL mix of scripts/loadtest/cycle.lua over scripts/loadtest/urls.txt, so most answers
# come from the resolve cache, the path the sample adds most to). Interleaved rounds, the order
# rotating each round. For each run: req/s, and the server's CPU time per request (user +
# system ticks of its process over the run, divided by the requests wrk counted), which a
# machine shared with other work disturbs less than req/s. The table gives, per setting, the
# medians over the rounds and the median of the per-round ratios to "off".
#
#   scripts/loadtest/sample-cost.sh [BINARY]           (default .build/release/switchboard)
#   DURATION=5s ROUNDS=3 scripts/loadtest/sample-cost.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BINARY=$(realpath "${1:-.build/release/switchboard}")
DURATION=${DURATION:-8s}
ROUNDS=${ROUNDS:-5}
CONNECTIONS=${CONNECTIONS:-64}
PORT_BASE=${PORT_BASE:-18560}
command -v wrk >/dev/null || { echo "sample-cost: wrk is needed" >&2; exit 2; }
source scripts/loadtest/lib.sh
loadtest_make_workdir

names=(off every16 every1)
declare -A setting port pid
setting[off]="{ urls: 0 }"; setting[every16]="{ every: 16 }"; setting[every1]="{ every: 1 }"
for i in "${!names[@]}"; do
  name=${names[$i]}; port[$name]=$((PORT_BASE + i)); dir="$work/config-$name"
  cp -r config "$dir"
  sed -i "s#^data_dir:.*#data_dir: $work/data-$name#" "$dir/switchboard.yaml"
  printf 'threads: 2\ntraffic_sample: %s\n' "${setting[$name]}" >>"$dir/switchboard.yaml"
  "$BINARY" serve --config "$dir" --listen "127.0.0.1:${port[$name]}" --log-level warning 2>"$work/$name.log" &
  pid[$name]=$!
done
hz=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/${pid[$1]}/stat"; }
for name in "${names[@]}"; do
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:${port[$name]}/healthz" >/dev/null && break; sleep 0.1; done
  curl -fs "http://127.0.0.1:${port[$name]}/healthz" >/dev/null || { cat "$work/$name.log" >&2; exit 1; }
done

run() { # name -> "req/s cpu-µs-per-request"
  local before after out
  before=$(ticks "$1")
  out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s scripts/loadtest/cycle.lua "http://127.0.0.1:${port[$1]}")
  after=$(ticks "$1")
  echo "$out" | awk -v ticks=$((after - before)) -v hz="$hz" '
    / requests in / { requests = $1 }
    /Requests\/sec/ { rate = $2 }
    END { printf "%s %.2f\n", rate, ticks / hz * 1e6 / requests }'
}
declare -A rates cpus
for round in $(seq "$ROUNDS"); do
  order=("${names[@]:$(( (round - 1) % 3 ))}" "${names[@]:0:$(( (round - 1) % 3 ))}")
  line="round $round:"
  for name in "${order[@]}"; do
    read -r rates[$name,$round] cpus[$name,$round] < <(run "$name")
    line+=" $name ${rates[$name,$round]} req/s ${cpus[$name,$round]} µs"
  done
  echo "$line"
done
echo
echo "| traffic_sample | req/s | / off | CPU µs per request | / off | requests taken |"
echo "|---|---:|---:|---:|---:|---:|"
for name in "${names[@]}"; do
  kept=$(curl -fs "http://127.0.0.1:${port[$name]}/metrics" | awk '$1 == "switchboard_traffic_sample_taken_total" { print $2 }')
  rows=()
  for round in $(seq "$ROUNDS"); do
    rows+=("${rates[$name,$round]} ${rates[off,$round]} ${cpus[$name,$round]} ${cpus[off,$round]}")
  done
  printf '%s\n' "${rows[@]}" | python3 -c '
import statistics, sys
name, kept = sys.argv[1], sys.argv[2]
rows = [[float(v) for v in line.split()] for line in sys.stdin if line.strip()]
med = lambda values: statistics.median(values)
print(f"| {name} | {med([r[0] for r in rows]):,.0f} | {med([r[0] / r[1] for r in rows]):.3f} "
      f"| {med([r[2] for r in rows]):.2f} | {med([r[2] / r[3] for r in rows]):.3f} | {kept} |")
' "$name" "$kept"
done
