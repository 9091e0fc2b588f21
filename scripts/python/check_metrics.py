"""Checks a Prometheus text exposition with prometheus-client's own parser, and the naming rules
Prometheus documents: snake_case names, counters ending in `_total`, base units in the name
(`_seconds`, `_bytes`), histograms with ascending `le` buckets ending in `+Inf` equal to
`_count`. Also checks that the series Switchboard promises are there, and, given a Grafana
dashboard, that every series its queries use exists.

Usage: python check_metrics.py METRICS.txt [--dashboard DASHBOARD.json] [--route-series N]
                                            [--optional PREFIX]  (series the dashboard may use unexposed)
Exit 1 with every problem listed.
"""

import argparse
import json
import math
import re
import sys

from prometheus_client.parser import text_string_to_metric_families

NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
REQUIRED = [
    "switchboard_build_info",
    "switchboard_admin_auth_failures",
    "switchboard_http_requests",
    "switchboard_http_request_duration_seconds",
    "switchboard_reload_duration_seconds",
    "switchboard_reloads",
    "switchboard_route_hits",
    "switchboard_traffic_sample_urls",
    "switchboard_traffic_sample_bytes",
    "process_cpu_seconds",
    "process_resident_memory_bytes",
    "process_open_fds",
    "process_start_time_seconds",
]


def check(text, dashboard, route_series, optional=()):
    problems = []
    families = {}
    try:
        for family in text_string_to_metric_families(text):
            families[family.name] = family
    except Exception as error:  # the parser's own words say where
        return [f"the parser refuses the exposition: {error!r}"]
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            if kind == "counter" and not name.endswith("_total"):
                problems.append(f"{name}: a counter's name must end in _total")
            if kind != "counter" and name.endswith("_total"):
                problems.append(f"{name}: only counters end in _total")
    for name, family in families.items():
        if not NAME.match(name):
            problems.append(f"{name}: not snake_case")
        if re.search(r"_(milliseconds|microseconds|kilobytes|megabytes|ms|us)(_|$)", name):
            problems.append(f"{name}: use base units (_seconds, _bytes)")
        if not family.documentation:
            problems.append(f"{name}: no HELP")
        if family.type == "histogram":
            problems += check_histogram(family)
    for name in REQUIRED:
        if name not in families:
            problems.append(f"{name}: missing")
    info = families.get("switchboard_build_info")
    if info and not all(sample.labels.get("version") and sample.labels.get("revision") for sample in info.samples):
        problems.append("switchboard_build_info: no version or revision label")
    hits = families.get("switchboard_route_hits")
    if hits and route_series is not None:
        routes = {sample.labels["route"] for sample in hits.samples}
        if len(routes) > route_series + 1:
            problems.append(f"switchboard_route_hits_total: {len(routes)} route series, over the bound {route_series} + _other")
    if dashboard:
        problems += check_dashboard(dashboard, families, text, optional)
    return problems


def check_histogram(family):
    problems = []
    series = {}
    for sample in family.samples:
        labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
        entry = series.setdefault(labels, {"buckets": [], "count": None})
        if sample.name.endswith("_bucket"):
            entry["buckets"].append((float(sample.labels["le"]), sample.value))
        elif sample.name.endswith("_count"):
            entry["count"] = sample.value
    for labels, entry in series.items():
        bounds = [bound for bound, _ in entry["buckets"]]
        counts = [count for _, count in entry["buckets"]]
        where = f"{family.name}{dict(labels)}"
        if bounds != sorted(bounds) or not bounds or not math.isinf(bounds[-1]):
            problems.append(f"{where}: buckets not ascending up to +Inf")
        if counts != sorted(counts):
            problems.append(f"{where}: bucket counts not cumulative")
        if counts and entry["count"] != counts[-1]:
            problems.append(f"{where}: _count {entry['count']} is not the +Inf bucket {counts[-1]}")
    return problems


def check_dashboard(path, families, text, optional):
    with open(path, encoding="utf-8") as handle:
        dashboard = json.load(handle)
    exposed = {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line and not line.startswith("#")}
    problems = []
    used = set()
    for panel in dashboard.get("panels", []):
        for target in panel.get("targets", []):
            for name in re.findall(r"\b((?:switchboard|process)_[a-z0-9_]+)", target.get("expr", "")):
                used.add(name)
                if name not in exposed and not name.startswith(tuple(optional)):
                    problems.append(f"{path}: panel '{panel.get('title')}' uses {name}, which the server does not expose")
    if not used:
        problems.append(f"{path}: no panel queries a Switchboard series")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("metrics")
    parser.add_argument("--dashboard")
    parser.add_argument("--route-series", type=int)
    parser.add_argument("--optional", action="append", default=[])
    arguments = parser.parse_args()
    with open(arguments.metrics, encoding="utf-8") as handle:
        text = handle.read()
    problems = check(text, arguments.dashboard, arguments.route_series, arguments.optional)
    for problem in problems:
        print(f"check-metrics: {problem}")
    if problems:
        print(f"check-metrics: {len(problems)} problem(s)")
        return 1
    print(f"check-metrics: {text.count(chr(10))} lines parse and follow the naming rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
