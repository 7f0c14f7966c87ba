#!/usr/bin/python3
"""Hostile inputs against the layoutkit CLI and its conformance runner.

Each case runs `layoutkit ARGS...` under the bounds docs/testing.md lists:
at most 5 s of wall time, 500 MB of address space (RLIMIT_AS) and 10 MB of
output. A case names the exit status it must end with (1 for a refusal,
which must print "error" with a diagnostic on stderr) and, where there is
one, the exact answer or a phrase of the diagnostic.

Usage: run_hostile.py LAYOUTKIT_BINARY [--sanitized]

--sanitized (an AddressSanitizer build): no address-space limit, since
ASan reserves terabytes of address space for its shadow at start; the time
and output bounds and the answers are checked as always, and ASan reports
any memory error.
"""

import os
import resource
import subprocess
import sys
import tempfile
import time

TIME_S = 5.0
MEMORY = 500 * 1024 * 1024
OUTPUT = 10 * 1024 * 1024


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


TEMP_FILES = []


def conformance_file(lines):
    f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    f.write("\n".join(lines) + "\n")
    f.close()
    TEMP_FILES.append(f.name)
    return f.name


def cases():
    """(class, args, status, phrase or exact stdout)."""
    big_line = '{"op":"size","args":[' + ",".join(['"a"'] * 1000000) + '],"expect":1}'
    return [
        # Class 2: roundings that overflow (used to hang).
        ("hang", ["linear", "pad", "9223372036854775807:1"], 1,
         "integer overflow in the padded extent"),
        ("hang", ["linear", "pad", "4611686018427387905:1"], 1,
         "the power of two >= 4611686018427387905 is 2^63"),
        ("hang", ["linear", "pad", "6917529027641081856:1"], 1,
         "integer overflow in the padded extent"),
        # Class 3: work bounded by elements x replicas.
        ("replicas", ["tile", "show", "S[4:1] + R[1000000:1@warpid]", "4"], 1,
         "4000000 points (4 elements x 1000000 replicas)"),
        ("replicas", ["tile", "show", "S[(64,64):(64,1)] + R[1099511627776:1@warpid]",
                      "(64,64)"], 1, "kMaxTilePoints"),
        ("replicas", ["tile", "holds", "S[4:1] + R[4611686018427387904:1@warpid]",
                      "4", "m=1"], 1, "4611686018427387904 replicas, more than 4194304"),
        ("replicas", ["tile", "holds", "S[4:1] + R[1048576:1@warpid]",
                      "4", "m=1", "--all"], 0, "m=1 holds 1 element: (1)\n"),
        ("replicas", ["tile", "eval", "S[4:1] + R[1099511627776:1@warpid]", "4", "1"], 0,
         "more (--all lists"),
        ("replicas", ["tile", "owners", "S[4:1] + R[1099511627776:1@warpid]", "4", "1", "--all"], 0,
         "more (--all lists at most 65536)"),
        ("replicas", ["conformance", conformance_file([
            '{"op":"tile_eval","args":["S[4:1] + R[1000000000:1@warpid]",[4],1],"expect":[]}'])], 1,
         "kMaxTilePoints"),
        ("replicas", ["plan", "{register: [(1)], lane: [" +
                      ",".join(f"({1 << i})" for i in range(1, 40)) +
                      "]} -> {dim0: 1099511627776}",
                      "{register: [(2)], lane: [(1)," +
                      ",".join(f"({1 << i})" for i in range(2, 40)) +
                      "]} -> {dim0: 1099511627776}", "--dtype", "f16"], 1,
         "lanes per warp; plans are made for at most 64"),
        # Class 4: 64-bit edges (used to answer wrapped values).
        ("edges", ["swizzle", "3", "4", "-9223372036854775808", "1016"], 1,
         "swizzle parameters out of range"),
        ("edges", ["swizzle", "2", "1", "-9223372036854775807", "7"], 1,
         "swizzle parameters out of range"),
        ("edges", ["swizzle", "3", "5", "-3", "3622"], 0, "3878\n"),
        ("edges", ["linear", "properties", "{register: [(1)]} -> {dim0: 2}",
                   "--order", "(4294967295)"], 1, "--order entry 0 is 4294967295"),
        ("edges", ["conformance", conformance_file([
            '{"op":"size","args":[18446744073709551615],"expect":-1}'])], 1,
         "does not fit in 64 signed bits"),
        # Class 5: outputs too large.
        ("output", ["tile", "banks", "S[(1024,1024):(1024,1)]", "(1024,1024)",
                    "--dtype", "b1"], 1, "more than the limit of 65536"),
        # At the limits: drawn, and under 10 MB in every output form.
        ("output", ["show", "(256,256):(100000000000000@0,100000000000000@1)",
                    "--svg", "-"], 0, "<svg"),
        ("output", ["show", "(256,256):(100000000000000@0,100000000000000@3)"], 1,
         "at most 131072 values"),
        ("output", ["tile", "banks", "S[(256,256):(256,1)]", "(256,256)",
                    "--dtype", "b1", "--svg", "-"], 0, "<svg"),
        ("output", ["tile", "show", "S[(16,16):(16,1)] + R[256:1000000000000@warpid]",
                    "(16,16)", "--json"], 0, "warpid"),
        ("output", ["conformance", conformance_file([big_line])], 1,
         "a case has at most 1048576"),
    ]


def main():
    binary = sys.argv[1]
    sanitized = "--sanitized" in sys.argv[2:]
    failures = 0
    for cls, args, status, want in cases():
        start = time.monotonic()
        try:
            p = subprocess.run([binary] + args, capture_output=True,
                               timeout=TIME_S, preexec_fn=None if sanitized else limit)
        except subprocess.TimeoutExpired:
            print(f"FAIL [{cls}] {args[:3]}: ran past {TIME_S} s")
            failures += 1
            continue
        took = time.monotonic() - start
        out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
        problems = []
        if p.returncode != status:
            problems.append(f"exit {p.returncode}, expected {status}")
        if len(p.stdout) + len(p.stderr) > OUTPUT:
            problems.append(f"{len(p.stdout) + len(p.stderr)} bytes of output")
        if p.returncode < 0:
            problems.append(f"killed by signal {-p.returncode}")
        if status != 0 and "error" not in err and "FAIL " not in err:
            problems.append("no diagnostic on stderr")
        if want is not None:
            if want.endswith("\n"):
                if out != want:
                    problems.append(f"stdout {out!r}, expected {want!r}")
            elif want not in out + err:
                problems.append(f"no {want!r} in the output")
        short = " ".join(a if len(a) < 60 else a[:57] + "..." for a in args)
        if problems:
            failures += 1
            print(f"FAIL [{cls}] {short}: {'; '.join(problems)}\n  {err[:300]}")
        else:
            print(f"ok   [{cls}] {short} ({took:.2f} s)")
    for name in TEMP_FILES:
        os.unlink(name)
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
