#!/usr/bin/env bash
# Installs what building and serving Switchboard needs (Debian/Ubuntu), if missing: pkg-config and the
# C libraries the package links (PCRE2, libmicrohttpd and GnuTLS, its TLS library, libpq, libqrencode and zlib, for QR codes) with their
# headers, libcurl's (which Foundation's URLSession, the client of `switchboard admin`, links: a static
# build needs its development package), and curl.
# The test toolchain (PostgreSQL, kotlinc, debootstrap, Chromium) is scripts/install-test-deps.sh,
# which scripts/test.sh runs. Idempotent; uses sudo when not root.
#
# Usage: scripts/install-deps.sh [EXTRA_PACKAGE ...]
set -euo pipefail
packages=(pkg-config libpcre2-dev libmicrohttpd-dev libgnutls28-dev libpq-dev libqrencode-dev zlib1g-dev libcurl4-openssl-dev curl "$@")
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
