#!/usr/bin/env python3
"""One description per result type, shown alike by every front end.

For each result type the api layer describes (api/Describe.h), one input is
given to the CLI (`--json`), to the Python module (`to_dict()`) and to the
wasm module (the demo's bindings, run in node); the three answers must have
the same set of key paths ("cost", "cost.instructions", "rows[].m", ...).
A front end that is not built is left out with the reason; with fewer than
two the test is skipped (exit 77).

usage: field_sets.py LAYOUTKIT PYTHON_DIR WASM_DIR NODE
  PYTHON_DIR  the folder holding the built `layoutkit` package (or "none")
  WASM_DIR    the folder holding layoutkit.js (or "none")
"""
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field


@dataclass
class Case:
    kind: str           # the result type
    cli: list           # the CLI's arguments (--json is added)
    cli_path: list      # where the record sits in the CLI's JSON
    py: str             # a Python expression giving the record as a dict
    wasm: tuple         # (function, [arguments], path into the reply)
    py_error: bool = field(default=False)  # py raises: take e.to_dict()


# Distributed layouts of the plan cases. TILE_SRC -> TILE_DST:
# blocked([1,4],[8,4],[2,1]) to blocked([4,1],[4,8],[1,2]) over 16x16 as
# tile layouts; BLOCKED_ROW / BLOCKED_COL: the same pair over 16x32 as
# linear layouts; ROW8 -> COL8: one warp, 8x8, each lane holding two
# elements along dim1 (ROW8) or along dim0 (COL8), a warp shuffle.
TILE_SRC = "S[(2,8,4,4):(1@warpid,4@laneid,1@laneid,1@m)]"
TILE_DST = "S[(4,4,2,8):(1@laneid,1@m,1@warpid,4@laneid)]"
BLOCKED_ROW = ("{register: [(0,1), (0,2), (0,16)], lane: [(0,4), (0,8), "
               "(1,0), (2,0), (4,0)], warp: [(8,0)]} -> {dim0: 16, dim1: 32}")
BLOCKED_COL = ("{register: [(1,0), (2,0), (0,16)], lane: [(4,0), (8,0), "
               "(0,1), (0,2), (0,4)], warp: [(0,8)]} -> {dim0: 16, dim1: 32}")
ROW8 = ("{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]} "
        "-> {dim0: 8, dim1: 8}")
COL8 = ("{register: [(1,0)], lane: [(0,2), (0,4), (0,1), (2,0), (4,0)]} "
        "-> {dim0: 8, dim1: 8}")

CASES = [
    Case("layout",
         ["logical_divide", "(8,4):(1,8)", "2:1"], ["result"],
         "lk.logical_divide(lk.Layout('(8,4):(1,8)'), lk.Layout('2:1'))"
         ".to_dict()",
         ("algebra", ["logical_divide", "(8,4):(1,8)", "2:1"],
          ["result", "layout"])),
    Case("diagnostic",
         ["size", "(2,3:(3,1)"], ["error"],
         "lk.Layout('(2,3:(3,1)')",
         ("algebra", ["logical_divide", "(2,3:(3,1)", "2:1"], ["error"]),
         py_error=True),
    # A plan through shared memory (docs/cli.md's blocked transpose as tile
    # layouts), one by warp shuffles, and a plan of a padded tensor.
    Case("plan",
         ["plan", TILE_SRC, TILE_DST, "--shape", "(16,16)", "--dtype", "f16"],
         ["result"],
         f"lk.plan({TILE_SRC!r}, {TILE_DST!r}, dtype='f16', shape=(16, 16))"
         ".to_dict()",
         ("plan", [TILE_SRC, TILE_DST, "(16,16)", "f16", ""], ["plan"])),
    Case("plan (warp shuffle)",
         ["plan", ROW8, COL8, "--dtype", "f32"], ["result"],
         f"lk.plan({ROW8!r}, {COL8!r}, dtype='f32').to_dict()",
         ("plan", [ROW8, COL8, "(8,8)", "f32", ""], ["plan"])),
    Case("plan (padded)",
         ["plan", BLOCKED_ROW, BLOCKED_COL, "--shape", "(16,32)",
          "--logical", "(12,24)", "--dtype", "f16"], ["result"],
         f"lk.plan({BLOCKED_ROW!r}, {BLOCKED_COL!r}, dtype='f16', "
         "logical=(12, 24)).to_dict()",
         ("plan", [BLOCKED_ROW, BLOCKED_COL, "(16,32)", "f16", "(12,24)"],
          ["plan"])),
    Case("reduction",
         ["paper", "reduce", BLOCKED_ROW, "--axis", "1"], ["result"],
         f"lk.reduce({BLOCKED_ROW!r}, axis=1).to_dict()",
         ("reduce", [BLOCKED_ROW, 1, "", "f32", True], ["reduction"])),
    Case("gather",
         ["gather", ROW8, ROW8, "--axis", "1", "--dtype", "f32"], ["result"],
         f"lk.gather({ROW8!r}, {ROW8!r}, axis=1, dtype='f32').to_dict()",
         ("gather", [ROW8, ROW8, 1, "", "f32"], ["gather"])),
    Case("evaluation",
         ["tile", "eval", "S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]",
          "(8,8)", "(1,1)"], ["result"],
         "lk.TileLayout('S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]')"
         ".evaluate((1,1), shape=(8,8)).to_dict()",
         ("steps", ["S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]",
                    "(8,8)", 9], ["result"])),
    Case("evaluation (swizzled)",
         ["tile", "eval", "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]",
          "(8,64)", "(3,0)"], ["result"],
         "lk.TileLayout('Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]')"
         ".evaluate((3,0), shape=(8,64)).to_dict()",
         ("steps", ["Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]", "(8,64)",
                    192], ["result"])),
    Case("owners",
         ["tile", "owners", "S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]",
          "(8,8)", "(1,1)"], ["result"],
         "lk.TileLayout('S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]')"
         ".owners((1,1), shape=(8,8)).to_dict()",
         ("owners", ["S[(8,4,2):(4@laneid,1@laneid,1)] + R[2:1@warpid]",
                     "(8,8)", 9], ["result"])),
    Case("holding",
         ["tile", "holds", "S[(8,4,2):(4@laneid,1@laneid,1)]", "(8,8)",
          "laneid=4"], ["result"],
         "lk.TileLayout('S[(8,4,2):(4@laneid,1@laneid,1)]')"
         ".holding((8,8), laneid=4).to_dict()",
         ("holds", ["S[(8,4,2):(4@laneid,1@laneid,1)]", "(8,8)", "laneid=4"],
          ["result"])),
    Case("banks",
         ["tile", "banks", "S[(8,64):(64,1)]", "(8,64)", "--swizzle", "128B"],
         ["result"],
         "lk.TileLayout('S[(8,64):(64,1)]').bank_view(16, '128B').to_dict()",
         ("banks", ["S[(8,64):(64,1)]", "(8,64)", "f16", "128B", 0],
          ["view"])),
    Case("conflicts",
         ["tile", "conflicts", "S[(8,64):(64,1)]", "(8,64)", "--column", "0"],
         ["result"],
         "lk.TileLayout('S[(8,64):(64,1)]').conflicts(16, 8, 64, 0)",
         ("banks", ["S[(8,64):(64,1)]", "(8,64)", "f16", "none", 0],
          ["conflicts"])),
    Case("access",
         ["hw", "analyse", "S[(8,64):(1@laneid,1@m)] + R[2:8@laneid]",
          "S[(8,64):(64,1)]"], ["result"],
         "lk.access(lk.TileLayout('S[(8,64):(1@laneid,1@m)] + R[2:8@laneid]'),"
         " lk.TileLayout('S[(8,64):(64,1)]'), 16).to_dict()",
         ("access", ["S[(8,64):(1@laneid,1@m)] + R[2:8@laneid]", "(8,64)",
                     "f16", "none"], ["result"])),
]


def key_paths(v, prefix=""):
    """The set of key paths of a JSON-like value (lists merge their items)."""
    out = set()
    if isinstance(v, dict):
        for k, x in v.items():
            p = prefix + "." + k if prefix else k
            out.add(p)
            out |= key_paths(x, p)
    elif isinstance(v, list):
        for x in v:
            out |= key_paths(x, prefix + "[]")
    return out


def dig(v, path):
    for k in path:
        v = v[k]
    return v


def cli_record(layoutkit, case):
    r = subprocess.run([layoutkit, "--json", *case.cli], capture_output=True,
                       text=True, timeout=60)
    return dig(json.loads(r.stdout), case.cli_path)


def py_records(python_dir):
    """Every case's Python record, from one interpreter."""
    prog = (
        "import json, sys\n"
        "import layoutkit as lk\n"
        "cases = json.load(sys.stdin)\n"
        "out = []\n"
        "for expr, error in cases:\n"
        "    if error:\n"
        "        try:\n"
        "            eval(expr)\n"
        "            out.append(None)\n"
        "        except lk.LayoutError as e:\n"
        "            out.append(e.to_dict())\n"
        "    else:\n"
        "        out.append(eval(expr))\n"
        "print(json.dumps(out))\n")
    env = dict(os.environ, PYTHONPATH=python_dir)
    r = subprocess.run(["/usr/bin/python3", "-c", prog], env=env, text=True,
                       capture_output=True, timeout=120,
                       input=json.dumps([[c.py, c.py_error] for c in CASES]))
    if r.returncode:
        sys.exit("python failed:\n" + r.stderr)
    return json.loads(r.stdout)


def wasm_records(node, wasm_dir):
    """Every case's wasm reply, from one node process."""
    prog = (
        "const calls = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        "require(process.argv[1] + '/layoutkit.js')().then((m) => {\n"
        "  console.log(JSON.stringify(calls.map(([f, a]) =>\n"
        "    JSON.parse(m[f](...a)))));\n"
        "});\n")
    r = subprocess.run([node, "--no-experimental-fetch", "-e", prog,
                        os.path.abspath(wasm_dir)], text=True,
                       capture_output=True, timeout=120,
                       input=json.dumps([[c.wasm[0], c.wasm[1]] for c in CASES]))
    if r.returncode:
        sys.exit("node failed:\n" + r.stderr)
    return [dig(reply, c.wasm[2])
            for reply, c in zip(json.loads(r.stdout), CASES)]


def main():
    layoutkit, python_dir, wasm_dir, node = sys.argv[1:5]
    fronts = {"cli": [cli_record(layoutkit, c) for c in CASES]}
    if python_dir != "none" and os.path.isdir(python_dir):
        fronts["python"] = py_records(python_dir)
    else:
        print("python: not built, left out")
    if (wasm_dir != "none" and node != "none"
            and os.path.exists(os.path.join(wasm_dir, "layoutkit.js"))):
        fronts["wasm"] = wasm_records(node, wasm_dir)
    else:
        print("wasm: no build or no node, left out")
    if len(fronts) < 2:
        print("fewer than two front ends: nothing to compare")
        return 77
    failures = 0
    for i, case in enumerate(CASES):
        sets = {name: key_paths(records[i]) for name, records in fronts.items()}
        cli = sets["cli"]
        same = cli and all(s == cli for s in sets.values())
        print(("ok  " if same else "FAIL") + f" {case.kind}: "
              f"{len(cli)} key paths in {', '.join(sets)}")
        if not same:
            failures += 1
            for name, s in sets.items():
                if s != cli:
                    print(f"     {name} - cli: {sorted(s - cli)}")
                    print(f"     cli - {name}: {sorted(cli - s)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
