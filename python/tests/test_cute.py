"""cute: Layout, Swizzle, ComposedLayout and the algebra (pycute's names).
Expected values are derived by hand in the comments."""
import numpy as np
import pytest

import layoutkit as lk
from layoutkit import Layout


def test_construction_and_queries():
    L = Layout((4, 8), (8, 1))
    # L(1) splits 1 colex over (4,8) -> (1,0) -> 1*8; L(1,2) = 8 + 2.
    assert (L(1), L(1, 2), L((1, 2))) == (8, 10, 10)
    assert (L.size(), L.cosize(), L.rank(), L.depth()) == (32, 32, 2, 1)
    assert (L.shape, L.stride) == ((4, 8), (8, 1))
    assert Layout("(4,8):(8,1)") == L and hash(Layout("(4, 8):(8, 1)")) == hash(L)
    # Compact strides: prefix products of (2,(3,4)) = (1,(2,6)).
    assert Layout((2, (3, 4))).stride == (1, (2, 6))
    assert repr(Layout((2, (3, 4)))) == "(2,(3,4)):(1,(2,6))"
    assert len(L) == 2 and L[1] == Layout(8, 1)
    assert lk.size((4, (2, 3))) == 24 and lk.rank((4, (2, 3))) == 2 and lk.depth((4, (2, 3))) == 2


def test_offsets_numpy():
    # (2,2):(2,1): i=0..3 -> coords (0,0),(1,0),(0,1),(1,1) -> 0,2,1,3.
    off = Layout((2, 2), (2, 1)).offsets()
    assert off.dtype == np.int64 and off.tolist() == [0, 2, 1, 3]
    L = Layout((8, (4, 4)), (16, (1, 4)))
    assert L.offsets().tolist() == [L(i) for i in range(L.size())]


def test_algebra_hand_derived():
    A = Layout((4, 8), (8, 1))
    # A o 4:2: B's points 0,2,4,6 -> A at (0,0),(2,0),(0,1),(2,1) = 0,16,1,17.
    assert lk.composition(A, Layout(4, 2)) == Layout((2, 2), (16, 1))
    # 4:2 covers 0,2,4,6; the rest of [0,16) is reached by (2,2):(1,8).
    assert lk.complement(Layout(4, 2), 16) == Layout((2, 2), (1, 8))
    # (4,8):(8,1) transposes a 4x8 row-major tile: its inverse is (8,4):(4,1).
    assert lk.right_inverse(A) == Layout((8, 4), (4, 1))
    assert lk.coalesce(Layout((2, 4), (1, 2))) == Layout(8, 1)
    assert lk.filter(Layout((4, 2), (1, 0))) == Layout(4, 1)
    assert lk.logical_divide(Layout(16, 1), Layout(4, 1)) == Layout((4, 4), (1, 4))
    assert lk.zipped_divide(Layout((4, 8)), (2, 4)) == Layout(((2, 4), (2, 2)), ((1, 4), (2, 16)))
    assert lk.logical_product(Layout(2, 1), Layout(3, 1)) == Layout((2, 3), (1, 2))
    assert lk.max_common_layout(Layout(8, 1), Layout((2, 4), (1, 8))) == Layout(2, 1)
    assert lk.idx2crd(5, (4, 8)) == (1, 1) and lk.crd2idx((1, 2), A) == 10
    assert lk.flatten(Layout((2, (2, 2)), (1, (2, 4)))) == Layout((2, 2, 2), (1, 2, 4))
    assert lk.make_layout(Layout(4, 1), Layout(8, 4)) == Layout((4, 8), (1, 4))


def test_tilers():
    A = Layout((8, 8))
    # A tuple of ints is a tiler per mode: 2:1 on mode 0, 4:1 on mode 1.
    assert lk.logical_divide(A, (2, 4)) == lk.logical_divide(A, (Layout(2, 1), Layout(4, 1)))
    # None keeps a mode whole.
    assert lk.logical_divide(A, (2, None)).shape == ((2, 4), 8)


def test_swizzle_and_composed():
    sw = lk.Swizzle(3, 4, 3)
    # 128 = bit 7 -> XOR into bit 4: 128 ^ 16 = 144.
    assert sw(128) == 144 and (sw.bits, sw.base, sw.shift) == (3, 4, 3)
    C = lk.ComposedLayout(sw, 0, Layout((8, 64), (64, 1)))
    assert C(2, 0) == 144 and repr(C) == "Sw<3,4,3> o (8,64):(64,1)"
    assert lk.ComposedLayout("Sw<3,4,3> o (8,64):(64,1)") == C
    assert C.offsets()[2] == 144  # index 2 is the coordinate (2, 0)
    # index 64 of (8,64):(64,1) is the coordinate (0, 8) -> offset 8.
    assert lk.composition(C, Layout(2, 64)).layout == Layout(2, 8)
    # The functions documented to take a ComposedLayout take it; a layout
    # where a tuple of ints belongs is a TypeError, not a descent into its
    # modes (each a layout again).
    assert lk.depth(C) == 1 and lk.crd2idx((2, 0), C) == C(2, 0) == 144
    for f in (lk.product, lk.prefix_product, lk.flatten):
        with pytest.raises(TypeError, match="expected an int or a tuple of ints, got Sw<3,4,3>"):
            f(C)
    with pytest.raises(TypeError, match=r"expected an int or a tuple of ints, got \(8,64\)"):
        lk.product(C.layout)
    # A swizzle acts on integer offsets: over basis strides it is refused
    # when made, from parts or from text, as the CLI refuses it.
    basis = Layout("(8,64):(1@0,1@1)")
    # The identity over it is the basis-stride layout: called, a tuple.
    assert lk.ComposedLayout(lk.Swizzle(0, 4, 3), 0, basis)(3, 5) == (3, 5)
    for make in (lambda: lk.ComposedLayout(sw, 0, basis),
                 lambda: lk.ComposedLayout("Sw<3,4,3> o (8,64):(1@0,1@1)")):
        with pytest.raises(lk.LayoutError, match="acts on integer offsets"):
            make()


def test_swizzle_refuses_overlap():
    with pytest.raises(lk.LayoutError):
        lk.Swizzle(3, 4, 2)  # S < B: the swizzle is not an involution


# ---------------------------------------------------------------- L(ndarray)

def test_index_arrays():
    L = Layout((4, 8), (8, 1))
    idx = np.arange(32).reshape(4, 8)
    out = L(idx)
    # Element-wise L(i), the input's shape kept, int64.
    assert out.dtype == np.int64 and out.shape == (4, 8)
    assert out.ravel().tolist() == [L(i) for i in range(32)]
    # Unsigned and narrow integer dtypes are indices too; an index past
    # size(L) continues along the last mode, as L(i) does: 33 -> (1, 8) -> 8 + 8.
    assert L(np.array([33, 2], dtype=np.uint16)).tolist() == [16, 16]
    # A 0-d array gives a 0-d array.
    assert L(np.array(5)).shape == () and int(L(np.array(5))) == L(5)


def test_coordinate_arrays_broadcast():
    L = Layout((4, (2, 4)), (1, (16, 4)))
    r = np.arange(4)[:, None]
    c = np.arange(8)[None, :]
    out = L(r, c)
    assert out.shape == (4, 8)
    assert all(out[i, j] == L(i, j) for i in range(4) for j in range(8))
    # An int broadcasts against an array.
    assert L(2, np.arange(8)).tolist() == [L(2, j) for j in range(8)]


def test_composed_layout_arrays():
    C = lk.ComposedLayout(lk.Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    rows = np.arange(8)
    assert C(rows, 3).tolist() == [C(i, 3) for i in range(8)]


def test_arrays_refuse_floats_and_report_overflow():
    L = Layout(4, 2)
    for bad in (np.array([1.5]), np.array([1.0]), np.array([True]), np.array(["1"])):
        with pytest.raises(TypeError):
            L(bad)
    with pytest.raises(OverflowError):
        L(np.array([2**63], dtype=np.uint64))
    # (2^62) * 2 overflows at element 1, named in the error.
    with pytest.raises(lk.LayoutError) as ei:
        L(np.array([1, 2**62]))
    assert ei.value.path == "element 1 (flat index)"
    with pytest.raises(lk.LayoutError):
        Layout((4, 8))(np.arange(3), np.arange(3), np.arange(3))  # 3 arrays, rank 2
    with pytest.raises(lk.LayoutError):
        Layout((4, 8), ("1@0", "1@1"))(np.arange(3))  # basis strides


def test_slice_selects_modes_as_pycute():
    # pycute's L[a:b]: the layout of the selected top-level modes.
    L = lk.Layout((4, 8, 2), (8, 1, 32))
    assert L[0:2] == lk.Layout((4, 8), (8, 1))
    assert L[1:] == lk.Layout((8, 2), (1, 32))
    assert L[::2] == lk.Layout((4, 2), (8, 32))
    assert L[0:1].rank() == 1 and L[0:1](3) == 24  # mode 0 alone: 3 * 8
    assert str(L[0]) == "4:8"


def test_algebra_functions_come_from_the_registry():
    # Every operation of the C++ registry (api/CuteOps.h) is a module
    # function whose doc starts with the registry's one-line doc.
    ops = lk.cute_ops()
    assert [o["name"] for o in ops][:4] == ["size", "cosize", "rank", "depth"]
    assert len(ops) == 25
    for o in ops:
        fn = getattr(lk, o["name"])
        assert o["doc"] in fn.__doc__, o["name"]
    divide = next(o for o in ops if o["name"] == "logical_divide")
    assert divide["params"] == [
        {"name": "A", "kind": "layout", "optional": False},
        {"name": "TILER", "kind": "tiler", "optional": False},
    ]
    assert divide["result"] == "layout"
    # None is pycute's `_` for a tiler, the default for an optional argument.
    assert lk.logical_divide(lk.Layout(128, 1), None) == lk.Layout(128, 1)
    assert lk.complement(lk.Layout(4, 2), None) == lk.Layout(2, 1)
    # An argument is read by its parameter's kind, named as the function's
    # keyword (pycute's).
    with pytest.raises(TypeError, match="layout: expected a Layout or an int"):
        lk.blocked_product(lk.Layout(2, 1), (lk.Layout(2, 1), None))
    # 4:32 covers 0, 32, 64, 96; its complement up to 256 is (32,2):(1,128).
    assert lk.complement(lk.Layout(4, 32), 256) == lk.Layout((32, 2), (1, 128))
