"""LayoutError: a ValueError with the diagnostic's message and position."""
import numpy as np
import pytest

import layoutkit as lk


def test_parse_error_position():
    with pytest.raises(lk.LayoutError) as ei:
        lk.Layout("(4,8:(1,4)")
    e = ei.value
    assert isinstance(e, ValueError)
    assert e.message == "expected ',' or ')' in shape but found ':'"
    assert (e.column, e.line, e.offset, e.input) == (5, 1, 4, "(4,8:(1,4)")
    assert "^" in str(e)


def test_notes_from_detection():
    with pytest.raises(lk.LayoutError) as ei:
        lk.parse("((4,8),(2,2)):((32,1),(16,8)")
    assert ei.value.column == 29
    assert any(n.startswith("read as a cute layout") for n in ei.value.notes)


def test_error_without_text():
    with pytest.raises(lk.LayoutError) as ei:
        lk.to_linear(lk.Layout((4, 3), (1, 4)))
    assert ei.value.column is None and "power of two" in ei.value.message


def test_mode_index_out_of_range_says_which():
    L = lk.Layout((4, 8), (1, 4))
    assert L[-1] == L[1] and list(L) == [L[0], L[1]]
    for i in (2, -3):
        with pytest.raises(IndexError, match=f"mode index {i} out of range"):
            L[i]


def test_type_errors_stay_type_errors():
    with pytest.raises(TypeError):
        lk.Layout((4, 1.5))


# ---------------------------------------------------------------- hostile input
# Every nested-tuple argument goes through one conversion that bounds the
# nesting at 64 levels (the text grammar's bound) and the size at 65535
# nodes; a faulty part is named by its path from the argument.

def nested(levels, leaf=2):
    """`leaf` inside `levels` lists: nested(2) == [[2]] (depth 2)."""
    v = leaf
    for _ in range(levels):
        v = [v]
    return v


def self_referencing():
    a = [4]
    a.append(a)  # [4, [4, [4, ...]]]
    return a


def entry_points(bad):
    """Each binding that reads a nested tuple, called with `bad` there."""
    L = lk.Layout((4, 8), (8, 1))
    return {
        "Layout shape": lambda: lk.Layout(bad),
        "Layout stride": lambda: lk.Layout((4, 8), (bad, 1)),
        "composition": lambda: lk.composition(L, bad),
        "logical_divide": lambda: lk.logical_divide(L, (2, bad)),
        "idx2crd": lambda: lk.idx2crd(3, bad),
        "crd2idx": lambda: lk.crd2idx(bad, L),
        "coalesce profile": lambda: lk.coalesce(L, profile=bad),
        "filter profile": lambda: lk.filter(L, profile=bad),
        "complement": lambda: lk.complement(L, bad),
        "call": lambda: L(bad),
        "call, 2 args": lambda: L(1, bad),
        "size": lambda: lk.size(bad),
        "rank": lambda: lk.rank(bad),
        "depth": lambda: lk.depth(bad),
    }


@pytest.mark.parametrize("make", [self_referencing, lambda: nested(100_000),
                                  lambda: (1, nested(65))],
                         ids=["self-referencing", "100k-deep", "65-deep mode"])
def test_deep_or_cyclic_lists_are_a_clean_error(make):
    bad = make()
    for name, call in entry_points(bad).items():
        with pytest.raises(lk.LayoutError) as ei:
            call()
        assert "nested deeper than 64 levels" in ei.value.message, name
        assert ei.value.path is not None and "[" in ei.value.path, name


def test_nesting_bound_is_64_levels():
    # 64 lists around a leaf: depth 64, accepted; 65 is refused (above).
    assert lk.depth(nested(64)) == 64 and lk.size(nested(64, 7)) == 7
    t = lk.idx2crd(0, nested(64, 3))
    assert lk.depth(t) == 64


def test_node_bound():
    # 65535 nodes at most: 300 tuples of 250 ints are 1 + 300 * 251 nodes.
    with pytest.raises(lk.LayoutError) as ei:
        lk.size(tuple(tuple([1] * 250) for _ in range(300)))
    assert "more than 65535 nodes" in ei.value.message
    # 32767 modes per tuple at most (checked before reading them).
    with pytest.raises(lk.LayoutError) as ei:
        lk.size(tuple([1] * 70000))
    assert "70000 modes; at most 32767" in ei.value.message
    assert lk.size(tuple([1] * 1000) + (3,)) == 3


def test_path_of_a_bad_leaf():
    with pytest.raises(TypeError) as ei:
        lk.Layout((4, (2, 1.5)), (1, (4, 8)))
    assert str(ei.value).startswith("shape[1][1]: expected an int") and "float" in str(ei.value)
    with pytest.raises(TypeError) as ei:
        lk.Layout((4, 2), (1, None))
    assert str(ei.value).startswith("stride[1]:")
    with pytest.raises(TypeError):
        lk.Layout((4, True))  # a bool is not an int here (pycute's Integer)
    with pytest.raises(TypeError):
        lk.Layout((4, np.float64(2.0)))
    # A bad layout text inside a tuple keeps its column and gets the path.
    with pytest.raises(lk.LayoutError) as ei:
        lk.Layout((4, "(2,"))
    assert ei.value.path == "shape[1]" and ei.value.column is not None


def test_numpy_integers_are_ints():
    assert lk.Layout((np.int64(4), np.int32(8))) == lk.Layout((4, 8))
    assert lk.Layout((4, 8))(np.int16(9)) == 9


@pytest.mark.parametrize("value", [2**63, -2**63 - 1, 2**64, 10**30])
def test_integers_outside_int64_are_overflow_errors(value):
    L = lk.Layout(4, 2)
    calls = [
        lambda: lk.Layout((4, value)),
        lambda: lk.Layout(4, (value,)),
        lambda: L(value),
        lambda: L((1,), value),
        lambda: lk.idx2crd(value, (4, 8)),
        lambda: lk.Swizzle(value, 4, 3),
        lambda: lk.swizzle_apply(3, 4, 3, value),
        lambda: lk.ComposedLayout(lk.Swizzle(3, 4, 3), value, L),
        lambda: lk.composition(L, (value,)),
        lambda: lk.LinearLayout.identity_1d(value, "register", "dim0"),
        lambda: lk.TileLayout("S[8:1@laneid]").holds(laneid=value),
    ]
    for i, call in enumerate(calls):
        with pytest.raises(OverflowError) as ei:
            call()
        assert "does not fit in a 64-bit integer" in str(ei.value), i


def test_int64_edges_are_accepted():
    assert lk.Layout(1, 2**63 - 1).stride == 2**63 - 1
    assert lk.Layout(1, -2**63 + 1).stride == -2**63 + 1
    # -2^63 is read, then refused by the library (its magnitude is 2^63).
    with pytest.raises(lk.LayoutError):
        lk.Layout(1, -2**63)
    assert lk.Layout(4, 2)(2**62 - 1) == 2**63 - 2  # (2^62-1)*2 fits


def test_wrong_types_are_type_errors_never_runtime_errors():
    L = lk.Layout(4, 1)
    calls = [
        lambda: lk.make_layout(L, 5),
        lambda: lk.composition("not a layout at all", L),
        lambda: lk.cosize((4, 8)),
        lambda: lk.Swizzle(3.0, 4, 3),
        lambda: L(1.0),
        lambda: L(np.array([1.5])),
        lambda: lk.TileLayout("S[8:1@laneid]").holds(laneid=1.5),
        lambda: lk.LinearLayout.from_bases({"register": [[1.5]]}, ["dim0"]),
    ]
    for i, call in enumerate(calls):
        try:
            call()
        except (TypeError, lk.LayoutError) as e:
            assert not isinstance(e, RuntimeError), i
        else:
            pytest.fail(f"call {i} accepted a wrong type")


def test_results_past_int64_are_reported():
    # 2^62 * 2 = 2^63: the CLI reports the overflow; so does Python.
    with pytest.raises(lk.LayoutError) as ei:
        lk.Layout(4, 2)(2**62)
    assert "integer overflow" in ei.value.message
    # 1 + 4 * 2^61 = 2^63 + 1 overflows; 1 + 3 * 2^60 fits.
    with pytest.raises(lk.LayoutError):
        lk.Layout((2, 4), (1, 2**61))(1, 4)
    assert lk.Layout((2, 4), (1, 2**60))(1, 3) == 1 + 3 * 2**60
    # The offset of a composed layout is added checked: (2^63-1) + 1.
    C = lk.ComposedLayout(lk.Swizzle(0, 0, 0), 2**63 - 1, lk.Layout(2, 1))
    assert C(0) == 2**63 - 1
    with pytest.raises(lk.LayoutError):
        C(1)
    # |shift| of -2^63 would overflow: refused with the parameters named.
    with pytest.raises(lk.LayoutError) as ei:
        lk.swizzle_apply(3, 4, -2**63, 1016)
    assert "-9223372036854775808" in ei.value.message
    # pycute's tuple helpers keep to int64 too: 2^62 * 4 = 2^64 and 1 << 64
    # are refused; 2^63 - 1 and 1 << 62 fit.
    for f, name in [(lambda: lk.inner_product((2**62,), (4,)), "inner_product"),
                    (lambda: lk.inner_product((2**62, 2**62), (1, 1)), "inner_product"),
                    (lambda: lk.elem_scale((2**62,), (4,)), "elem_scale"),
                    (lambda: lk.shiftl(1, 64), "shiftl"), (lambda: lk.shiftr(1, -63), "shiftr")]:
        with pytest.raises(OverflowError, match=f"^{name}: .* does not fit in int64"):
            f()
    assert lk.inner_product((2**62 - 1, 2**62), (1, 1)) == 2**63 - 1 and lk.shiftl(1, 62) == 2**62


BLOCKED = {"kind": "blocked", "sizePerThread": [1, 8], "threadsPerWarp": [4, 8],
           "warpsPerCTA": [4, 1], "order": [1, 0]}


def test_list_arguments_read_like_shapes():
    # Every shape or list-of-int argument reads like Layout's shape: ints,
    # tuples, lists, numpy arrays or text, faults named by their path.
    want = lk.standard_layout(BLOCKED, [64, 64])
    for shape in ((64, 64), np.array([64, 64]), "(64,64)", [np.int32(64), 64]):
        assert lk.standard_layout(BLOCKED, shape) == want, shape
    assert lk.standard_layout(dict(BLOCKED, sizePerThread=[8], threadsPerWarp=[32],
                                   warpsPerCTA=[4], order=[0]), 64) == \
        lk.standard_layout(dict(BLOCKED, sizePerThread=[8], threadsPerWarp=[32],
                                warpsPerCTA=[4], order=[0]), [64])
    blocked = lambda **kw: lk.blocked(**dict(dict(
        size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1],
        order=[1, 0], shape=[64, 64]), **kw))
    assert blocked(order=np.array([1, 0]), shape=np.array([64, 64])) == want
    tv = lk.Layout(((4, 8), 2), ((16, 1), 8))
    assert lk.tv_grid(tv, np.array([8, 8])) == lk.tv_grid(tv, (8, 8))
    cases = [
        (lambda: lk.standard_layout(BLOCKED, [2**64]), OverflowError,
         "shape[0]: 18446744073709551616 does not fit in a 64-bit integer"),
        (lambda: lk.standard_layout(BLOCKED, [64.0]), TypeError,
         "shape[0]: expected an int or a tuple of ints, got 64.0 (float)"),
        (lambda: lk.standard_layout(BLOCKED, [64, (8, 8)]), TypeError,
         "shape[1]: expected an int, got the tuple (8,8)"),
        (lambda: lk.standard_layout(BLOCKED, np.array([64.0, 64.0])), TypeError,
         "shape[0]: expected an int or a tuple of ints, got 64.0"),
        (lambda: lk.LinearLayout.from_ttgir(BLOCKED_TTGIR, shape=np.array([2**63 - 1, 1.5])),
         TypeError, "shape[0]: expected an int"),
        (lambda: blocked(order=[1, -1]), OverflowError,
         "order[1]: -1 does not fit in an unsigned 32-bit integer [0, 2^32)"),
        (lambda: blocked(shape=[64, 2**64]), OverflowError, "shape[1]: 18446744073709551616"),
        (lambda: lk.nvidia_mma(2, [16, 8.0], [1, 1], [16, 8]), TypeError, "instr_shape[1]: "),
        (lambda: lk.to_linear(lk.Layout(4), [2**64]), OverflowError, "shape[0]: "),
        (lambda: lk.LinearLayout.from_bases({"register": [[1], [2.5]]}, ["dim0"]),
         TypeError, "bases['register'][1][0]: expected an int"),
        (lambda: lk.LinearLayout.from_bases({"register": [1]}, ["dim0"]),
         TypeError, "bases['register'][0]: expected a list of ints, got 1"),
        (lambda: lk.LinearLayout.from_bases({"register": [[1]]}, ["dim0"], [2**64]),
         OverflowError, "out_dim_sizes[0]: "),
        # pybind11's own conversions are named in Python's terms too.
        (lambda: lk.LinearLayout.from_bases({1: [[1]]}, ["dim0"]),
         TypeError, "expected a str, got <class 'int'>"),
        (lambda: lk.LinearLayout.from_bases({"lane": [[1]]}, "dim0"),
         TypeError, "expected a list of str, got <class 'str'>"),
    ]
    for i, (call, error, text) in enumerate(cases):
        with pytest.raises(error) as ei:
            call()
        assert text in str(ei.value), (i, str(ei.value))
        assert "C++ type" not in str(ei.value), i


BLOCKED_TTGIR = ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                 "warpsPerCTA = [4, 1], order = [1, 0]}>")
