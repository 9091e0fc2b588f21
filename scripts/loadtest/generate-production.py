#!/usr/bin/env python3
"""Writes a production-sized scenario: a config directory and a list of deep links.

    generate-production.py CONFIG_DIR URLS_FILE [COUNT]

CONFIG_DIR gets switchboard.yaml, rewrites.yaml and routes.d/m0.json … m19.json:
20 modules × 100 routes, 25 of each kind per module:
  /mK/itemJ/:id<int>   /mK/pageJ   /mK/userJ/:name   /mK/filesJ/*path
and 50 rewrite rules, in this order: 48 host migrations that never fire (their host is in no
link), one web→app rule (https://www.shop.example.com/… → shop://…), one campaign rule.

URLS_FILE gets COUNT links (default 50,000), percent-encoded for `/resolve?url=`, one a line,
in the mix of real deep-link traffic (item links 53 %, so that the shares add up to 100 %):
  53 %  shop://mK/itemJ/ID?utm_source=push&cid=UNIQUE        (:id<int>)
  15 %  rewritten: 12 % https://www.shop.example.com/mK/… (web→app rule), 3 % campaign links
  10 %  https://shop.example.com/mK/userJ/red%20shoes%20…    (web app links with %20, :name)
  10 %  shop://mK/userJ/NAME                                   (:name)
   4 %  shop://mK/filesJ/docs/…                                (catch-all)
   8 %  shop://mK/goneJ/ID                                     (unmatched: 404 with the fallback)
Every link carries the token CIDX where a click id goes; the load script replaces it with a
number unique to each request (the distinct-URL scenario) or with a constant (repeat-URL).
The output is deterministic (a fixed seed). Nothing it writes is meant to be committed.
"""
import json
import os
import random
import sys
import urllib.parse

MODULES = 20
PER_KIND = 25
MIGRATIONS = 48
TOKEN = "CIDX"


def write_config(directory):
    os.makedirs(os.path.join(directory, "routes.d"), exist_ok=True)
    with open(os.path.join(directory, "switchboard.yaml"), "w") as out:
        out.write(
            "schemes: [shop]\n"
            "domains: [shop.example.com]\n"
            "data_dir: ./data\n"
            'fallback: "https://m.shop.example.com/?from=$$url"\n')
    for k in range(MODULES):
        routes = []
        for j in range(PER_KIND):
            routes.append({"id": f"m{k}.item{j}", "pattern": f"/m{k}/item{j}/:id<int>",
                           "target": {"page": f"Item{j}", "module": k}, "params": {"source": "deeplink"}})
            routes.append({"id": f"m{k}.page{j}", "pattern": f"/m{k}/page{j}", "target": {"page": f"Page{j}"}})
            routes.append({"id": f"m{k}.user{j}", "pattern": f"/m{k}/user{j}/:name", "target": {"page": f"User{j}"}})
            routes.append({"id": f"m{k}.files{j}", "pattern": f"/m{k}/files{j}/*path",
                           "target": {"page": "Files", "viewer": "pdf"}})
        with open(os.path.join(directory, "routes.d", f"m{k}.json"), "w") as out:
            json.dump({"module": f"m{k}", "routes": routes}, out, indent=1)
    rules = [{"id": f"migrate-legacy{i}", "match": rf"^https?://legacy{i}\.shop-old\.example/(.*)$",
              "target": "shop://$1"} for i in range(MIGRATIONS)]
    rules.append({"id": "web-to-app", "match": r"^https://www\.shop\.example\.com/(m[0-9]+/.*)$",
                  "target": "shop://$1"})
    rules.append({"id": "campaign", "match": r"^https://shop\.example\.com/campaign/(m[0-9]+)/([a-z0-9-]+)",
                  "target": "shop://$1/page0?campaign=$2&from=campaign"})
    with open(os.path.join(directory, "rewrites.yaml"), "w") as out:
        json.dump({"rules": rules}, out, indent=1)  # JSON is YAML


def link(rng):
    k, j = rng.randrange(MODULES), rng.randrange(PER_KIND)
    draw = rng.random() * 100
    if draw < 53:
        return f"shop://m{k}/item{j}/{rng.randrange(1, 10**7)}?utm_source=push&cid={TOKEN}"
    if draw < 65:
        if rng.random() < 0.5:
            return f"https://www.shop.example.com/m{k}/item{j}/{rng.randrange(1, 10**7)}?utm_source=web&cid={TOKEN}"
        return f"https://www.shop.example.com/m{k}/page{j}?cid={TOKEN}"
    if draw < 68:
        return f"https://shop.example.com/campaign/m{k}/double11-{rng.randrange(100)}?cid={TOKEN}"
    if draw < 78:
        return f"https://shop.example.com/m{k}/user{j}/red%20shoes%20{TOKEN}?utm_source=web"
    if draw < 88:
        return f"shop://m{k}/user{j}/alice{rng.randrange(10**5)}-{TOKEN}"
    if draw < 92:
        return f"shop://m{k}/files{j}/docs/{rng.randrange(2020, 2027)}/report-{TOKEN}.pdf"
    return f"shop://m{k}/gone{j}/{rng.randrange(1, 10**7)}?cid={TOKEN}"


def main():
    directory, urls_path = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 50_000
    write_config(directory)
    rng = random.Random(16)
    with open(urls_path, "w") as out:
        for _ in range(count):
            out.write(urllib.parse.quote(link(rng), safe="") + "\n")


if __name__ == "__main__":
    main()
