"""pycute scripts against layoutkit: call forms, names, and a differential
test judged by CuTe C++ semantics.

pycute (CUTLASS's Python CuTe) is not vendored; it is looked up in
$LK_PEERS, then in the folder shared/peers beside the repository (as CI lays it out),
then on sys.path, and the module is skipped, with that reason, only when it
is in none of them. Where pycute and layoutkit differ, the difference must
be one CuTe C++ makes: the oracle file (tests/data/cute-public.jsonl,
C++ results, with pycute's answer recorded where it differs) decides its
cases, and on random layouts layoutkit's result must satisfy the
operation's defining property, evaluated point by point.
"""
import importlib
import inspect
import json
import os
import pathlib
import random
import sys

import pytest

import layoutkit as lk

REPO = pathlib.Path(os.environ.get("LK_REPO", pathlib.Path(__file__).resolve().parents[2]))


def _import_pycute():
    for d in (os.environ.get("LK_PEERS"), REPO.parent / "shared" / "peers"):
        if d and (pathlib.Path(d) / "pycute" / "__init__.py").is_file():
            if str(d) not in sys.path:
                sys.path.append(str(d))
            break
    try:
        return importlib.import_module("pycute")
    except ImportError:
        pytest.skip("pycute is not in $LK_PEERS, shared/peers beside the repository or on sys.path",
                    allow_module_level=True)


pycute = _import_pycute()


# ---------------------------------------------------------------- helpers

def pc_layout(L):
    """The pycute Layout of a layoutkit Layout (same shape and stride)."""
    return pycute.Layout(L.shape, L.stride)


def fn(L, n=None):
    """The layout as a function: [L(0), ..., L(n-1)], n = size(L); past
    4096 points, at 4096 points spread over the domain (the last included)."""
    n = L.size() if n is None else n
    if n <= 4096:
        return [L(i) for i in range(n)]
    return [L(i) for i in sorted({*range(0, n, max(1, n // 4093)), n - 1})]


def run(f, *args):
    try:
        return f(*args)
    except (AssertionError, ValueError, TypeError, ZeroDivisionError, IndexError):
        return None


# ---------------------------------------------------------------- call forms

def test_every_public_pycute_name_exists():
    missing = []
    for mod in ("layout", "int_tuple", "swizzle"):
        m = importlib.import_module(f"pycute.{mod}")
        for name, obj in vars(m).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != m.__name__:
                continue
            if not hasattr(lk, name):
                missing.append(f"{mod}.{name}")
    assert missing == []
    # pycute's base class covers both layout kinds, as there.
    assert isinstance(lk.Layout(4), lk.LayoutBase)
    assert isinstance(lk.ComposedLayout(lk.Swizzle(1, 0, 1), 0, lk.Layout(4)), lk.LayoutBase)
    assert not isinstance((4,), lk.LayoutBase)


def test_call_forms_run_unchanged():
    """One pycute script, run against both modules; every value must agree."""
    def script(m):
        A = m.Layout((4, 8), (8, 1))
        B = m.Layout((2, 2), (1, 4))
        out = [
            m.crd2idx((1, 2), (4, 8), (8, 1)),       # three-argument form
            m.crd2idx((1, 2), (4, 8)),               # compact strides
            m.crd2idx(5, (4, 8), (8, 1)),            # an index, split colex
            m.crd2idx((None, 3), (4, 8), (8, 1)),    # None reads as 0
            m.idx2crd(13, (4, 8), (1, 4)),           # three-argument form
            m.idx2crd((13, 5), (4, 8), (1, 1)),      # an index tuple
            m.idx2crd(13, (4, 8)),
            A(None, 2).shape, A(None, 2).stride,     # slices
            A(2, None).shape, A((None, None)).shape,
            A(None).shape, A(None).stride,
            m.slice_and_offset((None, 2), A)[0].shape, m.slice_and_offset((None, 2), A)[1],
            m.make_layout([A, B]).shape, m.make_layout(A, B).stride,
            m.make_layout(iter([A])).shape,
            m.Swizzle(2, 4, -3)(0x10), m.Swizzle(2, 4, -3).size(), m.Swizzle(3, 4, 3).cosize(),
            m.Swizzle(3, 4, 3)(128),
            m.product((2, (3, 4))), m.prefix_product((2, (3, 4))), m.prefix_product((2, 3), 5),
            m.shape_div((4, 6), 8), m.shape_div(12, 4), m.inner_product((1, (2, 3)), (4, (5, 6))),
            m.tuple_max((3, (9, 2))), m.elem_scale((2, 3), (4, 5)), m.elem_scale(2, (3, 4)),
            m.flatten((1, (2, (3,)))), m.flatten(7), m.signum(-5), m.signum(0),
            m.slice_((None, (None, 1)), (4, (8, 2))), m.slice_(3, 4), m.has_none((1, (None,))),
            m.has_none((1, 2)), m.crd2crd((1, 2), (4, 8)), m.crd2crd(9, (4, 8)),
            m.crd2crd((1, 2), 32, (4, 8)), m.shiftl(1, 3), m.shiftr(8, -1),
            m.is_int(3), m.is_int(True), m.is_int(3.0), m.is_tuple((1,)),
            m.is_layout(A), m.is_layout((4,)),
            m.size(A), m.size((4, 8)), m.cosize(A), len(A), A[1].shape,
            m.right_inverse(None), m.left_inverse(None),
        ]
        C = m.ComposedLayout(m.Swizzle(3, 4, 3), 0, m.Layout((8, 64), (64, 1)))
        out += [len(C), C[1](3), C[0].size(), C(2, 0), m.size(C)]
        return out

    assert script(lk) == script(pycute)


def test_layout_valued_call_forms_are_the_same_function():
    A, B = (4, 8), (8, 1)

    def layouts(m):
        L = m.Layout(A, B)
        return [m.composition(L, None), m.composition(L, 4), m.logical_divide(L, None),
                m.complement(4), m.right_inverse(6), m.left_inverse(6),
                m.hier_unzip(m.logical_divide, L, (2, None)), m.coalesce(L, (1, 1))]

    for ours, theirs in zip(layouts(lk), layouts(pycute)):
        assert ours.size() == theirs.size() and fn(ours) == fn(theirs), (ours, theirs)


# ---------------------------------------------------------------- oracle cases

ALGEBRA = {"composition", "logical_divide", "logical_product", "zipped_divide",
           "tiled_divide", "zipped_product", "tiled_product", "coalesce", "filter",
           "complement", "right_inverse", "left_inverse", "blocked_product",
           "raked_product"}


def oracle_cases():
    path = REPO / "tests" / "data" / "cute-public.jsonl"
    for line in path.read_text().splitlines():
        case = json.loads(line)
        if case["op"] in ALGEBRA:
            yield case


def to_pycute_arg(a):
    """An oracle argument for pycute: layout text -> Layout, tuples of tilers."""
    if isinstance(a, str):
        return pc_layout(lk.Layout(a))
    if isinstance(a, list):
        return tuple(to_pycute_arg(x) for x in a)
    return a


def to_lk_arg(a):
    if isinstance(a, str):
        return lk.Layout(a)
    if isinstance(a, list):
        return tuple(to_lk_arg(x) for x in a)
    return a


def has_int(a):
    return isinstance(a, int) or (isinstance(a, list) and any(has_int(x) for x in a))


def ints_as_layouts(a):
    """Oracle tiler with each int n written as the layout text "n:1"."""
    if isinstance(a, int):
        return f"{a}:1"
    if isinstance(a, list):
        return [ints_as_layouts(x) for x in a]
    return a


def same(ours, theirs):
    return (ours is not None and theirs is not None and ours.size() == theirs.size()
            and fn(ours) == fn(theirs))


def test_oracle_cases_agree_or_differ_as_cpp_does():
    agree = differ = refused = 0
    for case in oracle_cases():
        op = case["op"]
        if not hasattr(pycute, op):  # blocked_product, raked_product: not in pycute
            continue
        theirs = run(getattr(pycute, op), *[to_pycute_arg(a) for a in case["args"]])
        if case.get("expect_error"):
            # C++ refuses (or its result breaks the postcondition); pycute's
            # answer, where it gives one, is then not a C++ result.
            with pytest.raises(lk.LayoutError):
                getattr(lk, op)(*[to_lk_arg(a) for a in case["args"]])
            refused += 1
            continue
        ours = getattr(lk, op)(*[to_lk_arg(a) for a in case["args"]])
        # layoutkit gives the C++ result, exactly.
        assert ours == lk.Layout(case["expect"]), case
        if same(ours, theirs):
            agree += 1
            continue
        # A difference is one the oracle records: pycute's answer (or its
        # failure) is the one written beside the C++ result.
        if op.endswith("_product") and has_int(case["args"][1]):
            # pycute's logical_product(A, n) for an int n (also as a mode of
            # a tuple tiler) returns logical_divide(A, n), a slip in its int
            # branch; with n written as Layout(n) pycute gives C++'s answer.
            fixed = to_pycute_arg(ints_as_layouts(case["args"][1]))
            assert same(ours, getattr(pycute, op)(to_pycute_arg(case["args"][0]), fixed)), case
            differ += 1
            continue
        if case.get("pycute_error"):
            differ += 1  # recorded as a pycute failure; its answer, if any, is not C++'s
            continue
        assert "pycute" in case, (case, theirs)
        recorded = case["pycute"]
        if theirs is None:
            assert recorded in (None, "error"), case
        else:
            assert theirs.size() == lk.Layout(recorded).size(), case
            assert fn(theirs) == fn(lk.Layout(recorded)), case
        differ += 1
    assert agree > 1000 and differ > 100 and refused > 0


# ---------------------------------------------------------------- random layouts

def random_layout(rng, max_rank=3):
    rank = rng.randint(1, max_rank)
    shape = tuple(rng.choice([1, 2, 4, 8, 3]) for _ in range(rank))
    stride = tuple(rng.choice([0, 1, 2, 4, 8, 16]) for _ in range(rank))
    return lk.Layout(shape, stride)


def injective(L):
    f = fn(L)
    return len(set(f)) == len(f)


def composition_holds(R, A, B):
    """R(i) == A(B(i)) for every i < size(B), and size(R) == size(B)."""
    return R.size() == B.size() and all(R(i) == A(B(i)) for i in range(B.size()))


def complement_holds(R, L, cotarget):
    """(L, R) is injective, R is sorted by stride and reaches cotarget."""
    both = lk.make_layout(L, R)
    f = fn(both)
    return len(set(f)) == len(f) and both.cosize() >= cotarget if injective(L) else True


def property_holds(op, R, A, B=None):
    """The defining property of op, on layoutkit's result R."""
    if op in ("coalesce", "filter"):
        return fn(R) == [x for x in fn(A)] if op == "coalesce" else True
    if op == "composition":
        return composition_holds(R, A, B)
    if op == "right_inverse":
        return all(A(R(i)) == i for i in range(R.size()))
    if op == "left_inverse":
        return not injective(A) or all(R(A(i)) == i for i in range(A.size()))
    if op == "complement":
        return complement_holds(R, A, A.cosize())
    if op == "logical_divide":
        T = lk.make_layout(B, lk.complement(B, A.size()))
        return complement_holds(T[1], B, A.size()) and composition_holds(R, A, T)
    if op == "logical_product":
        C = lk.complement(A, A.size() * B.cosize())
        return (fn(R[0]) == fn(A) and complement_holds(C, A, A.size() * B.cosize())
                and composition_holds(R[1], C, B))
    raise AssertionError(op)


@pytest.mark.parametrize("op", ["coalesce", "filter", "complement", "right_inverse",
                                "left_inverse"])
def test_unary_differences_are_cpp_semantics(op):
    rng = random.Random(op)
    compared = 0
    for _ in range(300):
        A = random_layout(rng)
        ours = run(getattr(lk, op), A)
        theirs = run(getattr(pycute, op), pc_layout(A))
        if ours is None:
            # layoutkit refuses only what C++ refuses: a complement (and so a
            # left inverse) of a non-injective layout.
            with pytest.raises(lk.LayoutError):
                getattr(lk, op)(A)
            assert op in ("complement", "left_inverse") and not injective(A), A
            continue
        compared += 1
        if not same(ours, theirs):
            assert property_holds(op, ours, A), (op, A, ours, theirs)
    assert compared > 100


@pytest.mark.parametrize("op", ["composition", "logical_divide", "logical_product"])
def test_binary_differences_are_cpp_semantics(op):
    rng = random.Random(op)
    compared = refused = 0
    for _ in range(300):
        A, B = random_layout(rng), random_layout(rng, 2)
        try:
            ours = getattr(lk, op)(A, B)
        except lk.LayoutError as e:
            # CuTe C++'s static conditions (divisibility, injectivity of the
            # complemented layout) refuse the case: pycute's answer, if any,
            # must then break the operation's property or be no answer.
            msg = e.message
            assert ("divisibility" in msg or "injective" in msg or "complement" in msg
                    or "overflow" in msg or "postcondition" in msg or "break" in msg), (op, A, B, msg)
            refused += 1
            continue
        theirs = run(getattr(pycute, op), pc_layout(A), pc_layout(B))
        compared += 1
        if not same(ours, theirs):
            assert property_holds(op, ours, A, B), (op, A, B, ours, theirs)
    assert compared > 50
