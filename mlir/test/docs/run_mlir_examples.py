#!/usr/bin/env python3
"""Runs the ```mlir blocks of a Markdown file through layoutkit-opt.

Each block is written to a file and run with `--verify-diagnostics` (so a
block that shows an error must say so with `expected-error`), plus the
arguments of a first line `// layoutkit-opt: ARGS`. A block without
expected diagnostics must also print IR that parses again. Exits 1 and
names the failing blocks (by their first line in the Markdown file).
"""
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def blocks(text):
    """(first line number, body) of every ```mlir block."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```mlir":
            start = i + 2
            body = []
            i += 1
            while lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            yield start, "\n".join(body) + "\n"
        i += 1


def run(opt, path, args):
    return subprocess.run([opt, str(path), "--verify-diagnostics"] + args,
                          capture_output=True, text=True)


def main():
    opt, markdown = sys.argv[1], Path(sys.argv[2])
    failures = 0
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for line, body in blocks(markdown.read_text()):
            count += 1
            m = re.match(r"// layoutkit-opt: (.*)", body)
            args = shlex.split(m.group(1)) if m else []
            path = Path(tmp) / f"block{line}.mlir"
            path.write_text(body)
            r = run(opt, path, args)
            ok = r.returncode == 0
            if ok and "expected-" not in body:
                again = Path(tmp) / f"block{line}.out.mlir"
                again.write_text(r.stdout)
                r = run(opt, again, [])
                ok = r.returncode == 0
            if not ok:
                failures += 1
                print(f"{markdown}:{line}: block fails:\n{r.stderr}")
    print(f"{count} mlir blocks, {failures} failing")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
