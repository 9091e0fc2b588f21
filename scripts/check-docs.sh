#!/usr/bin/env bash
# Checks the documentation (scripts/python/check_docs.py): every relative link and anchor of
# README.md, ARCHITECTURE.md, BENCHMARKS.md and docs/ resolves; every config snippet marked
# `<!-- check: DIR/FILE -->` passes `switchboard check`; every command of the README's quick start
# gives, against a server started from config/, the status, headers and fields the README shows.
# Usage: scripts/check-docs.sh [BINARY]   (default .build/debug/switchboard)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(realpath "${1:-.build/debug/switchboard}")
pages=(README.md ARCHITECTURE.md BENCHMARKS.md Benchmarks/routes/README.md)
while IFS= read -r page; do pages+=("$page"); done < <(find docs -name '*.md' | sort)
exec python3 scripts/python/check_docs.py --root . --binary "$binary" "${pages[@]}"
