#!/usr/bin/env bash
# The cache lines one `GET /resolve` touches when it finds the CPU's caches cold, as it does on a
# loaded server (between two requests of a worker, the kernel's TCP stack and the load generator
# run on the same core): SwitchboardAPIBenchmark under callgrind's cache simulation, with every
# cache line of a buffer larger than the simulated last-level cache written between two requests
# (EVICT_KIB). The last-level read misses per request are then the lines of code (I) and data (D)
# the request touched. Two runs of one binary agree within a line; two builds can differ by
# layout alone (below), so compare builds by more than that.
#
#   scripts/cold-misses.sh CONFIG_DIR URLS_FILE [distinct|repeat] [BINARY]
#
# CONFIG_DIR and URLS_FILE as for SwitchboardAPIBenchmark (scripts/loadtest/generate-production.py);
# BINARY defaults to the release build of SwitchboardAPIBenchmark. Runs 1,000 and 3,000 requests
# and reports the difference per request, so that the warm-up and the set-up fall out. Hashing is
# made deterministic (SWIFT_DETERMINISTIC_HASHING), so that dictionaries lay out the same way in
# every run. KEEP_DIR=DIR keeps callgrind's files there, for callgrind_annotate --inclusive=yes.
#
# The data lines are the firmer figure: callgrind's first-level instruction cache is not
# cleared by the writes, so the code lines also count conflicts in it, which move with the
# code's layout: by 10 to 35 lines between builds whose instructions per request differ by
# under 1 %. Nor are the code lines what a loaded server pays for: a build with 37 % fewer of
# them (-Osize) took more CPU per request there (BENCHMARKS.md "Ninth pass"). Compare builds
# by their data lines and their instructions.
set -euo pipefail
cd "$(dirname "$0")/.."

config=${1:?usage: scripts/cold-misses.sh CONFIG_DIR URLS_FILE [distinct|repeat] [BINARY]}
urls=${2:?usage: scripts/cold-misses.sh CONFIG_DIR URLS_FILE [distinct|repeat] [BINARY]}
scenario=${3:-distinct}
binary=${4:-}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
if [ -z "$binary" ]; then
  swift build -c release --product SwitchboardAPIBenchmark >/dev/null
  binary=.build/release/SwitchboardAPIBenchmark
fi

work=${KEEP_DIR:-$(mktemp -d)}
[ -n "${KEEP_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
# valgrind cannot read the DWARF Swift writes.
objcopy --strip-debug "$binary" "$work/benchmark"
for requests in 1000 3000; do
  SWIFT_DETERMINISTIC_HASHING=1 EVICT_KIB=2048 valgrind --tool=callgrind --cache-sim=yes --LL=1048576,16,64 \
    --toggle-collect='*answerAll*' --callgrind-out-file="$work/$requests.out" \
    "$work/benchmark" "$config" "$urls" "$scenario" "$requests" 1 >/dev/null 2>&1 &
done
wait
python3 - "$work" <<'PY'
import sys

def totals(path):
    events = None
    for line in open(path):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("totals:"):
            return dict(zip(events, map(int, line.split()[1:])))
    raise SystemExit(f"no totals in {path}")

work = sys.argv[1]
few, many = totals(f"{work}/1000.out"), totals(f"{work}/3000.out")
per = {event: (many[event] - few[event]) / 2000 for event in few}
print(f"lines missed per request: code {per['ILmr']:.1f}, data {per['DLmr']:.1f}, "
      f"together {per['ILmr'] + per['DLmr']:.1f}")
PY
