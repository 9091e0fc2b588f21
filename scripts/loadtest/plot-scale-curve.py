"""Plots docs/benchmarks/scale-curve.csv (written by scale-curve.sh): p50/p99 latency and RSS
against the number of routes, and latency against the number of rewrite rules."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(source: str, target: str) -> None:
    rows = list(csv.DictReader(open(source)))
    routes = [r for r in rows if r["kind"] == "routes"]
    rules = [r for r in rows if r["kind"] == "rules"]
    figure, (left, middle, right) = plt.subplots(1, 3, figsize=(14, 4.2))
    for axis, series, label in ((left, routes, "routes"), (right, rules, "rewrite rules")):
        counts = [int(r["count"]) for r in series]
        axis.plot(counts, [float(r["p50_ms"]) for r in series], "o-", label="p50")
        axis.plot(counts, [float(r["p99_ms"]) for r in series], "s-", label="p99")
        axis.set_xscale("log")
        axis.set_xlabel(label)
        axis.set_ylabel("latency under wrk -c64 (ms)")
        axis.legend()
        axis.grid(True, alpha=0.3)
    counts = [int(r["count"]) for r in routes]
    middle.plot(counts, [float(r["rss_mib"]) for r in routes], "o-", color="tab:red")
    middle.set_xscale("log")
    middle.set_yscale("log")
    middle.set_xlabel("routes")
    middle.set_ylabel("RSS (MiB)")
    middle.grid(True, alpha=0.3)
    figure.suptitle("Switchboard /resolve: scale curve (same machine, wrk on the same 2 cores)")
    figure.tight_layout()
    figure.savefig(target, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
