#!/usr/bin/env bash
# Installs the system libraries Switchboard builds against (Debian/Ubuntu), if missing.
# Idempotent; uses sudo when not root.
set -euo pipefail
# postgresql: the throwaway cluster the replica tests run against (scripts/pg-test-cluster.sh).
# kotlin: kotlinc, which compiles the output of `codegen kotlin` in its test (about 90 MB to download, 360 MB
# installed, 20 s; it runs on the JDK that Debian's package depends on).
# debootstrap: the Debian root of scripts/container-replay.sh. python3-venv: scripts/python-tools.sh
# (where python3 is Debian's own). chromium, chromium-driver: the headless browser the console's test drives
# (scripts/console-test.sh, through Selenium).
packages=(pkg-config libpcre2-dev libmicrohttpd-dev libpq-dev postgresql curl kotlin debootstrap chromium chromium-driver)
python3 -c 'import venv, ensurepip' 2>/dev/null || packages+=(python3-venv)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "Installing: ${missing[*]}" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
