#!/usr/bin/env bash
# What the traffic sample costs GET /resolve: one build, three servers on the demo config that
# differ only in `traffic_sample` — off (`urls: 0`), the default (`every: 16`) and the worst case
# (`every: 1`, every request redacted and kept) — under the same wrk load (keep-alive, the
# repeat-URL mix of scripts/loadtest/cycle.lua over scripts/loadtest/urls.txt, so most answers
# come from the resolve cache, the path the sample adds most to). Interleaved rounds, the order
# rotating each round; prints req/s per round and the median of each setting's per-round ratio
# to "off". wrk shares the cores with the servers: only the ratios mean anything.
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
work=$(mktemp -d)
cleanup() {
  local pids; pids=$(jobs -p)
  [ -n "$pids" ] && { kill $pids 2>/dev/null; wait $pids 2>/dev/null; }
  rm -rf "$work"
}
trap cleanup EXIT

names=(off every16 every1)
declare -A setting port
setting[off]="{ urls: 0 }"; setting[every16]="{ every: 16 }"; setting[every1]="{ every: 1 }"
for i in "${!names[@]}"; do
  name=${names[$i]}; port[$name]=$((PORT_BASE + i)); dir="$work/config-$name"
  cp -r config "$dir"
  sed -i "s#^data_dir:.*#data_dir: $work/data-$name#" "$dir/switchboard.yaml"
  printf 'threads: 2\ntraffic_sample: %s\n' "${setting[$name]}" >>"$dir/switchboard.yaml"
  "$BINARY" serve --config "$dir" --listen "127.0.0.1:${port[$name]}" --log-level warning 2>"$work/$name.log" &
done
for name in "${names[@]}"; do
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:${port[$name]}/healthz" >/dev/null && break; sleep 0.1; done
  curl -fs "http://127.0.0.1:${port[$name]}/healthz" >/dev/null || { cat "$work/$name.log" >&2; exit 1; }
done

rate() { # name -> requests per second
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s scripts/loadtest/cycle.lua "http://127.0.0.1:${port[$1]}" \
    | awk '/Requests\/sec/ { print $2 }'
}
declare -A rates
for round in $(seq "$ROUNDS"); do
  order=("${names[@]:$(( (round - 1) % 3 ))}" "${names[@]:0:$(( (round - 1) % 3 ))}")
  line="round $round:"
  for name in "${order[@]}"; do
    rates[$name,$round]=$(rate "$name")
    line+=" $name ${rates[$name,$round]}"
  done
  echo "$line"
done
echo
echo "| traffic_sample | req/s (median) | / off, median of rounds (min–max) | requests taken |"
echo "|---|---:|---:|---:|"
for name in "${names[@]}"; do
  kept=$(curl -fs "http://127.0.0.1:${port[$name]}/metrics" | awk '$1 == "switchboard_traffic_sample_taken_total" { print $2 }')
  values=(); ratios=()
  for round in $(seq "$ROUNDS"); do
    values+=("${rates[$name,$round]}")
    ratios+=("$(python3 -c "print(${rates[$name,$round]} / ${rates[off,$round]})")")
  done
  python3 - "$name" "$kept" "${#values[@]}" "${values[@]}" "${ratios[@]}" <<'PY'
import statistics, sys
name, kept, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
values = [float(v) for v in sys.argv[4:4 + count]]
ratios = [float(v) for v in sys.argv[4 + count:]]
print(f"| {name} | {statistics.median(values):,.0f} | {statistics.median(ratios):.3f} ({min(ratios):.3f}–{max(ratios):.3f}) | {kept} |")
PY
done
