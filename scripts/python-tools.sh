#!/usr/bin/env bash
# Makes (once) the virtual environment of the Python tools the tests use, from the pinned
# scripts/python/requirements.txt, and prints its python. It lives under .build/, which is
# never committed; a changed requirements file makes it again.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/python-tools
stamp="$venv/requirements.sha256"
want=$(sha256sum scripts/python/requirements.txt | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "python-tools: installing scripts/python/requirements.txt into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/python/requirements.txt >&2
  echo "$want" >"$stamp"
fi
echo "$(pwd)/$venv/bin/python"
