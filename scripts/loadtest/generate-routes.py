#!/usr/bin/env python3
"""Writes the synthetic route set of the load scripts: COUNT routes `/v{a}/resource{b}/:id/sub{c}`
(ids bulk0…, target {page: Bulk}, module bulk) as a route file, JSON or YAML by PATH's extension.
With URLS, also writes 500 percent-encoded `shopapp://` links spread over the routes, one a line.

    generate-routes.py PATH COUNT [URLS]
"""
import json
import sys
import urllib.parse


def pattern(i):
    return f"/v{i % 10}/resource{i // 100}/:id/sub{(i // 10) % 10}"


def main():
    path, count = sys.argv[1], int(sys.argv[2])
    with open(path, "w") as out:
        if path.endswith(".json"):
            out.write('{"module": "bulk", "routes": [\n')
            out.write(",\n".join(
                json.dumps({"id": f"bulk{i}", "pattern": pattern(i), "target": {"page": "Bulk"}}) for i in range(count)))
            out.write("\n]}\n")
        else:
            out.write("module: bulk\nroutes:\n")
            for i in range(count):
                out.write(f"  - {{ id: bulk{i}, pattern: {pattern(i)}, target: {{ page: Bulk }} }}\n")
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as out:
            for j in range(500):
                i = (j * 7919) % count
                link = f"shopapp://v{i % 10}/resource{i // 100}/{100000 + j}/sub{(i // 10) % 10}"
                out.write(urllib.parse.quote(link, safe="") + "\n")


if __name__ == "__main__":
    main()
