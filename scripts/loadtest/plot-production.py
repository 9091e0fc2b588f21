"""Plots the CSV of production.sh: Switchboard's req/s as a ratio to nginx's (same rounds)
against the number of connections, one line per scenario (and per build when a baseline ran;
dashed for libmicrohttpd alone when FLOOR=1 ran it).

    plot-production.py CSV PNG
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(source: str, target: str) -> None:
    rows = [r for r in csv.DictReader(open(source)) if r["server"] != "nginx"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for (server, scenario) in sorted({(r["server"], r["scenario"]) for r in rows}):
        series = sorted((r for r in rows if r["server"] == server and r["scenario"] == scenario),
                        key=lambda r: int(r["connections"]))
        connections = [int(r["connections"]) for r in series]
        if server == "libmicrohttpd":
            label, style = f"{scenario} URLs, libmicrohttpd alone", "s--"
        else:
            label, style = f"{scenario} URLs, " + ("this build" if server == "switchboard" else f"{server} build"), "o-"
        left.plot(connections, [float(r["rps_ratio"]) for r in series], style, label=label)
        right.plot(connections, [float(r["cpu_ratio"]) for r in series], style, label=label)
    for axis, title in ((left, "req/s ÷ nginx's"), (right, "server CPU per request ÷ nginx's")):
        axis.set_xscale("log", base=2)
        axis.set_xticks([64, 256, 1024], ["64", "256", "1024"])
        axis.set_xlabel("connections (wrk -t2, keep-alive)")
        axis.set_ylabel(title)
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=8, framealpha=0.8)
    left.axhline(0.8, color="grey", linestyle=":", linewidth=1)
    left.axhline(0.92, color="grey", linestyle="--", linewidth=1)
    right.axhline(1.3, color="grey", linestyle=":", linewidth=1)
    figure.suptitle("Switchboard /resolve, production config (2,000 routes, 50 rules) against nginx return 200")
    figure.tight_layout()
    figure.savefig(target, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
