"""Checks the documentation against the repository and a live server (scripts/check-docs.sh runs it).

1. Links: every relative link and image in the Markdown files given resolves to a file of the
   repository, and every `#anchor` to a heading of its page (GitHub's heading slugs).
2. Config snippets: a fenced block preceded by `<!-- check: DIR/FILE -->` is a whole config file.
   The snippets of one page that share DIR make one config directory; a DIR named `config` starts
   as a copy of the demo config (config/), any other DIR starts empty. Each directory must pass
   `switchboard check`.
3. Quick start: a `console` block preceded by `<!-- check: quick-start -->` holds commands
   (`$ curl …`, continued with a trailing backslash) each followed by the answer it shows: the
   status line, any header lines, then the JSON body, where `…` stands for members left out. Each
   command runs, in order, against a server started from a copy of config/ with the admin token
   `DEMO_TOKEN` (also set as `SWITCHBOARD_ADMIN_TOKEN` for the commands), and must give that status, those headers and those body members.

Usage: check_docs.py --root DIR --binary PATH [--no-server] FILE.md ...
Exit status 0 when everything holds, 1 with every failure listed otherwise.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FENCE = re.compile(r"^(```+|~~~+)")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+(?:\([^()\s]*\))?)(?:\s+\"[^\"]*\")?\)")
MARKER = re.compile(r"^<!--\s*check:\s*(\S+)\s*-->\s*$")


def blocks(lines):
    """Yields (index, line, in_fence) for each line, with fence lines counted as in a fence."""
    fence = None
    for index, line in enumerate(lines):
        match = FENCE.match(line.strip())
        if fence is None and match:
            fence = match.group(1)[0] * 3
            yield index, line, True
        elif fence is not None:
            yield index, line, True
            if line.strip().startswith(fence) and line.strip().strip(fence[0]) == "":
                fence = None
        else:
            yield index, line, False


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, seen = set(), {}
    for _, line, in_fence in blocks(path.read_text(encoding="utf-8").splitlines()):
        if in_fence:
            continue
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def check_links(root, pages):
    failures, cache = [], {}
    for page in pages:
        for number, line, in_fence in blocks(page.read_text(encoding="utf-8").splitlines()):
            if in_fence:
                continue
            text = re.sub(r"`[^`]*`", "", line)  # inline code is not a link
            for match in LINK.finditer(text):
                target = match.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                    continue
                path_part, _, anchor = target.partition("#")
                destination = (page.parent / path_part).resolve() if path_part else page.resolve()
                where = f"{page.relative_to(root)}:{number + 1}"
                if not destination.exists():
                    failures.append(f"{where}: link to {target}: {path_part} does not exist")
                    continue
                if root.resolve() not in destination.parents and destination != root.resolve():
                    failures.append(f"{where}: link to {target} leaves the repository")
                    continue
                if anchor and destination.suffix == ".md":
                    if destination not in cache:
                        cache[destination] = anchors(destination)
                    if anchor not in cache[destination]:
                        failures.append(f"{where}: link to {target}: no heading #{anchor} in {path_part or page.name}")
    return failures


def marked_blocks(page):
    """Yields (marker, line number, block text, info string) for each marked fenced block."""
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        marker = MARKER.match(lines[index].strip())
        if marker:
            start = index + 1
            while start < len(lines) and not lines[start].strip():
                start += 1
            opening = FENCE.match(lines[start].strip()) if start < len(lines) else None
            if not opening:
                yield marker.group(1), index + 1, None, None
                index += 1
                continue
            fence = opening.group(1)
            info = lines[start].strip()[len(fence):].strip()
            end = start + 1
            while end < len(lines) and lines[end].strip() != fence:
                end += 1
            yield marker.group(1), index + 1, "\n".join(lines[start + 1:end]) + "\n", info
            index = end
        index += 1


def check_snippets(root, binary, pages):
    failures, checked = [], 0
    for page in pages:
        directories = {}
        for marker, number, text, _ in marked_blocks(page):
            if marker == "quick-start":
                continue
            where = f"{page.relative_to(root)}:{number}"
            if text is None:
                failures.append(f"{where}: a check marker must stand right before a fenced block")
                continue
            directory, _, file = marker.partition("/")
            if not file:
                failures.append(f"{where}: name the file as DIR/FILE (config/rewrites.yaml, my-config/switchboard.yaml)")
                continue
            directories.setdefault(directory, []).append((file, text, where))
        for directory, files in directories.items():
            with tempfile.TemporaryDirectory(prefix="check-docs-") as scratch:
                config = Path(scratch) / directory
                if directory == "config":
                    shutil.copytree(root / "config", config)
                else:
                    config.mkdir(parents=True)
                for file, text, _ in files:
                    (config / file).parent.mkdir(parents=True, exist_ok=True)
                    (config / file).write_text(text, encoding="utf-8")
                run = subprocess.run([str(binary), "check", "--config", str(config)], capture_output=True, text=True)
                checked += 1
                if run.returncode != 0:
                    places = ", ".join(where for _, _, where in files)
                    failures.append(f"{places}: `switchboard check` of {directory}/ fails:\n{run.stdout}{run.stderr}")
    return failures, checked


def parse_console(text):
    """Splits a console block into (command, expected output lines) pairs."""
    steps, lines = [], text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.startswith("$ "):
            index += 1
            continue
        command = line[2:]
        while command.endswith("\\") and index + 1 < len(lines):
            index += 1
            command = command[:-1] + " " + lines[index].strip()
        index += 1
        expected = []
        while index < len(lines) and not lines[index].startswith("$ "):
            expected.append(lines[index])
            index += 1
        steps.append((command, expected))
    return steps


def elided_json(text):
    """Parses a body shown with `…` for members left out."""
    text = re.sub(r",\s*…", "", text)
    text = re.sub(r"…\s*,?", "", text)
    return json.loads(text)


def contains(actual, expected):
    """Whether `actual` has every member `expected` shows (objects by subset, the rest equal)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and contains(actual[k], v) for k, v in expected.items())
    return actual == expected


# The admin token of the quick-start server, and of the commands' $SWITCHBOARD_ADMIN_TOKEN.
DEMO_TOKEN = "docs-check-token-0123456789abcdef0123"


def start_server(root, binary, scratch):
    shutil.copytree(root / "config", scratch / "config")
    log = open(scratch / "server.log", "w")
    environment = dict(os.environ, SWITCHBOARD_ADMIN_TOKEN=DEMO_TOKEN, SWITCHBOARD_STORE="")
    server = subprocess.Popen(
        [str(binary), "serve", "--config", "config", "--listen", "127.0.0.1:0", "--drain-seconds", "0"],
        cwd=scratch, stdout=log, stderr=subprocess.STDOUT, env=environment)
    for _ in range(200):
        found = re.search(r"address=127\.0\.0\.1:(\d+)", (scratch / "server.log").read_text())
        if found:
            return server, f"http://127.0.0.1:{found.group(1)}"
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    raise SystemExit("check-docs: the demo server did not start:\n" + (scratch / "server.log").read_text())


def check_quick_start(root, binary, page):
    steps = []
    for marker, number, text, _ in marked_blocks(page):
        if marker == "quick-start" and text is not None:
            steps += [(number, command, expected) for command, expected in parse_console(text)]
    if not steps:
        return [f"{page.name}: no `<!-- check: quick-start -->` block"], 0
    failures = []
    with tempfile.TemporaryDirectory(prefix="check-docs-server-") as scratch:
        server, base = start_server(root, binary, Path(scratch))
        try:
            for number, command, expected in steps:
                where = f"{page.relative_to(root)}:{number}: {command[:70]}"
                if not command.startswith("curl ") or "http://127.0.0.1:8080" not in command:
                    failures.append(f"{where}: a quick-start command is a curl of http://127.0.0.1:8080")
                    continue
                run = subprocess.run(
                    ["bash", "-c", command.replace("http://127.0.0.1:8080", base)],
                    capture_output=True, timeout=30, env=dict(os.environ, SWITCHBOARD_ADMIN_TOKEN=DEMO_TOKEN))
                output = run.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
                head, _, body = output.partition("\n\n")
                head_lines = head.splitlines()
                status = head_lines[0].strip() if head_lines else ""
                headers = {}
                for line in head_lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                if not expected or not expected[0].startswith("HTTP/"):
                    failures.append(f"{where}: the answer shown must start with its status line")
                    continue
                if status != expected[0].strip():
                    failures.append(f"{where}: status {status!r}, the README shows {expected[0].strip()!r}")
                rest = expected[1:]
                while rest and re.match(r"^[A-Za-z-]+: ", rest[0]):
                    name, _, value = rest.pop(0).partition(":")
                    if headers.get(name.strip().lower()) != value.strip():
                        failures.append(f"{where}: header {name}: {headers.get(name.strip().lower())!r}, "
                                        f"the README shows {value.strip()!r}")
                shown = "\n".join(rest).strip()
                if shown:
                    try:
                        want = elided_json(shown)
                    except json.JSONDecodeError as error:
                        failures.append(f"{where}: the body shown does not read as JSON with … ({error})")
                        continue
                    try:
                        got = json.loads(body)
                    except json.JSONDecodeError:
                        failures.append(f"{where}: the answer is not JSON: {body[:200]!r}")
                        continue
                    if not contains(got, want):
                        failures.append(f"{where}: the answer {body.strip()} lacks what the README shows: {shown}")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    return failures, len(steps)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--no-server", action="store_true")
    parser.add_argument("pages", nargs="+")
    arguments = parser.parse_args()
    root = Path(arguments.root).resolve()
    pages = [Path(page).resolve() for page in arguments.pages]
    failures = check_links(root, pages)
    print(f"check-docs: links of {len(pages)} pages", file=sys.stderr)
    snippet_failures, directories = check_snippets(root, arguments.binary, pages)
    failures += snippet_failures
    print(f"check-docs: {directories} config directories from snippets", file=sys.stderr)
    if not arguments.no_server:
        readme = root / "README.md"
        quick_failures, commands = check_quick_start(root, arguments.binary, readme)
        failures += quick_failures
        print(f"check-docs: {commands} quick-start commands against the demo config", file=sys.stderr)
    for failure in failures:
        print(f"check-docs: {failure}", file=sys.stderr)
    if failures:
        print(f"check-docs: {len(failures)} failures", file=sys.stderr)
        return 1
    print("check-docs: ok", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
