#!/usr/bin/python3
"""Hostile inputs against every front end, each under the same bounds.

Usage: run_hostile.py FRONT_END TARGET [--sanitized]

  cli     TARGET: the layoutkit binary (the CLI and `layoutkit conformance`)
  opt     TARGET: layoutkit-opt
  python  TARGET: the directory of the built layoutkit package
          (<build>/python/layoutkit; its parent goes on PYTHONPATH)
  server  TARGET: the layoutkit binary (`layoutkit demo`)

TARGET "none" (or a path that does not exist) means that front end is not
built: the run prints why and exits 77, which ctest reports as skipped.

Every case runs in a child process and must end within 5 s of wall time
with at most 500 MB of memory (RLIMIT_AS, and the child's peak resident
set from wait4; for layoutkit-opt, which reserves a 512 MiB stack for its
driver thread, the resident set alone) and 10 MB of output, with the exit status the case names:
1 for a refusal, with "error" and a diagnostic on stderr (for Python: a
LayoutError, TypeError or OverflowError), never a signal; where there is
one, the exact answer or a phrase of the diagnostic. The cases are in
cli_cases.py, opt_cases.py, python_cases.py and server_cases.py, grouped
by the classes of docs/testing.md.

--sanitized (an AddressSanitizer build): no address-space limit and no
resident-set bound, since ASan reserves terabytes of address space for its
shadow and keeps freed memory in quarantine; the time and output bounds
and the answers are checked as always, and ASan reports any memory error.
"""

import os
import resource
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

TIME_S = 5.0
MEMORY = 500 * 1024 * 1024
OUTPUT = 10 * 1024 * 1024
SKIP = 77


def limit(address_space):
    """In the child: the address-space bound (when asked), and a file-size
    bound that stops a runaway writer (SIGXFSZ) before it fills the disk."""
    if address_space:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_FSIZE, (2 * OUTPUT, 2 * OUTPUT))


def spawn(argv, env=None, sanitized=False, stdout=None, stderr=None,
          address_space=True):
    """Starts argv under the bounds; returns its pid."""
    pid = os.fork()
    if pid == 0:
        try:
            limit(address_space and not sanitized)
            fd = os.open(os.devnull, os.O_RDONLY)
            os.dup2(fd, 0)
            os.dup2(stdout.fileno(), 1)
            os.dup2(stderr.fileno(), 2)
            os.execve(argv[0], argv, env if env is not None else os.environ)
        finally:
            os._exit(127)
    return pid


def reap(pid, deadline):
    """Waits for pid until `deadline` (monotonic); kills it past that.
    Returns (status, rusage, timed_out); status < 0 for a signal."""
    timed_out = False
    while True:
        done, st, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            _, st, usage = os.wait4(pid, 0)
            break
        time.sleep(0.005)
    status = -os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st)
    return status, usage, timed_out


def read_capped(f):
    """The first OUTPUT + 1 bytes of a temporary output file, and its size."""
    f.flush()
    size = os.fstat(f.fileno()).st_size
    f.seek(0)
    return f.read(OUTPUT + 1), size


def run(argv, env=None, sanitized=False, timeout=TIME_S, address_space=True):
    """Runs argv under the bounds. Returns a dict: status, out, err (text),
    bytes (output size), seconds, rss (peak resident bytes), timed_out."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        pid = spawn(argv, env, sanitized, out, err, address_space)
        status, usage, timed_out = reap(pid, start + timeout)
        took = time.monotonic() - start
        o, osize = read_capped(out)
        e, esize = read_capped(err)
    return {"status": status, "out": o.decode(errors="replace"),
            "err": e.decode(errors="replace"), "bytes": osize + esize,
            "seconds": took, "rss": usage.ru_maxrss * 1024,
            "timed_out": timed_out}


def bound_problems(r, sanitized):
    """The bounds every case shares."""
    problems = []
    if r["timed_out"]:
        problems.append(f"ran past {TIME_S} s")
    elif r["seconds"] > TIME_S:
        problems.append(f"took {r['seconds']:.1f} s (over {TIME_S} s)")
    if r["bytes"] > OUTPUT:
        problems.append(f"{r['bytes']} bytes of output")
    if not sanitized and r["rss"] > MEMORY:
        problems.append(f"{r['rss'] >> 20} MB resident")
    if r["status"] < 0 and not r["timed_out"]:
        problems.append(f"killed by signal {-r['status']}")
    return problems


def check(r, status, want, sanitized):
    """The problems of one finished case against its expectation: exit
    `status`, and `want` (exact stdout when it ends with a newline, else a
    phrase of stdout + stderr; None: no answer to compare)."""
    problems = bound_problems(r, sanitized)
    out, err = r["out"], r["err"]
    if not r["timed_out"] and r["status"] != status:
        problems.append(f"exit {r['status']}, expected {status}")
    if status != 0 and "error" not in err and "FAIL " not in err:
        problems.append("no diagnostic on stderr")
    if want is not None:
        if want.endswith("\n"):
            if out != want:
                problems.append(f"stdout {out[:200]!r}, expected {want!r}")
        elif want not in out + err:
            problems.append(f"no {want!r} in the output")
    return problems


def short(args):
    return " ".join(a if len(a) < 60 else a[:57] + "..." for a in args)


def report(cls, label, problems, r):
    if problems:
        detail = r["err"][:300] if r else ""
        print(f"FAIL [{cls}] {label}: {'; '.join(problems)}\n  {detail}")
        return 1
    took = f" ({r['seconds']:.2f} s, {r['rss'] >> 20} MB)" if r else ""
    print(f"ok   [{cls}] {label}{took}")
    return 0


def run_process_cases(cases, sanitized, env=None, address_space=True):
    """cases: (class, argv, status, want[, label]). Returns the failures.
    address_space=False: memory is bounded by the peak resident set alone
    (for a program that reserves a large stack it does not touch)."""
    failures = 0
    for case in cases:
        cls, argv, status, want = case[:4]
        label = case[4] if len(case) > 4 else short(argv[1:])
        r = run(argv, env, sanitized, address_space=address_space)
        failures += report(cls, label, check(r, status, want, sanitized), r)
    return failures


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("cli", "opt", "python", "server"):
        print(__doc__)
        return 2
    front, target = sys.argv[1], sys.argv[2]
    sanitized = "--sanitized" in sys.argv[3:]
    what = {"cli": "the layoutkit CLI", "server": "the layoutkit CLI",
            "opt": "layoutkit-opt (configure with MLIR 22 found)",
            "python": "the Python module (pybind11; not in sanitizer builds)"}
    if target == "none" or not os.path.exists(target):
        print(f"skipped: {what[front]} is not built")
        return SKIP
    if front == "cli":
        import cli_cases
        failures = run_process_cases(cli_cases.cases(target), sanitized)
        cli_cases.cleanup()
    elif front == "opt":
        import opt_cases
        failures = opt_cases.run_all(target, sanitized)
    elif front == "python":
        import python_cases
        failures = python_cases.run_all(target, sanitized)
    else:
        import server_cases
        failures = server_cases.run_all(target, sanitized)
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
