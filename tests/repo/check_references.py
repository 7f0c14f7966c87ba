#!/usr/bin/env python3
"""Fails when a file of the repository refers to a document outside it.

The repository documents itself: the architecture and the decisions are in
docs/design.md, the hardware facts and their sources in docs/hardware.md.
Every tracked file (git ls-files; without git, every file outside build
directories) is searched for references that only make sense outside it:

  * the upper-case design document name with `.md` (the lower-case path
    docs/design.md is fine),
  * the old name of the hardware fact sheet (`hw` + `-facts`),
  * `issue #<number>` in any case,
  * a relative path into a `shared` directory beside the repository.

Each hit is printed as `path:line: [what] text`; the exit status is 1 when
there is one. --self-test checks the checker on files it writes itself.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# Spelled in pieces so that this file does not match itself.
PATTERNS = [
    ("design document outside the repository", re.compile("DESIGN" + r"\.md")),
    ("hardware fact sheet outside the repository", re.compile("hw" + "-facts")),
    ("issue number", re.compile("issue" + r" #[0-9]", re.IGNORECASE)),
    ("path outside the repository", re.compile(r"\.\./" + "shared")),
]
SKIP_DIRS = {".git", "__pycache__"}
MAX_SHOWN = 10  # hits printed per file; the rest are counted


def list_files(root):
    """Tracked files when root is a git checkout, else every file outside
    .git and build*/ directories."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                             capture_output=True, check=True)
        files = [f for f in out.stdout.decode().split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs
                   if x not in SKIP_DIRS and not x.startswith("build")]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return sorted(files)


def hits_in(root, path):
    """(line number, what, line) for every reference in one file."""
    try:
        with open(os.path.join(root, path), "rb") as f:
            data = f.read()
    except OSError:  # a tracked file deleted in the work tree
        return []
    if b"\0" in data:  # binary
        return []
    found = []
    text = data.decode("utf-8", errors="replace")
    for n, line in enumerate(text.splitlines(), 1):
        for what, pattern in PATTERNS:
            if pattern.search(line):
                found.append((n, what, line.strip()))
    return found


def check(root):
    total = 0
    files_hit = set()
    for path in list_files(root):
        hits = hits_in(root, path)
        for n, what, line in hits[:MAX_SHOWN]:
            if len(line) > 160:
                line = line[:157] + "..."
            print(f"{path}:{n}: [{what}] {line}")
        if len(hits) > MAX_SHOWN:
            print(f"{path}: ... and {len(hits) - MAX_SHOWN} more")
        total += len(hits)
        if hits:
            files_hit.add(path)
    if total:
        print(f"{total} reference(s) to documents outside the repository "
              f"in {len(files_hit)} file(s); say docs/design.md or "
              f"docs/hardware.md, or what the issue was about")
        return 1
    print("no reference to a document outside the repository")
    return 0


def self_test():
    """The checker finds each pattern once, ignores the allowed spellings,
    binary files and build directories."""
    files = {
        "a.md": "see " + "DESIGN" + ".md §4\nsee docs/design.md §4\n",
        "b.h": "/// " + "hw" + "-facts §1.3\n/// docs/hardware.md §1.3\n",
        "c.cpp": "// fixes " + "Issue" + " #12\n// the issue list\n",
        "d.txt": "copied from ../" + "shared/oracles\n",
        "e.bin": "\0" + "DESIGN" + ".md",
        "build-x/f.md": "DESIGN" + ".md",
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)),
                        exist_ok=True)
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        got = {(p, n) for p in list_files(root) for n, _, _ in hits_in(root, p)}
    want = {("a.md", 1), ("b.h", 1), ("c.cpp", 1), ("d.txt", 1)}
    if got != want:
        print(f"self-test failed: found {sorted(got)}, expected {sorted(want)}")
        return 1
    print("self-test passed")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".", help="repository root")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    return self_test() if args.self_test else check(args.root)


if __name__ == "__main__":
    sys.exit(main())
