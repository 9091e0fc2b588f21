#!/usr/bin/env bash
# Runs the core suite of this checkout beside the same suite built against an older commit, in
# one run: both release builds, pinned to one core, alternating, then one table of medians and
# ratios (this checkout ÷ the older commit). The older commit gets this checkout's Benchmarks/
# sources, built with SWITCHBOARD_BENCH_BASELINE=1 (benchmarks of entry points it lacks are
# left out).
#
# Usage: Benchmarks/compare.sh BASE_COMMIT [ALTERNATIONS] [suite options, e.g. --only production]
#   BASE_DIR=/tmp/…   where the older commit is unpacked and built (kept between runs)
set -euo pipefail
cd "$(dirname "$0")/.."
base_ref="${1:?usage: Benchmarks/compare.sh BASE_COMMIT [ALTERNATIONS] [options]}"
alternations="${2:-3}"
shift $(($# >= 2 ? 2 : 1))
options=("$@")
[[ ${#options[@]} -gt 0 ]] || options=(--only production)
base_sha="$(git rev-parse --short "$base_ref")"
base_dir="${BASE_DIR:-/tmp/switchboard-bench-base-$base_sha}"
sets="${SWITCHBOARD_BENCH_SETS:-$(pwd)/Benchmarks/routes}"
output="$(mktemp -d /tmp/switchboard-compare.XXXXXX)"

if [[ ! -f "$base_dir/Package.swift" ]]; then
    mkdir -p "$base_dir"
    git archive "$base_ref" | tar -x -C "$base_dir"
fi
mkdir -p "$base_dir/Benchmarks"
cp Benchmarks/Package.swift Benchmarks/Package.resolved "$base_dir/Benchmarks/" 2>/dev/null || true
rm -rf "$base_dir/Benchmarks/Sources"
cp -R Benchmarks/Sources "$base_dir/Benchmarks/Sources"

echo "compare: building $base_sha in $base_dir and this checkout (release)" >&2
SWITCHBOARD_BENCH_BASELINE=1 swift build -c release --package-path "$base_dir/Benchmarks" >&2
swift build -c release --package-path Benchmarks >&2

pin=()
if command -v taskset >/dev/null && [[ "$(nproc)" -gt 1 ]]; then pin=(taskset -c 1); fi
for round in $(seq 1 "$alternations"); do
    echo "compare: round $round of $alternations" >&2
    "${pin[@]}" "$base_dir/Benchmarks/.build/release/SwitchboardBenchmarks" --sets "$sets" "${options[@]}" >"$output/base-$round.md"
    "${pin[@]}" Benchmarks/.build/release/SwitchboardBenchmarks --sets "$sets" "${options[@]}" >"$output/new-$round.md"
done

python3 - "$output" "$alternations" "$base_sha" <<'PY'
import statistics, sys
directory, rounds, base = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def rows(path):
    table = {}
    for line in open(path):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("benchmark", "---"): continue
        try: table[(cells[0], cells[1])] = float(cells[2])
        except ValueError: pass
    return table
base_runs = [rows(f"{directory}/base-{r}.md") for r in range(1, rounds + 1)]
new_runs = [rows(f"{directory}/new-{r}.md") for r in range(1, rounds + 1)]
print(f"| benchmark | unit | {base} | this checkout | ratio |")
print("|---|---|---:|---:|---:|")
for key in new_runs[0]:
    new = statistics.median(run[key] for run in new_runs if key in run)
    olds = [run[key] for run in base_runs if key in run]
    old = statistics.median(olds) if olds else None
    ratio = f"{new / old:.2f}×" if old else ""
    print(f"| {key[0]} | {key[1]} | {'' if old is None else f'{old:g}'} | {new:g} | {ratio} |")
PY
echo "compare: raw tables in $output" >&2
