"""Hostile inputs against the Python module, one child interpreter each.

Each case is (class, setup, expression, status, want): the child runs
/usr/bin/python3 with the built package on PYTHONPATH, executes `setup`,
evaluates `expression` and prints it (status 0; `want` is then the exact
printed line), or ends with status 1 on a clean exception (LayoutError,
TypeError, OverflowError; `want` is "Type: phrase of the message"). Any
other exception (RuntimeError, RecursionError, MemoryError, ...) ends with
status 2, a crash with a signal: both fail the case.
"""

import os

import run_hostile

TEMPLATE = """\
import sys
import layoutkit
from layoutkit import *
from layoutkit import LayoutError, draw
CLEAN = (LayoutError, TypeError, OverflowError)
try:
{setup}
    _r = ({expr})
except CLEAN as e:
    sys.stderr.write("error: %s: %s\\n" % (type(e).__name__, e))
    sys.exit(1)
except BaseException as e:
    sys.stderr.write("error (not a clean exception): %s: %s\\n" % (type(e).__name__, e))
    sys.exit(2)
print(_r)
"""

# A list nested 100,000 deep (a Python recursion over it overflows the C
# stack) and lists that contain themselves.
DEEP_LIST = "d = 1\nfor _ in range(100000): d = [d]"
DEEP_TUPLE = "t = 2\nfor _ in range(100000): t = (t,)"
SELF = "a = [2]\na.append(a)"
# 62 register bits of {register: [(1), (2), ...]} would be 2^62 inputs; the
# 30-bit one is 2^30 inputs, over the 2^24 values of any array.
LL30 = ('big = LinearLayout("{register: [" + ", ".join("(%d)" % (1 << j) '
        'for j in range(30)) + "]} -> {dim0: 1073741824}")')
# A 64-bit layout (2^64 inputs): register bit j -> dim0 bit j, lane bit j
# -> dim1 bit j, 32 of each.
LL64 = ('b64 = LinearLayout("{register: [" + ", ".join("(%d, 0)" % (1 << j) '
        'for j in range(32)) + "], lane: [" + ", ".join("(0, %d)" % (1 << j) '
        'for j in range(32)) + "]} -> {dim0: 4294967296, dim1: 4294967296}")')
SHUFFLE = ('src = "{register: [(1)], lane: [(2), (4), (8), (16), (32)]} -> {dim0: 64}"\n'
           'dst = "{register: [(32)], lane: [(1), (2), (4), (8), (16)]} -> {dim0: 64}"')
REPLICAS40 = 'T = TileLayout("S[4:1] + R[1099511627776:1@warpid]")'


def cases():
    """(class, setup, expression, status, want)."""
    return [
        # Class 1, crashes: recursive conversions of nested lists (a depth
        # guard of 64 levels, the text grammar's, at every conversion).
        ("crash", SELF, "Layout(a)", 1,
         "LayoutError: shape[1][1]"),
        ("crash", "c = [0]\nc.append([c])", "Layout((2, 2))(c)", 1,
         "coord is nested deeper than 64 levels"),
        ("crash", DEEP_LIST, "idx2crd(0, d)", 1,
         "shape is nested deeper than 64 levels"),
        ("crash", DEEP_LIST, "coalesce(Layout(4, 1), profile=d)", 1,
         "profile is nested deeper than 64 levels"),
        ("crash", DEEP_TUPLE, "Layout((2, 2), (1, t))", 1,
         "stride is nested deeper than 64 levels"),
        ("crash", DEEP_LIST, "composition(Layout(8, 1), d)", 1,
         "LayoutError: tiler[0][0]"),
        ("crash", DEEP_TUPLE, "crd2idx(t, (2, 2))", 1,
         "LayoutError: coord"),
        # At the guard: 64 levels (63 tuples around the int) are a layout of
        # size 4 with stride 1, so index 3 maps to 3.
        ("crash", "s = 4\nfor _ in range(63): s = (s,)", "Layout(s)(3)", 0, "3\n"),
        # Class 2, hangs: sizes that are not powers of two, near 2^63.
        ("hang", "", "from_f2_matrix([[1]], [('register', 2)], [('dim0', 2**63 - 1)])", 1,
         "size 9223372036854775807 is not a power of two"),
        ("hang", "", "from_f2_matrix([[1]], [('register', 2)], [('dim0', 2**62 + 1)])", 1,
         "LayoutError"),
        # 62 output bits: column 0 is bit 61 alone, so L(1) = 2^61.
        ("hang", "", "from_f2_matrix([[0]] * 61 + [[1]], [('register', 2)], "
                     "[('dim0', 2**62)]).apply_flat(1)", 0, "2305843009213693952\n"),
        # Class 3, work bounded by elements x replicas.
        ("replicas", REPLICAS40, "T.eval(1, 4)", 1, "the limit is 65536 points"),
        # The owners record streams: the first limits["listed"] and the total.
        ("replicas", REPLICAS40, "(lambda o: (len(o.owners), o.total))(T.owners(3, 4))",
         0, "(65536, 1099511627776)"),
        ("replicas", REPLICAS40, "T.eval(1, 4, limit=2**40)", 1,
         "eval: limit must be between 1 and 65536"),
        ("replicas", 'T = TileLayout("S[4:1] + R[4611686018427387904:1@warpid]")',
         "T.holds(m=1)", 1, "(the limit of holders)"),
        # With a limit the first points come back: element 1 of the shard is
        # m = 1, held by every replica, warpid 0, 1, 2 first.
        ("replicas", REPLICAS40, "T.eval(1, 4, limit=3)", 0,
         "[{'m': 1, 'warpid': 0}, {'m': 1, 'warpid': 1}, {'m': 1, 'warpid': 2}]\n"),
        # Class 4, 64-bit edges.
        ("edges", "", "Layout(4, 2)(2**62)", 1, "overflow"),
        # (1, 1) of strides (2^61, 2^62): 2^61 + 2^62 = 6917529027641081856.
        ("edges", "", "Layout((2, 2), (2**61, 2**62))((1, 1))", 0,
         "6917529027641081856\n"),
        ("edges", "", "Layout((2, 2), (2**62, 2**62))((1, 1))", 1,
         "do not fit in 64 bits"),
        ("edges", "", "Layout(2**63)", 1, "OverflowError: shape"),
        ("edges", "", "Layout(8, -2**63 - 1)", 1, "OverflowError: stride"),
        ("edges", "", "tile_tma('f16', 16, 'K', 2**62, 2**62)", 1,
         "expected 1..4294967296 elements"),
        ("edges", "", "from_f2_matrix([[1]] * 7, [('register', 2)], [('dim0', 256)])", 1,
         "the matrix is 7 x 1 but the dims need 8 rows"),
        ("edges", "", "from_f2_matrix([[1]] * 65, [('register', 2)], "
                      "[('dim0', 2**32), ('dim1', 2**32), ('dim2', 2)])", 1,
         "LayoutError"),
        ("edges", 'L = LinearLayout("{register: [(1), (2)]} -> {dim0: 4}")',
         "L.apply_flat(4)", 1, "flat input 4 is outside [0, 4)"),
        ("edges", 'L = LinearLayout("{register: [(1), (2)]} -> {dim0: 4}")',
         "L.apply_flat(2**64)", 1, "OverflowError: x: 18446744073709551616"),
        ("edges", 'L = LinearLayout("{register: [(1), (2)]} -> {dim0: 4}")',
         "L.apply_flat(-1)", 1, "OverflowError: x: -1"),
        # 2^64 - 1 is every input bit of the 64-bit layout below: bits 0-31
        # are dim0's 2^32 - 1, bits 32-63 dim1's.
        ("edges", LL64, "b64.apply_flat(2**64 - 1) == 2**64 - 1", 0, "True\n"),
        ("edges", SHUFFLE, "plan(src, dst, 'f16', smem_budget=-1)", 1,
         "shared-memory budget -1 bytes"),
        ("edges", "", "Swizzle(3, 4, -2**63)", 1, "must be at most 62"),
        # 2^64 inputs and outputs, exactly (the C++ sizes saturate).
        ("edges", LL64, "(b64.get_total_in_dim_size(), b64.get_total_out_dim_size())", 0,
         "(18446744073709551616, 18446744073709551616)\n"),
        ("edges", LL64, "plan(b64, b64, 'f16')", 1,
         "SRC has 2^32 registers per thread; plans are made for at most 65536"),
        # reduce and gather check the axis as an int64 (2^32 is not axis 0)
        # and bound the planners' work before it starts.
        ("edges", SHUFFLE, "reduce(src, 2**32)", 1,
         "axis 4294967296: expected 0 to 0"),
        ("edges", SHUFFLE, "reduce(src, 2**64)", 1, "OverflowError"),
        ("edges", SHUFFLE, "gather(src, src, -1, 'f32')", 1,
         "axis -1: expected 0 to 0"),
        ("edges", LL64, "reduce(b64, 0)", 1,
         "a reduction over 2^32 registers per thread; at most 16384"),
        ("edges", LL64, "gather(b64, b64, 0, 'f32')", 1,
         "a warp has at most 32 lanes"),
        # Class 5, outputs too large.
        ("output", "", "Layout((2**14, 2**14)).offsets()", 1,
         "exceed the limit of 16777216 values"),
        ("output", LL30, "big.outputs()", 1, "exceed the limit of 16777216 values"),
        ("output", "", "TileLayout('S[(8192,4096):(4096,1)]').addresses()", 1,
         "LayoutError"),
        ("output", "", "draw.draw_layout(Layout(2**20, 1))", 1,
         "exceed the drawing limit of 65536 cells"),
        ("output", "", "draw.draw_banks(TileLayout('S[(1024,1024):(1024,1)]'), 16)", 1,
         "exceed the drawing limit"),
        # Under the limit: 2^20 offsets of a stride-1 layout, the last 2^20 - 1.
        ("output", "", "int(Layout(2**20, 1).offsets()[-1])", 0, "1048575\n"),
        # Class 6, the error policy: TypeError for types, LayoutError (a
        # ValueError) for values.
        ("types", "", "Layout(1.5)", 1, "TypeError: shape"),
        ("types", "", "Layout((2, None))", 1, "TypeError: shape[1]"),
        # A str leaf is IntTuple text ("(4,8)"); 'x' is not one.
        ("types", "", "Layout((2, 'x'))", 1, "LayoutError: shape[1]"),
        ("types", "", "Layout((2, b'4'))", 1, "TypeError: shape[1]"),
        ("types", "import numpy as np", "Layout(8, 1)(np.array([1.5]))", 1,
         "TypeError"),
        ("types", "import numpy as np", "Layout(8, 2)(np.int64(3))", 0, "6\n"),
        ("types", "", "plan(3, 4)", 1, "TypeError"),
        ("types", "", "issubclass(LayoutError, ValueError)", 0, "True\n"),
    ]


def run_all(package_dir, sanitized):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.abspath(package_dir))
    env["MPLBACKEND"] = "Agg"
    # One BLAS thread: numpy's thread pool would reserve address space per
    # core under the 500 MB bound.
    env["OPENBLAS_NUM_THREADS"] = "1"
    runs = []
    for cls, setup, expr, status, want in cases():
        body = "\n".join("    " + line for line in (setup or "pass").split("\n"))
        code = TEMPLATE.format(setup=body, expr=expr)
        label = (setup.split("\n")[0][:30] + "; " if setup else "") + expr
        runs.append((cls, ["/usr/bin/python3", "-c", code], status, want, label[:100]))
    return run_hostile.run_process_cases(runs, sanitized, env)
