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
