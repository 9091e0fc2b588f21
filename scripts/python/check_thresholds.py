"""Compares measured benchmark figures with Benchmarks/thresholds.json (scripts/check-thresholds.sh runs it).

Each entry of `checks` names a figure, where it comes from, the committed value and a tolerance:
    {"name": …, "source": "suite" | "callgrind", "value": V, "tolerance": {"relative": R, "absolute": A}}
A figure regresses when it is above V × (1 + R) + A (every figure here is lower-is-better). A figure
below V × (1 − R) − A is reported as an improvement to commit (`--update`), and does not fail.

- `suite`: a row of the core suite's Markdown table (SwitchboardBenchmarks' output), by its
  `benchmark` cell; the Switchboard column is the figure.
- `callgrind`: instructions per resolve, `NAME` being a list of `--only production-once --set NAME`,
  read from the file `callgrind-NAME.txt` that check-thresholds.sh writes (collected instructions,
  then the number of resolves).

Usage: check_thresholds.py THRESHOLDS.json MEASURED_DIR [--update]
Exit status 0 when no figure regressed, 1 otherwise (and when a figure is missing).
"""

import json
import sys
from pathlib import Path


def suite_rows(directory):
    rows = {}
    for path in sorted(Path(directory).glob("suite-*.md")):
        for line in path.read_text().splitlines():
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if len(cells) < 3 or cells[0] in ("benchmark", "---") or cells[0].startswith("---"):
                continue
            try:
                rows[cells[0]] = float(cells[2])
            except ValueError:
                pass
    return rows


def callgrind_figures(directory):
    figures = {}
    for path in Path(directory).glob("callgrind-*.txt"):
        collected, resolves = path.read_text().split()
        figures[path.stem.removeprefix("callgrind-")] = int(collected) / int(resolves)
    return figures


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    thresholds_path, measured = Path(sys.argv[1]), sys.argv[2]
    update = "--update" in sys.argv[3:]
    thresholds = json.loads(thresholds_path.read_text())
    found = {"suite": suite_rows(measured), "callgrind": callgrind_figures(measured)}
    failures, notes = [], []
    for check in thresholds["checks"]:
        name, source = check["name"], check["source"]
        measured_value = found[source].get(name)
        if measured_value is None:
            failures.append(f"{name} ({source}): not measured. The benchmark was renamed or removed: "
                            f"update {thresholds_path} with the figure that replaces it")
            continue
        tolerance = check.get("tolerance", {})
        relative, absolute = tolerance.get("relative", 0.0), tolerance.get("absolute", 0.0)
        committed = check["value"]
        ceiling = committed * (1 + relative) + absolute
        floor = committed * (1 - relative) - absolute
        line = f"{name}: {measured_value:g} (committed {committed:g}, at most {ceiling:g})"
        if measured_value > ceiling:
            failures.append(f"{line}: REGRESSION")
        elif measured_value < floor:
            notes.append(f"{line}: better than committed; `scripts/check-thresholds.sh --update` records it")
        else:
            print(f"check-thresholds: {line}: ok", file=sys.stderr)
        if update:
            check["value"] = round(measured_value, 3) if source == "suite" else round(measured_value)
    for note in notes:
        print(f"check-thresholds: {note}", file=sys.stderr)
    if update:
        thresholds_path.write_text(json.dumps(thresholds, indent=2, ensure_ascii=False) + "\n")
        print(f"check-thresholds: wrote the measured values into {thresholds_path}", file=sys.stderr)
        return 0
    for failure in failures:
        print(f"check-thresholds: {failure}", file=sys.stderr)
    if failures:
        print(f"check-thresholds: {len(failures)} of {len(thresholds['checks'])} figures failed", file=sys.stderr)
        return 1
    print(f"check-thresholds: {len(thresholds['checks'])} figures within their thresholds", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
