#!/usr/bin/env bash
# Validates openapi.yaml with openapi-spec-validator (pinned in scripts/python/requirements.txt),
# and refuses a YAML key given twice. Exit 1 with every problem listed.
set -euo pipefail
cd "$(dirname "$0")/.."
python=$(scripts/python-tools.sh)
"$python" scripts/python/check_openapi.py "${1:-openapi.yaml}"
