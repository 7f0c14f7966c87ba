#!/usr/bin/env python3
"""Checks that the ```console transcripts of the documentation are real.

Every line `$ COMMAND` of a ```console block is run with bash from the
repository root, with the built `layoutkit` first on PATH, and what it
prints (stderr first, then stdout, then `[exit N]` for a non-zero status,
the convention of docs/cli.md) must equal the lines that follow it.
A command starting with `build/` runs the file of that name in the build
directory, and is skipped when that file was not built.

  check_console_examples.py --root SRC --build BUILD FILE.md...
"""

import argparse
import os
import re
import subprocess
import sys


def transcripts(text):
    """Yields (command, expected lines) for each `$ ` line of each block."""
    for block in re.findall(r"^([ \t]*)```console\n(.*?)^[ \t]*```", text, re.S | re.M):
        indent, body = block
        command, expected = None, []
        for line in body.split("\n"):
            if line.startswith(indent):
                line = line[len(indent):]
            if line.startswith("$ "):
                if command is not None:
                    yield command, expected
                command, expected = line[2:], []
            elif command is not None:
                expected.append(line)
        if command is not None:
            yield command, expected


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

    env = dict(os.environ)
    env["PATH"] = os.path.join(args.build, "tools") + os.pathsep + env.get("PATH", "")
    failures = total = 0
    for name in args.files:
        with open(os.path.join(args.root, name), encoding="utf-8") as f:
            text = f.read()
        for command, expected in transcripts(text):
            while expected and expected[-1] == "":
                expected.pop()
            if command.startswith("build/"):
                exe = os.path.join(args.build, command.split()[0][len("build/"):])
                if not os.path.exists(exe):
                    continue
                command = exe + command[len(command.split()[0]):]
            run = subprocess.run(["bash", "-c", command], cwd=args.root, env=env,
                                 capture_output=True, text=True, timeout=120)
            got = (run.stderr + run.stdout).rstrip("\n").split("\n")
            if run.returncode != 0:
                got.append("[exit %d]" % run.returncode)
            total += 1
            if got != expected:
                failures += 1
                print("%s: `%s` prints:\n%s\n--- the documentation shows:\n%s\n"
                      % (name, command, "\n".join(got), "\n".join(expected)))
    print("%d commands, %d differ" % (total, failures))
    return 1 if failures or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
