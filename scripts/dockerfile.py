#!/usr/bin/env python3
"""Reads a Dockerfile into its stages, for scripts/container-replay.sh.

Prints one line per fact, tab-separated, so that a shell script can read them without a JSON
tool:

    stage   INDEX NAME BASE
    INSTR   INDEX KEYWORD ARGUMENTS...

Continuation lines are joined, comments dropped; JSON-form arguments (`["a", "b"]`) are
printed one argument per field, and so are the `NAME=value` pairs of ENV, ARG and LABEL. Only
what the replay needs is understood: FROM, RUN, COPY, WORKDIR, USER, VOLUME, EXPOSE,
HEALTHCHECK, ENTRYPOINT, CMD, ENV, ARG and LABEL; anything else stops it, so that a new
instruction cannot be silently skipped.
"""

import json
import shlex
import sys

KNOWN = {
    "FROM", "RUN", "COPY", "WORKDIR", "USER", "VOLUME", "EXPOSE", "HEALTHCHECK", "ENTRYPOINT", "CMD", "ENV", "ARG", "LABEL",
}


def instructions(text):
    logical = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not logical and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            logical += line[:-1] + " "
            continue
        logical += line
        keyword, _, rest = logical.partition(" ")
        yield keyword.upper(), rest.strip()
        logical = ""


def arguments(rest):
    if rest.startswith("["):
        return json.loads(rest)
    return [rest]


def main(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    index = -1
    for keyword, rest in instructions(text):
        if keyword not in KNOWN:
            sys.exit(f"dockerfile.py: {keyword} is not understood by the replay; teach scripts/container-replay.sh")
        if keyword == "FROM":
            index += 1
            words = rest.split()
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else str(index)
            print("\t".join(["stage", str(index), name, words[0]]))
            continue
        if keyword in ("COPY", "VOLUME", "EXPOSE", "ENV", "ARG", "LABEL"):
            fields = arguments(rest) if rest.startswith("[") else shlex.split(rest)
        elif keyword in ("ENTRYPOINT", "CMD"):
            fields = arguments(rest)
        elif keyword == "HEALTHCHECK":
            # The options, then the command as one field: shell words, quoted, from either form.
            options, _, command = rest.partition("CMD ")
            words = arguments(command) if command.startswith("[") else [command]
            fields = options.split() + [" ".join(shlex.quote(word) for word in words) if command.startswith("[") else command]
        else:
            fields = [rest]
        print("\t".join([keyword, str(index)] + fields))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "Dockerfile")
