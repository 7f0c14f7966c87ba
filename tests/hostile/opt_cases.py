"""Hostile inputs against layoutkit-opt: deep nesting, many pragma pairs,
offsets at the 64-bit edge and big inputs, each a generated file.

The nesting bound is 1000 brackets ({, (, [, <), checked before parsing
(docs/mlir.md); the pragma pairs are matched in one pass per block.
"""

import os
import tempfile

import run_hostile

TEMP = []

SMEM = "tensor<8x8xf16, #tileas.encoding<smem, shared>>"


def mlir_file(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False)
    f.write(text)
    f.close()
    TEMP.append(f.name)
    return f.name


def nested_arrays(n):
    """A function attribute of n nested arrays: `{` of `attributes {` is
    level 1 at column 27, the k-th `[` (column 31 + k) level k + 1."""
    return ("func.func @f() attributes {a = " + "[" * n + "1" + "]" * n +
            "} {\n  return\n}\n")


def nested_parens(n):
    """n unclosed `(` on one line: the 1001st (column 1001) is refused."""
    return "(" * n + "\n"


def pragma_pairs(n, kinds):
    """n pragma pairs in sequence, then n nested ones, over `kinds` names."""
    seq = "".join('  tileas.pragma_begin "s%d"\n  tileas.pragma_end "s%d"\n' % (i % kinds, i % kinds)
                  for i in range(n))
    nest = ("".join('  tileas.pragma_begin "n%d"\n' % (i % kinds) for i in range(n)) +
            "".join('  tileas.pragma_end "n%d"\n' % (i % kinds) for i in reversed(range(n))))
    return "func.func @f() {\n" + seq + nest + "  return\n}\n"


def crossed_pragmas(n):
    """n pairs, then one `end "b"` while `a` is open: named at its line
    (line 1 is the function, lines 2..2n+1 the pairs, 2n+2 the begin)."""
    pairs = "".join('  tileas.pragma_begin "p"\n  tileas.pragma_end "p"\n' for _ in range(n))
    return ("func.func @f() {\n" + pairs + '  tileas.pragma_begin "a"\n'
            '  tileas.pragma_end "b"\n  tileas.pragma_end "a"\n  return\n}\n')


def views(offsets, select=True):
    """A chain of views of an allocation at the given constant offsets."""
    body = "  %v0 = tileas.alloc_tensor : " + SMEM + "\n"
    for i, off in enumerate(offsets, 1):
        body += ("  %%v%d = tileas.view %%v%d {offset = %d} : %s -> %s\n"
                 % (i, i - 1, off, SMEM, SMEM))
    last = "%%v%d" % len(offsets)
    if select:
        body += "  %%r = tileas.select %%flag, %s, %%v0 : %s\n" % (last, SMEM)
        last = "%r"
    return ("func.func @f(%flag: i1) -> " + SMEM + " {\n" + body +
            "  return " + last + " : " + SMEM + "\n}\n")


def many_functions(n):
    """n small functions, each a fence: a big input (~70 bytes a function)."""
    return "".join('func.func @f%d() {\n  tileas.fence "cta"\n  return\n}\n' % i
                   for i in range(n))


def cases(opt):
    pipeline = "--tileas-layout-pipeline"
    deep_ok = mlir_file(nested_arrays(999))
    return [
        # Class 1, crashes of the recursive parser: nesting refused before
        # parsing, at the bracket that passes 1000.
        ("crash", [opt, mlir_file(nested_arrays(5000))], 1,
         ":1:1031: error: input nests deeper than 1000 brackets", "5000 nested arrays"),
        ("crash", [opt, mlir_file(nested_parens(1000000))], 1,
         ":1:1001: error: input nests deeper than 1000 brackets", "10^6 open parens"),
        # 999 arrays nest 1000 deep: parsed and printed back whole.
        ("crash", [opt, deep_ok], 0, "[" * 999 + "1" + "]" * 999, "999 nested arrays"),
        # Class 2, quadratic checks: 30,000 pairs in sequence and 30,000
        # nested, over 7 names, verified and through the pipeline.
        ("hang", [opt, mlir_file(pragma_pairs(30000, 7)), pipeline, "-o", os.devnull],
         0, None, "30000 + 30000 pragma pairs, pipeline"),
        # A crossed pair after 20,000 good ones is named at its line 40003.
        ("hang", [opt, mlir_file(crossed_pragmas(20000))], 1, ":40003:",
         "a crossed pair after 20000"),
        # Class 4, offsets at the 64-bit edge: 3 x 2^62 passes 2^63 - 1, so
        # the views are not folded (a warning), not wrapped.
        ("edges", [opt, mlir_file(views([1 << 62] * 3)), pipeline], 0,
         "alias offsets sum past 2^63-1", "views at 3 x 2^62"),
        # 2^62 + (2^62 - 1) = 2^63 - 1 still fits: the two views fold into one
        # at 9223372036854775807 under --canonicalize.
        ("edges", [opt, mlir_file(views([1 << 62, (1 << 62) - 1], select=False)),
                   "--canonicalize"], 0, "offset = 9223372036854775807",
         "views at 2^62 + 2^62 - 1 fold"),
        ("edges", [opt, mlir_file(views([-1]))], 1, "error", "a view at -1"),
        ("edges", [opt, mlir_file(views([1 << 63]))], 1, "error", "a view at 2^63"),
        # Class 5, big inputs: 25,000 functions (1.7 MB in, as much out).
        ("output", [opt, mlir_file(many_functions(25000))], 0, "@f24999()",
         "25000 functions"),
        ("output", [opt, mlir_file(many_functions(10000)), pipeline, "-o", os.devnull],
         0, None, "10000 functions, pipeline"),
    ]


def run_all(opt, sanitized):
    try:
        failures = run_hostile.run_process_cases(cases(opt), sanitized,
                                                 address_space=False)
        # Under a 500 MB address space the 512 MiB driver stack cannot be
        # had: a diagnostic and status 1 (it was LLVM's abort). Not under
        # ASan, which runs without the address-space limit.
        if not sanitized:
            failures += run_hostile.run_process_cases(
                [("crash", [opt, mlir_file(views([8]))], 1,
                  "cannot start the driver thread with its 512 MiB stack",
                  "under a 500 MB address space")], sanitized)
        return failures
    finally:
        for name in TEMP:
            os.unlink(name)
