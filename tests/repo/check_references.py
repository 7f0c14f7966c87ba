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
  * a relative path into a `shared` directory beside the repository,
  * outside docs/design.md, prose that sends the reader to the source
    documents themselves, by their short name, its possessive, a document
    number after it, or the long word (SPEC_PROSE). design.md names the
    five documents once and states what the rest of the tree needs from
    them (§6 for the worked examples). Code that names a variable after
    them (a member access, an identifier) is not prose and does not match.

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
# The short name with "the" (not a member access such as x.field or
# x->field), its possessive, the short name with a document number, the
# long word, the short name after a model's name, and the short name
# before a part of a document (table, example, formula, ...).
SPEC_PROSE = ("source documents cited instead of docs/design.md", re.compile(
    r"\bthe " + r"spec\b(?!\.\w|->)" + r"|\bspec" + r"'s\b"
    + r"|\bspecifi" + r"cations?\b" + r"|\bspecs? ?00[0-4]\b"
    + r"|\bthe (?:tile|cute|tirx|tileas) " + r"spec\b"
    + r"|\bspec" + r" (?:tables?|examples?|formulas?|text|order|messages?)\b",
    re.IGNORECASE))
# Where the source documents are named and their content stated.
SPEC_PROSE_HOME = {"docs/design.md"}
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


def hits_in(root, path, patterns=None):
    """(line number, what, line) for every reference in one file; patterns
    defaults to PATTERNS, plus SPEC_PROSE outside SPEC_PROSE_HOME."""
    try:
        with open(os.path.join(root, path), "rb") as f:
            data = f.read()
    except OSError:  # a tracked file deleted in the work tree
        return []
    if b"\0" in data:  # binary
        return []
    if patterns is None:
        patterns = PATTERNS + ([] if path in SPEC_PROSE_HOME
                               else [SPEC_PROSE])
    found = []
    text = data.decode("utf-8", errors="replace")
    for n, line in enumerate(text.splitlines(), 1):
        for what, pattern in patterns:
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
              f"docs/hardware.md (state what a source document says there), "
              f"or what the issue was about")
        return 1
    print("no reference to a document outside the repository")
    return 0


def self_test():
    """The checker finds each pattern once, ignores the allowed spellings,
    code that names a variable spec, docs/design.md for the
    source-document prose, binary files and build directories; the prose
    counts in every other folder (mlir/, docs/)."""
    files = {
        "a.md": "see " + "DESIGN" + ".md §4\nsee docs/design.md §4\n",
        "b.h": "/// " + "hw" + "-facts §1.3\n/// docs/hardware.md §1.3\n",
        "c.cpp": "// fixes " + "Issue" + " #12\n// the issue list\n",
        "d.txt": "copied from ../" + "shared/oracles\n",
        "g.md": "see docs/design.md §6.3\n" + "the sp" + "ec's bank example\n"
                + "sp" + "ec's column read\n",
        "h.cpp": ("// Tile" + "Spec spec; spec.swizzle, the sp" + "ec.major,"
                  + " the sp" + "ec->bits, specAddr(m)\n"
                  + "// as the SP" + "EC says\n"
                  + "/// Basis descriptors (sp" + "ec 002)\n"
                  + "// the specifi" + "cation's table\n"
                  + "// of the tile sp" + "ec.\n"
                  + "// TCol = 112a + c (sp" + "ec table).\n"
                  + "// the option sp" + "ecs of emitRequest\n"),
        "docs/design.md": "The specifi" + "cation comes as five documents\n",
        "mlir/x.mlir": "// The sp" + "ec's example\n",
        "docs/cli.md": "The sp" + "ec's example\n",
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
    want = {("a.md", 1), ("b.h", 1), ("c.cpp", 1), ("d.txt", 1),
            ("g.md", 2), ("g.md", 3), ("h.cpp", 2), ("h.cpp", 3),
            ("h.cpp", 4), ("h.cpp", 5), ("h.cpp", 6), ("mlir/x.mlir", 1),
            ("docs/cli.md", 1)}
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
