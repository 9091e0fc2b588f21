#!/usr/bin/env bash
# Replays the Dockerfile without a Docker engine, as closely as this machine allows, and checks
# that the image it describes serves. Everything it does is read from the Dockerfile
# (scripts/dockerfile.py), so the two cannot drift apart:
#
#  1. build stage: the files its COPY lines name (symlinks kept, as COPY keeps them) go into an
#     empty folder, and its non-apt RUN lines run there (`swift package resolve`, then
#     `swift build -c release --static-swift-stdlib`) with REVISION set as `--build-arg
#     REVISION=$(git rev-parse HEAD)` would; the apt packages it installs must be installed here;
#  2. runtime stage: a Debian root made by `debootstrap --variant=minbase` of the FROM image's
#     release, then the stage's RUN lines run in it with chroot (apt-get install of exactly its
#     packages, the user, the folders); this root is cached between runs under
#     $SWITCHBOARD_ROOTFS_CACHE (default /var/cache/switchboard-ci), keyed by the FROM line and
#     the RUN lines, like an image layer;
#  3. the stage's COPY lines, then ENTRYPOINT and CMD as USER (which must be numeric: Kubernetes'
#     runAsNonRoot needs it) in WORKDIR with its ENV, chrooted, in a network namespace of its own
#     so the EXPOSEd port cannot clash; the checks: HEALTHCHECK's command inside the root (with
#     the image's ENV), `--version` naming the revision, /livez, /readyz, /resolve, an admin
#     write that lands in the data VOLUME, SIGTERM exits 0.
#
# Needs root (debootstrap, chroot, unshare). Usage: scripts/container-replay.sh [rootfs]
# (`rootfs` only makes or finds the cached root and prints its path).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${SWITCHBOARD_ROOTFS_CACHE:-/var/cache/switchboard-ci}
mirror=${SWITCHBOARD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
started=$SECONDS
say() { echo "container-replay: $* ($((SECONDS - started)) s)" >&2; }
fail() { echo "container-replay: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, unshare)"

facts=$(python3 scripts/dockerfile.py Dockerfile)
# field N of the facts with keyword $1 in stage $2
fact() { awk -F'\t' -v k="$1" -v s="$2" '$1 == k && $2 == s' <<<"$facts"; }
build_stage=0  # the first stage builds; the last one is the image
runtime_stage=$(awk -F'\t' '$1 == "stage" {last = $2} END {print last}' <<<"$facts")
runtime_base=$(awk -F'\t' -v s="$runtime_stage" '$1 == "stage" && $2 == s {print $4}' <<<"$facts")
case "$runtime_base" in
  debian:bookworm*) suite=bookworm ;;
  *) fail "the runtime stage's base '$runtime_base' is not a Debian bookworm image; teach this script" ;;
esac

# --- 2. the runtime root, cached by what makes it ---------------------------------------------
runtime_runs=$(fact RUN "$runtime_stage" | cut -f3-)
key=$(printf '%s\n%s\n' "$runtime_base" "$runtime_runs" | sha256sum | cut -c1-16)
rootfs="$cache/rootfs-$suite-$key"
make_rootfs() {
  mkdir -p "$cache"
  local fresh="$cache/.building-$key-$$"
  rm -rf "$fresh"
  say "no cached root for key $key: debootstrap --variant=minbase $suite (a few minutes)"
  debootstrap --variant=minbase "$suite" "$fresh" "$mirror" >"$cache/debootstrap-$key.log" 2>&1 \
    || { tail -20 "$cache/debootstrap-$key.log" >&2; fail "debootstrap"; }
  cp /etc/resolv.conf "$fresh/etc/resolv.conf"
  mount -t proc proc "$fresh/proc"
  local status=0
  while IFS= read -r command; do
    say "RUN in the root: ${command:0:100}…"
    chroot "$fresh" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      DEBIAN_FRONTEND=noninteractive /bin/sh -c "$command" >>"$cache/debootstrap-$key.log" 2>&1 || status=$?
    [ "$status" -eq 0 ] || break
  done <<<"$runtime_runs"
  umount "$fresh/proc"
  [ "$status" -eq 0 ] || { tail -20 "$cache/debootstrap-$key.log" >&2; rm -rf "$fresh"; fail "a RUN line of the runtime stage"; }
  rm -rf "$rootfs"
  mv "$fresh" "$rootfs"
  say "cached the runtime root at $rootfs ($(du -sh "$rootfs" | cut -f1))"
}
[ -d "$rootfs" ] || make_rootfs
if [ "${1:-}" = rootfs ]; then
  echo "$rootfs"
  exit 0
fi

# COPY as Docker does it: a folder's contents go into the destination folder; a file goes into
# a destination ending in / (or an existing folder), else becomes it. Symlinks stay symlinks.
docker_copy() { # source destination-path
  local source=$1 destination=$2
  if [ -d "$source" ] && [ ! -L "$source" ]; then
    mkdir -p "$destination"
    cp -a "$source/." "$destination/"
  elif [[ "$destination" == */ ]] || [ -d "$destination" ]; then
    mkdir -p "$destination"
    cp -a "$source" "$destination/"
  else
    mkdir -p "$(dirname "$destination")"
    cp -a "$source" "$destination"
  fi
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/switchboard-replay.XXXXXX")
server_pid=""
cleanup() {
  [ -z "$server_pid" ] || kill -9 "$server_pid" 2>/dev/null || true
  mountpoint -q "$scratch/root/proc" 2>/dev/null && umount "$scratch/root/proc"
  rm -rf "$scratch"
  # SwiftPM's lock files for the build folder, named after its path, in the temporary folder.
  rm -f "$(dirname "$scratch")/${scratch//\//_}"_*
}
trap cleanup EXIT

# --- 1. the build stage, in an empty folder -----------------------------------------------------
workdir=$(fact WORKDIR "$build_stage" | cut -f3 | tail -1)
workdir=${workdir:-/}
context="$scratch/build$workdir"
mkdir -p "$context"
while IFS=$'\t' read -r _ _ source destination; do
  say "COPY $source $destination"
  [ -e "$source" ] || [ -L "$source" ] || fail "COPY $source: not in the repository"
  docker_copy "$source" "$context/$destination"
done < <(fact COPY "$build_stage")
out="$scratch/out"
# The build argument REVISION, as `docker build --build-arg REVISION=$(git rev-parse HEAD)` gives it.
revision=${REVISION:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
while IFS=$'\t' read -r _ _ command; do
  case "$command" in
    apt-get*)
      packages=$(grep -o 'install -y --no-install-recommends [^&]*' <<<"$command" | cut -d' ' -f4-)
      for package in $packages; do
        dpkg -s "$package" >/dev/null 2>&1 || fail "the build stage installs $package; scripts/install-deps.sh should too"
      done
      ;;
    *)
      say "RUN in the build folder: $command"
      # The stage's output folder (/out) becomes one of the scratch folder's.
      (cd "$context" && REVISION="$revision" /bin/sh -c "${command//\/out\//$out/}") >>"$scratch/build.log" 2>&1 \
        || { tail -30 "$scratch/build.log" >&2; fail "the build stage's RUN line"; }
      if grep -E "ignoring broken symlink|Invalid Resource|warning: .*(not found|does not exist)" "$scratch/build.log" >&2; then
        fail "the build stage's build warns about missing files"
      fi
      ;;
  esac
done < <(fact RUN "$build_stage")

# --- 3. the image: the root, its COPY lines, its ENTRYPOINT as its USER ---------------------------
say "copying the cached root"
root="$scratch/root"
cp -a "$rootfs" "$root"
while IFS=$'\t' read -r _ _ first second third; do
  if [[ "$first" == --from=* ]]; then
    source="$out/${second#/out/}" destination=$third
  else
    source=$first destination=$second
  fi
  say "COPY $first $second $third"
  docker_copy "$source" "$root$destination"
done < <(fact COPY "$runtime_stage")
user=$(fact USER "$runtime_stage" | cut -f3 | tail -1)
[[ "$user" =~ ^[0-9]+(:[0-9]+)?$ ]] || fail "USER '$user' is not numeric: Kubernetes refuses it with runAsNonRoot"
[ "${user%%:*}" != 0 ] || fail "USER is root"
image_workdir=$(fact WORKDIR "$runtime_stage" | cut -f3 | tail -1)
port=$(fact EXPOSE "$runtime_stage" | cut -f3 | tail -1)
mapfile -t entrypoint < <(fact ENTRYPOINT "$runtime_stage" | cut -f3- | tr '\t' '\n')
mapfile -t cmd < <(fact CMD "$runtime_stage" | cut -f3- | tr '\t' '\n')
mapfile -t image_env < <(fact ENV "$runtime_stage" | cut -f3- | tr '\t' '\n')
healthcheck=$(fact HEALTHCHECK "$runtime_stage" | awk -F'\t' '{print $NF}')
[[ "$(fact HEALTHCHECK "$runtime_stage")" == *--start-period=* ]] || fail "the HEALTHCHECK has no --start-period"
data_volume=$(fact VOLUME "$runtime_stage" | cut -f3- | tr '\t' '\n' | grep '/data$' || true)
[ -n "$data_volume" ] || fail "no data VOLUME"
ownership=$(stat -c %u:%g "$root$data_volume")
[ "$ownership" = "${user%%:*}:${user#*:}" ] || fail "the data volume $data_volume is owned by $ownership, not USER $user"
printf -v entry '%q ' "${entrypoint[@]}" "${cmd[@]}"
printf -v health '%q' "$healthcheck"
printf -v variables '%q ' "${image_env[@]}"

say "serving in the root as $user, in a network namespace of its own"
cat >"$scratch/inside.sh" <<EOF
set -euo pipefail
ip link set lo up
mount -t proc proc "$root/proc"
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/srv/switchboard $variables \
  SWITCHBOARD_ADMIN_TOKEN=replay-token-0123456789abcdef0123 \
  chroot --userspec=$user "$root" /bin/sh -c "cd $image_workdir && exec $entry" >"$scratch/server.log" 2>&1 &
server=\$!
base="http://127.0.0.1:$port"
for _ in \$(seq 1 150); do curl -fsS "\$base/livez" >/dev/null 2>&1 && break; sleep 0.1; done
check() { # name expected-status curl-arguments...
  local name=\$1 expected=\$2; shift 2
  local status
  status=\$(curl -s -o "$scratch/body" -w '%{http_code}' "\$@")
  if [ "\$status" != "\$expected" ]; then
    echo "container-replay: FAILED: \$name answered \$status, not \$expected: \$(head -c 400 "$scratch/body")" >&2
    kill -9 \$server; cat "$scratch/server.log" >&2; exit 1
  fi
  echo "container-replay: \$name -> \$status \$(head -c 120 "$scratch/body")" >&2
}
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin $variables \
  chroot --userspec=$user "$root" /bin/sh -c $health >/dev/null \
  || { echo "container-replay: FAILED: the HEALTHCHECK command" >&2; cat "$scratch/server.log" >&2; exit 1; }
version=\$(chroot --userspec=$user "$root" /usr/local/bin/switchboard --version)
case "\$version" in
  *"(revision $revision)") echo "container-replay: switchboard --version -> \$version" >&2 ;;
  *) echo "container-replay: FAILED: --version '\$version' does not name the revision $revision" >&2; exit 1 ;;
esac
check /healthz 200 "\$base/healthz"
check /livez 200 "\$base/livez"
check /readyz 200 "\$base/readyz"
check /resolve 200 "\$base/resolve?url=shopapp%3A%2F%2Fproduct%2F42"
check 'POST /admin/rules' 201 -X POST -H 'Authorization: Bearer replay-token-0123456789abcdef0123' \
  -d '{"id":"replay","match":"^shopapp://replay\$","target":"shopapp://product/1"}' "\$base/admin/rules"
check 'the pushed rule' 200 "\$base/resolve?url=shopapp%3A%2F%2Freplay"
check /metrics 200 "\$base/metrics"
kill -TERM \$server
status=0; wait \$server || status=\$?
umount "$root/proc"
[ \$status -eq 0 ] || { echo "container-replay: FAILED: SIGTERM exit status \$status" >&2; cat "$scratch/server.log" >&2; exit 1; }
EOF
unshare --net /bin/bash "$scratch/inside.sh"
state="$root$data_volume/state.json"
[ -f "$state" ] || fail "the admin write left no $data_volume/state.json"
[ "$(stat -c %u "$state")" = "${user%%:*}" ] || fail "state.json is owned by $(stat -c %u "$state")"
say "passed: the image's build stage builds, and its runtime stage serves as $user"
