#!/usr/bin/env python3
"""Python call overhead of layoutkit against the C++ calls (and pycute).

Times, per call, from Python: a composition (the depth-1 case of
bench/AlgebraBench.cpp: (64,32):(32,1) by the tiler (8:1,4:1)), an eval
L(i) and L(r, c) of that layout, a whole-layout batch evaluation into
numpy (per element), and a plan (f16 blocked-row8 -> mma v2 accumulator,
128x128, 8 warps: the pair of bench/PlanBench.cpp). Prints a Markdown
table; pycute's figures are added where pycute is importable.

  PYTHONPATH=build/python /usr/bin/python3 python/bench/overhead.py
"""
import timeit

import layoutkit as lk


def per_call(stmt, globs, number=None):
    t = timeit.Timer(stmt, globals=globs)
    if number is None:
        number, _ = t.autorange()
    best = min(t.repeat(repeat=5, number=number)) / number
    return best


def fmt(seconds):
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    return f"{seconds * 1e3:.2f} ms"


def main():
    L = lk.Layout("(64,32):(32,1)")
    tiler = (lk.Layout(8, 1), lk.Layout(4, 1))
    big = lk.Layout((1024, 1024), (1024, 1))
    src = lk.blocked([1, 8], [4, 8], [8, 1], [1, 0], [128, 128])
    dst = lk.nvidia_mma(2, [16, 8], [4, 2], [128, 128])
    g = dict(lk=lk, L=L, tiler=tiler, big=big, src=src, dst=dst)
    rows = [
        ("composition, (64,32):(32,1) o (8:1,4:1)", per_call("lk.composition(L, tiler)", g)),
        ("eval L(i), 1-D index", per_call("L(1000)", g)),
        ("eval L(r, c)", per_call("L(5, 7)", g)),
        ("batch eval L.offsets(), 2^20 elements, per element",
         per_call("big.offsets()", g, number=3) / big.size()),
        ("plan blocked-row8 -> mma, 128x128, 8 warps, f16", per_call("lk.plan(src, dst)", g, number=20)),
    ]
    pycute = None
    try:
        import pycute  # noqa: F401
        pycute = __import__("pycute")
    except ImportError:
        pass
    if pycute is not None:
        pg = dict(pc=pycute, A=pycute.Layout((64, 32), (32, 1)),
                  T=(pycute.Layout(8, 1), pycute.Layout(4, 1)))
        rows.append(("pycute composition", per_call("pc.composition(A, T)", pg)))
        rows.append(("pycute eval A(1000)", per_call("A(1000)", pg)))
    print("| call from Python | time per call |")
    print("|---|---|")
    for name, t in rows:
        print(f"| {name} | {fmt(t)} |")
    if pycute is None:
        print("\n(pycute not importable: no pycute figures)")


if __name__ == "__main__":
    main()
