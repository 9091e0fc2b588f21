#!/usr/bin/env bash
# A bounded flood against a local `switchboard serve`: idle connections plus slow clients,
# while probes measure whether /healthz and /resolve are still answered and how fast.
#
#   scripts/loadtest/flood.sh [BINARY]        (default .build/release/switchboard)
#   ADMIN_PORT=18482 IDLE=2000 scripts/loadtest/flood.sh   (BENCHMARKS.md "Probes during a flood")
#
# With SUSTAIN=1 every connection the server closes is opened again at once (idle ones as idle,
# slow ones as slow), so the flood lasts the whole DURATION instead of ending when the server
# has timed its first clients out.
# With ADMIN_PORT the server also has an admin listener there (admin_listen, on a copy of
# config/): the flood goes to the public port only, and /healthz and /readyz are probed on the
# admin port as well, where an orchestrator's probes and Prometheus go.
# Loopback only; at most IDLE + SLOW connections; stops by itself after DURATION seconds
# (and kills the server it started). Prints one summary line per probe path.
set -euo pipefail

BINARY=${1:-.build/release/switchboard}
PORT=${PORT:-18481}
IDLE=${IDLE:-1100}        # idle connections (over the default max_connections of 1,024)
SLOW=${SLOW:-200}         # clients sending one header byte per second
DURATION=${DURATION:-20}  # seconds of probing
[ "$IDLE" -le 4000 ] && [ "$SLOW" -le 1000 ] && [ "$DURATION" -le 120 ] || { echo "bounds exceeded" >&2; exit 2; }

ADMIN_PORT=${ADMIN_PORT:-}  # empty: one listener, as configured in config/
SUSTAIN=${SUSTAIN:-0}       # 1: reopen what the server closes

ulimit -n 8192 2>/dev/null || true
work=$(mktemp -d)
config=config
if [ -n "$ADMIN_PORT" ]; then
    config=$work/config
    cp -R config "$config"
    printf '\nadmin_listen: "127.0.0.1:%s"\n' "$ADMIN_PORT" >>"$config/switchboard.yaml"
fi
"$BINARY" serve --config "$config" --listen "127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break
    sleep 0.1
done

python3 - "$PORT" "$IDLE" "$SLOW" "$DURATION" "${ADMIN_PORT:-0}" "$SUSTAIN" <<'EOF'
import selectors, socket, sys, threading, time

port, idle, slow, duration, admin_port, sustain = (int(a) for a in sys.argv[1:7])
stop = time.monotonic() + duration
held = []

def connect(to=port):
    s = socket.socket()
    s.settimeout(2)
    s.connect(("127.0.0.1", to))
    return s

for _ in range(idle):
    try:
        held.append(connect())
    except OSError:
        break
opened_idle = len(held)

# SUSTAIN: one thread watches the idle connections and opens a new one for each the server closes.
reopened = [0]
def keep_idle():
    selector = selectors.DefaultSelector()
    for s in held:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
    missing = 0
    while time.monotonic() < stop:
        for key, _ in selector.select(timeout=0.1):
            s = key.fileobj
            try:
                if s.recv(4096):
                    continue  # an answer (a 503): the close follows
            except BlockingIOError:
                continue
            except OSError:
                pass
            selector.unregister(s)
            s.close()
            missing += 1
        for _ in range(min(missing, 64)):
            try:
                s = connect()
            except OSError:
                break
            s.setblocking(False)
            selector.register(s, selectors.EVENT_READ)
            held.append(s)
            missing -= 1
            reopened[0] += 1
if sustain:
    threading.Thread(target=keep_idle, daemon=True).start()

slow_closed = [0]
def trickle():
    while True:
        try:
            s = connect()
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            while time.monotonic() < stop:
                s.sendall(b"X")
                time.sleep(1)
            return
        except OSError:
            slow_closed[0] += 1
            if not sustain or time.monotonic() >= stop:
                return
threads = [threading.Thread(target=trickle, daemon=True) for _ in range(slow)]
for t in threads:
    t.start()

def probe(target):
    to, path = target
    start = time.monotonic()
    try:
        s = connect(to)
        s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode())
        data = b""
        while not data.endswith(b"}") and len(data) < 65536:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.") else 0
    except (OSError, ValueError, IndexError):
        status = 0
    return status, time.monotonic() - start

targets = [(port, "/healthz"), (port, "/resolve?url=shopapp://product/1")]
if admin_port:
    targets += [(admin_port, "/healthz"), (admin_port, "/readyz")]
results = {target: [] for target in targets}
time.sleep(1)

# One prober per target, so that a slow answer on one listener never thins the other's samples.
def prober(target):
    while time.monotonic() < stop:
        results[target].append(probe(target))
        time.sleep(0.1)
probers = [threading.Thread(target=prober, args=(target,)) for target in targets]
for t in probers:
    t.start()
for t in probers:
    t.join()
for t in threads:
    t.join(timeout=3)

print("idle connections opened: %d (reopened after a close: %d); slow clients closed by the server: %d (%d clients)"
      % (opened_idle, reopened[0], slow_closed[0], slow))
for (to, path), rows in results.items():
    statuses = {}
    for status, _ in rows:
        statuses[status] = statuses.get(status, 0) + 1
    answered = sorted(t for s, t in rows if s)
    p50 = answered[len(answered) // 2] * 1000 if answered else float("nan")
    p99 = answered[min(len(answered) - 1, int(len(answered) * 0.99))] * 1000 if answered else float("nan")
    listener = "admin" if to == admin_port else "public"
    print("%-6s %-36s probes %3d  statuses %s  answered p50 %.1f ms  p99 %.1f ms" % (listener, path, len(rows), statuses, p50, p99))
for s in held:
    s.close()
EOF
