"""Hostile clients against `layoutkit demo`, the binary as users start it.

The request rules and the server's timeouts in detail are tested in
process by tests/tools/DemoServerTest.cpp (with its deadlines cut short);
here each case starts the real server on a loopback port with
`--requests N` (it exits once N connections were served), drives it with
N clients, and checks the bounds of every case on the server process: it
answers within 5 s, exits with status 0, stays under 500 MB and logs at
most 10 MB. Every client is on 127.0.0.1, at most 70 at once (the cap
case; 22 otherwise), and every wait is bounded.
"""

import os
import select
import shutil
import socket
import tempfile
import threading
import time

import run_hostile

INDEX = b"<!doctype html><title>LayoutKit demo</title>\n"


def make_root():
    """A demo directory: the two files the server requires, a dot-file and
    symlinks out of the directory (to /etc/passwd and to /)."""
    root = tempfile.mkdtemp(prefix="lk-hostile-demo-")
    with open(os.path.join(root, "index.html"), "wb") as f:
        f.write(INDEX)
    with open(os.path.join(root, "layoutkit.wasm"), "wb") as f:
        f.write(b"\0asm\1\0\0\0")
    with open(os.path.join(root, ".secret"), "w") as f:
        f.write("token\n")
    os.symlink("/etc/passwd", os.path.join(root, "passwd"))
    os.symlink("/", os.path.join(root, "up"))
    return root


def exchange(port, data, pause=0.0, chunk=0, timeout=4.0):
    """Sends `data` (in `chunk`-byte pieces `pause` s apart when chunk > 0)
    and returns everything the server sends until it closes."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        if chunk:
            for i in range(0, len(data), chunk):
                s.sendall(data[i:i + chunk])
                time.sleep(pause)
        else:
            s.sendall(data)
        got = b""
        while True:
            try:
                b = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not b:
                break
            got += b
        return got
    except (BrokenPipeError, ConnectionResetError):
        return b"<reset>"
    finally:
        s.close()


def get(port, path):
    return exchange(port, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")


def status_of(answer):
    line = answer.split(b"\r\n", 1)[0]
    parts = line.split(b" ")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def scenario_paths(port):
    """Path escapes and dot-files: nothing outside the root, no dot-file."""
    problems = []
    ok = get(port, b"/index.html")
    if status_of(ok) != 200 or not ok.endswith(INDEX):
        problems.append("/index.html not served")
    for path in [b"/passwd", b"/up/etc/passwd", b"/../../../../etc/passwd",
                 b"/%2e%2e/%2e%2e/etc/passwd", b"/.secret", b"/up/proc/self/environ",
                 b"//etc/passwd"]:
        a = get(port, path)
        code = status_of(a)
        if code is None or code < 400 or b"root:" in a or b"token" in a:
            problems.append(f"{path.decode()} answered {code}")
    return problems, 8


def scenario_head(port):
    """A 64 KiB head is 431 (answered, not reset); escape bytes in the
    request line are logged as \\xNN."""
    problems = []
    long_head = b"GET /index.html HTTP/1.1\r\nX-Long: " + b"a" * 65536 + b"\r\n\r\n"
    a = exchange(port, long_head)
    if status_of(a) != 431:
        problems.append(f"a 64 KiB head answered {a[:40]!r}")
    a = get(port, b"/\x1b[2Jx")
    if status_of(a) is None or status_of(a) < 400:
        problems.append(f"an escape in the path answered {a[:40]!r}")
    return problems, 2


def scenario_clients(port):
    """An idle client and a slow one (a byte every 0.2 s) stall nobody: 20
    clients in parallel are each served within 2 s while they hang on."""
    problems = []
    idle = socket.create_connection(("127.0.0.1", port), timeout=4)
    slow_result = {}

    def slow():
        slow_result["a"] = exchange(port, b"GET /index.html HTTP/1.1\r\n\r\n",
                                    pause=0.2, chunk=1, timeout=8)

    t_slow = threading.Thread(target=slow)
    t_slow.start()
    time.sleep(0.3)
    took, answers = [], []
    lock = threading.Lock()

    def client():
        start = time.monotonic()
        a = get(port, b"/index.html")
        with lock:
            took.append(time.monotonic() - start)
            answers.append(a)

    threads = [threading.Thread(target=client) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(6)
    idle.close()
    t_slow.join(10)
    if sum(1 for a in answers if status_of(a) == 200 and a.endswith(INDEX)) != 20:
        problems.append(f"{len(answers)} parallel clients answered, not all 200")
    if took and max(took) > 2.0:
        problems.append(f"a parallel client waited {max(took):.1f} s")
    # The slow client's head (29 bytes, 5.8 s) passes the 5 s head deadline:
    # it is cut off (408 or closed), not served forever.
    if status_of(slow_result.get("a", b"")) == 200:
        problems.append("the slow client was served past the head deadline")
    return problems, 22


def scenario_cap(port):
    """70 idle connections at once, past the cap of 64 (and, under the
    500 MB address space, past the threads of 8 MiB stacks it holds): the
    surplus is answered 503 at once, the server lives and exits."""
    problems = []
    socks, early = [], 0
    for _ in range(70):
        socks.append(socket.create_connection(("127.0.0.1", port), timeout=4))
    # A turned-away client is answered 503 before the server accepts the
    # next one (each within a 250 ms drain), so all of them are answered
    # within 3 s, long before the 5 s head deadline of the served ones.
    deadline = time.monotonic() + 3.0
    pending = list(socks)
    while pending and time.monotonic() < deadline:
        ready, _, _ = select.select(pending, [], [], 0.1)
        for sock in ready:
            try:
                if sock.recv(64).startswith(b"HTTP/1.1 503"):
                    early += 1
            except ConnectionResetError:
                pass
            pending.remove(sock)
    for sock in socks:
        sock.close()
    if early < 6:
        problems.append(f"{early} of 70 connections answered 503 within 3 s, "
                        "not 6 or more")
    return problems, 70


def run_scenario(binary, sanitized, name, scenario):
    root = make_root()
    log = tempfile.TemporaryFile()
    out = tempfile.TemporaryFile()
    # --requests: the connections the scenario opens (it returns the same
    # count, checked below), so the server exits when they are done.
    n = {"paths": 8, "head": 2, "clients": 22, "cap": 70}[name]
    argv = [binary, "demo", "--dir", root, "--port", "0", "--requests", str(n)]
    start = time.monotonic()
    pid = run_hostile.spawn(argv, None, sanitized, out, log)
    problems = []
    port = None
    while port is None and time.monotonic() < start + run_hostile.TIME_S:
        out.seek(0)
        line = out.read().decode(errors="replace")
        if "127.0.0.1:" in line:
            port = int(line.split("127.0.0.1:")[1].split("/")[0])
        else:
            time.sleep(0.02)
    if port is None:
        problems.append("the server printed no address")
    else:
        try:
            found, count = scenario(port)
            problems += found
            if count != n:
                problems.append(f"{count} connections, --requests {n}")
        except OSError as e:
            problems.append(f"client error: {e}")
    # The server exits once its n connections are done (the idle and slow
    # ones at its 5 s head deadline at the latest).
    status, usage, timed_out = run_hostile.reap(pid, start + 15)
    took = time.monotonic() - start
    logged, size = run_hostile.read_capped(log)
    r = {"status": status, "out": "", "err": logged.decode(errors="replace"),
         "bytes": size, "seconds": 0.0, "rss": usage.ru_maxrss * 1024,
         "timed_out": timed_out}
    problems += run_hostile.bound_problems(r, sanitized)
    if status != 0:
        problems.append(f"exit {status}")
    if b"\x1b" in logged:
        problems.append("a raw escape byte in the log")
    if name == "head" and b"\\x1b" not in logged:
        problems.append("the escape byte is not logged as \\x1b")
    shutil.rmtree(root)
    r["seconds"] = took
    return problems, r


def run_all(binary, sanitized):
    failures = 0
    for name, scenario in [("paths", scenario_paths), ("head", scenario_head),
                           ("clients", scenario_clients), ("cap", scenario_cap)]:
        problems, r = run_scenario(binary, sanitized, name, scenario)
        failures += run_hostile.report("server", f"demo: {scenario.__doc__.splitlines()[0]}",
                                       problems, r)
    return failures
