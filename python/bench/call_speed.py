#!/usr/bin/env python3
"""Per-call time of layoutkit's calls from Python, with the load.

Each row is the median over REPEATS timeit runs of NUMBER calls (and the
fastest run), per call: evaluation, construction, a composition (the
depth-1 case of bench/AlgebraBench.cpp), whole-layout evaluation into
numpy (per element) and a plan (f16 blocked-row8 -> mma v2 accumulator,
128x128, 8 warps: the pair of bench/PlanBench.cpp). The machine's load
average (/proc/loadavg) is read before and after: on a shared machine the
medians move with it, so quote them with the load. pycute's figures are
added where pycute is importable (PYTHONPATH or LK_PEERS=<dir holding
pycute>).

  PYTHONPATH=build/python /usr/bin/python3 python/bench/call_speed.py
"""
import os
import platform
import statistics
import sys
import timeit

import numpy as np

import layoutkit as lk

REPEATS = int(os.environ.get("REPEATS", "41"))
NUMBER = int(os.environ.get("NUMBER", "20000"))


def load():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "n/a"


def per_call(stmt, globs, number=NUMBER):
    runs = timeit.Timer(stmt, globals=globs).repeat(repeat=REPEATS, number=number)
    return statistics.median(runs) / number, min(runs) / number


def fmt(seconds):
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    return f"{seconds * 1e3:.2f} ms"




def main():
    L = lk.Layout((64, 32), (32, 1))
    N = lk.Layout(((2, 2), (4, 2)), ((1, 8), (2, 16)))
    big = lk.Layout((1024, 1024), (1024, 1))
    idx = np.arange(big.size(), dtype=np.int64)
    src = lk.blocked([1, 8], [4, 8], [8, 1], [1, 0], [128, 128])
    dst = lk.nvidia_mma(2, [16, 8], [4, 2], [128, 128])
    g = dict(lk=lk, L=L, N=N, big=big, idx=idx, tiler=(lk.Layout(8, 1), lk.Layout(4, 1)),
             src=src, dst=dst)
    rows = [
        ("scalar L(1000), (64,32):(32,1)", "L(1000)", None, 300e-9),
        ("coordinate L(5, 7)", "L(5, 7)", None, 1e-6),
        ("nested coordinate L((1,0),(2,1)), ((2,2),(4,2)):((1,8),(2,16))", "N((1, 0), (2, 1))", None, 1e-6),
        ("construction Layout((4,8),(8,1))", "lk.Layout((4, 8), (8, 1))", None, 1e-6),
        ("construction Layout(((2,2),(4,2)),((1,8),(2,16)))", "lk.Layout(((2, 2), (4, 2)), ((1, 8), (2, 16)))", None, 1e-6),
        ("composition (64,32):(32,1) o (8:1,4:1)", "lk.composition(L, tiler)", None, None),
        ("L(ndarray) of 2^20 indices, per element", "big(idx)", 3, None),
        ("L.offsets() of 2^20 elements, per element", "big.offsets()", 3, None),
        ("plan blocked-row8 -> mma v2, 128x128, 8 warps, f16", "lk.plan(src, dst, 'f16')", 20, None),
    ]
    before = load()
    results = []
    for name, stmt, number, bound in rows:
        med, best = per_call(stmt, g, number or NUMBER)
        if name.endswith("per element"):
            med, best = med / big.size(), best / big.size()
        results.append((name, med, best, bound))
    try:
        if os.environ.get("LK_PEERS"):
            sys.path.append(os.environ["LK_PEERS"])
        import pycute
        pg = dict(pc=pycute, A=pycute.Layout((64, 32), (32, 1)),
                  T=(pycute.Layout(8, 1), pycute.Layout(4, 1)))
        for name, stmt in [("pycute A(1000)", "A(1000)"), ("pycute A(5, 7)", "A(5, 7)"),
                           ("pycute Layout((4,8),(8,1))", "pc.Layout((4, 8), (8, 1))"),
                           ("pycute composition", "pc.composition(A, T)")]:
            med, best = per_call(stmt, pg)
            results.append((name, med, best, None))
    except ImportError:
        pass
    after = load()
    print(f"python {platform.python_version()}, {REPEATS} runs x {NUMBER} calls; "
          f"load average before: {before}, after: {after} ({os.cpu_count()} CPUs)\n")
    print("| call from Python | median per call | fastest run | bound |")
    print("|---|---|---|---|")
    for name, med, best, bound in results:
        verdict = "" if bound is None else (f"< {fmt(bound)}: " + ("met" if med < bound else "MISSED"))
        print(f"| {name} | {fmt(med)} | {fmt(best)} | {verdict} |")


if __name__ == "__main__":
    main()
