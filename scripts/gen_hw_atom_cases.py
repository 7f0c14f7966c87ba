#!/usr/bin/env python3
"""Writes tests/data/hw-atoms-public.jsonl: atom_eval cases whose expectations
are the closed formulas of docs/hardware.md, written here independently of
the C++ catalog. Each case carries `source` = the docs/hardware.md section.
See tests/data/hw-atoms-public.md for the list of sections.

Usage: python3 scripts/gen_hw_atom_cases.py > tests/data/hw-atoms-public.jsonl
"""
import json
import sys


def lgq(t):
    l = t & 31
    return l, t >> 5, l >> 2, l & 3


def mma(shape, ty, op):
    """§2.1-2.4: element i of lane l."""
    def f(t, i):
        l, _, g, q = lgq(t)
        if op == "C":
            return [g + 8 * (i >> 1), 2 * q + (i & 1)]
        b8 = ty in ("s8", "u8", "e4m3", "e5m2")
        if shape == "m16n8k16" and not b8:
            return ([g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)] if op == "A"
                    else [2 * q + (i & 1) + 8 * (i >> 1), g])
        if shape == "m16n8k8" and ty != "tf32":
            return [g + 8 * (i >> 1), 2 * q + (i & 1)] if op == "A" else [2 * q + i, g]
        if shape == "m16n8k8":
            return [g + 8 * (i & 1), q + 4 * (i >> 1)] if op == "A" else [q + 4 * i, g]
        if shape == "m16n8k32":
            return ([g + 8 * ((i >> 2) & 1), 4 * q + (i & 3) + 16 * (i >> 3)] if op == "A"
                    else [4 * q + (i & 3) + 16 * (i >> 2), g])
        if shape == "m16n8k16":  # 8-bit k16
            return [g + 8 * (i >> 2), 4 * q + (i & 3)] if op == "A" else [4 * q + i, g]
        raise ValueError(shape)
    return f


def wgmma(ty, op):
    """§4.1 (C) and §4.2 (A from registers)."""
    def f(t, i):
        l, w, g, q = lgq(t)
        if op == "C":
            return [16 * w + g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * q + (i & 1)]
        if ty in ("f16", "bf16"):
            return [16 * w + g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)]
        if ty == "tf32":
            return [16 * w + g + 8 * (i & 1), q + 4 * (i >> 1)]
        return [16 * w + g + 8 * ((i >> 2) & 1), 4 * q + (i & 3) + 16 * (i >> 3)]
    return f


def ldmatrix(trans):
    """§3.1: value = 2*register + half -> [matrix, row, col] as stored."""
    def f(t, v):
        l, _, g, q = lgq(t)
        j, h = v >> 1, v & 1
        return [j, 2 * q + h, g] if trans else [j, g, 2 * q + h]
    return f


def tmem(shape, num):
    """§6.3: (lane l, register r) -> [lane offset, column offset]."""
    def f(l, r):
        if shape == "32x32b":
            return [l, r]
        if shape == "16x64b":
            return [(l >> 2) + 8 * (l & 1), 2 * r + ((l >> 1) & 1)]
        if shape == "16x128b":
            return [(l >> 2) + 8 * (r & 1), 4 * (r >> 1) + (l & 3)]
        if shape == "16x256b":
            return [(l >> 2) + 8 * ((r >> 1) & 1), 8 * (r >> 2) + 2 * (l & 3) + (r & 1)]
        if shape == "16x32bx2":
            return [l & 15, r + num * (l >> 4)]
        raise ValueError(shape)
    return f


out = []


def case(atom, t, v, expect, src):
    out.append({"op": "atom_eval", "args": [atom, t, v], "expect": expect,
                "source": "docs/hardware.md " + src})


SAMPLE_LANES = [0, 1, 2, 5, 13, 18, 22, 31]

# §2.1 full tables (f16): A 32 x 8, B 32 x 4, C 32 x 4; bf16 sampled.
for op, nv in (("A", 8), ("B", 4), ("C", 4)):
    f = mma("m16n8k16", "f16", op)
    for l in range(32):
        for i in range(nv):
            case(f"mma.m16n8k16.f16.{op}", l, i, f(l, i), "§2.1 table")
    f = mma("m16n8k16", "bf16", op)
    for l in SAMPLE_LANES:
        for i in range(nv):
            case(f"mma.m16n8k16.bf16.{op}", l, i, f(l, i), "§2.1")

# §2.2-2.4 sampled lanes, every element.
for shape, ty, na, nb, sec in (("m16n8k8", "f16", 4, 2, "§2.2"), ("m16n8k8", "bf16", 4, 2, "§2.2"),
                               ("m16n8k8", "tf32", 4, 2, "§2.3"),
                               ("m16n8k32", "s8", 16, 8, "§2.4"), ("m16n8k32", "e4m3", 16, 8, "§2.4"),
                               ("m16n8k32", "u8", 16, 8, "§2.4"), ("m16n8k32", "e5m2", 16, 8, "§2.4"),
                               ("m16n8k16", "s8", 8, 4, "§2.4")):
    for op, nv in (("A", na), ("B", nb), ("C", 4)):
        f = mma(shape, ty, op)
        for l in SAMPLE_LANES:
            for i in range(nv):
                case(f"mma.{shape}.{ty}.{op}", l, i, f(l, i), sec)

# §2.5 m8n8k4 (quad pairs).
for l in (0, 3, 5, 16, 19, 30):
    r = (l & 3) + 4 * (l >= 16)
    for i in range(4):
        case("mma.m8n8k4.f16.A", l, i, [r, i], "§2.5")
        case("mma.m8n8k4.f16.B", l, i, [i, r], "§2.5")
    for i in range(8):
        case("mma.m8n8k4.f16.C", l, i, [r, i], "§2.5")
        case("mma.m8n8k4.f32.C", l, i,
             [(l & 1) + 2 * ((i >> 1) & 1) + 4 * (l >= 16), 2 * ((l >> 1) & 1) + (i & 1) + 4 * (i >> 2)],
             "§2.5")

# §3.1 / §3.2: lanes 0..7 table plus two lanes per matrix, every value.
for instr in ("ldmatrix", "stmatrix"):
    for num in (1, 2, 4):
        for trans in (False, True):
            name = f"{instr}.x{num}{'.trans' if trans else ''}.b16"
            f = ldmatrix(trans)
            for l in list(range(8)) + [9, 14, 20, 31]:
                for v in range(2 * num):
                    case(name, l, v, f(l, v), "§3.1 table" if l < 8 else "§3.1")

# §3.3 Blackwell 8-bit forms (value = 4*register + byte; UNVERIFIED in the
# sheet except the decompressing m8n16 form).
for num in (1, 2):
    for l in (0, 1, 5, 17, 31):
        for v in range(8 * num):
            b, h, j = v & 3, (v >> 2) & 1, v >> 3
            case(f"ldmatrix.m16n16.x{num}.trans.b8", l, v, [j, 4 * (l & 3) + b, (l >> 2) + 8 * h], "§3.3")
for num in (1, 2, 4):
    for l in (0, 1, 5, 17, 31):
        for v in range(4 * num):
            b, j = v & 3, v >> 2
            g, q = l >> 2, l & 3
            case(f"ldmatrix.m8n16.x{num}.b8x16.b6x16_p32", l, v, [j, g, 4 * q + b], "§3.3")
            case(f"stmatrix.m16n8.x{num}.trans.b8", l, v, [j, 2 * q + (b & 1), g + 8 * (b >> 1)], "§3.3")

# §4.1 spot checks and sampled threads for N = 8, 24, 64, 136, 256; §4.2.
for n in (8, 24, 64, 136, 256):
    f = wgmma("f16", "C")
    name = f"wgmma.m64n{n}k16.f16.C"
    for t, i in ((0, 0), (0, 1), (0, 2), (5, 3), (127, n // 2 - 1)) + (((0, 4), (37, 6)) if n >= 16 else ()):
        case(name, t, i, f(t, i), "§4.1 spot check")
    for t in (1, 33, 70, 101, 126):
        for i in sorted({0, 1, 3, 5, n // 2 - 2, n // 2 - 1}):
            if 0 <= i < n // 2:
                case(name, t, i, f(t, i), "§4.1")
for ty, k, nv in (("f16", 16, 8), ("bf16", 16, 8), ("e4m3", 32, 16), ("s8", 32, 16), ("tf32", 8, 4)):
    f = wgmma(ty, "A")
    for t in (0, 6, 37, 64, 127):
        for i in range(nv):
            case(f"wgmma.m64n64k{k}.{ty}.A", t, i, f(t, i), "§4.2")

# §6.3: the x1 table (all 32 lanes) and larger .num sampled.
for op in ("tcgen05.ld", "tcgen05.st"):
    for shape, regs in (("32x32b", 1), ("16x64b", 1), ("16x128b", 2), ("16x256b", 4), ("16x32bx2", 1)):
        f = tmem(shape, 1)
        for l in range(32) if op == "tcgen05.ld" else (0, 7, 31):
            for r in range(regs):
                case(f"{op}.{shape}.x1", l, r, f(l, r), "§6.3 x1 table")
    for shape, num, regs in (("32x32b", 8, 8), ("32x32b", 128, 128), ("16x64b", 4, 4), ("16x128b", 16, 32),
                             ("16x256b", 32, 128), ("16x32bx2", 16, 16)):
        f = tmem(shape, num)
        for l in (0, 3, 6, 17, 30):
            for r in sorted({0, 1, 2, 3, regs // 2, regs - 1}):
                if r < regs:
                    case(f"{op}.{shape}.x{num}", l, r, f(l, r), "§6.3")

# Rejected: unknown type, a thread or value outside the atom, an s32 wgmma N
# that §4.1 does not list, a .num that §6.3 marks n/a.
for atom, t, v, why in (("mma.m16n8k16.f64.A", 0, 0, "unknown atom"),
                        ("mma.m16n8k16.f16.C", 32, 0, "lane outside 0..31"),
                        ("mma.m16n8k16.f16.C", 0, 4, "C has 4 elements (§2.1)"),
                        ("wgmma.m64n64k16.f16.C", 128, 0, "thread outside the warpgroup"),
                        ("wgmma.m64n40k32.s8.C", 0, 0, "s32 accumulators: N = 8..32, then 48..256 step 16 (§4.1)"),
                        ("tcgen05.ld.16x256b.x64", 0, 0, ".16x256b.x64 is n/a (§6.3)"),
                        ("ldmatrix.x2.b16", 0, 4, "x2 has 2 registers = values 0..3 (§3.1)")):
    out.append({"op": "atom_eval", "args": [atom, t, v], "expect_error": True, "reason": why})

for c in out:
    sys.stdout.write(json.dumps(c, separators=(",", ":")) + "\n")
