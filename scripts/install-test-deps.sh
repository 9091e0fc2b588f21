#!/usr/bin/env bash
# Installs what scripts/test.sh needs beyond the build (Debian/Ubuntu), if missing, together with the
# build's own libraries (scripts/install-deps.sh). Idempotent; uses sudo when not root.
#
# - postgresql: the throwaway cluster the replica tests run against (scripts/pg-test-cluster.sh).
# - kotlin: kotlinc, which compiles the output of `codegen kotlin` in its test (about 90 MB to
#   download, 360 MB installed; it runs on the JDK that Debian's package depends on).
# - debootstrap: the Debian root of scripts/container-replay.sh.
# - chromium, chromium-driver: the headless browser the console's test drives (scripts/console-test.sh,
#   through Selenium).
# - valgrind: counts the instructions of a resolve for scripts/check-thresholds.sh.
# - zbar-tools: zbarimg, which decodes the QR codes of GET /qr in their test.
# - python3-venv: scripts/python-tools.sh, where python3 is Debian's own.
# - openssl: makes the throwaway certificates of the TLS tests (curl, which they use as the client, is
#   installed by scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
extra=(postgresql kotlin debootstrap chromium chromium-driver valgrind openssl zbar-tools)
python3 -c 'import venv, ensurepip' 2>/dev/null || extra+=(python3-venv)
exec scripts/install-deps.sh "${extra[@]}"
