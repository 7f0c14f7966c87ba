"""linear: LinearLayout with Triton's names, standard layouts, F2 matrices."""
import numpy as np
import pytest

import layoutkit as lk
from layoutkit import LinearLayout


def small():
    return LinearLayout.from_bases({"register": [[1], [2]], "lane": [[4], [8]]}, ["dim0"])


def test_from_bases_apply():
    L = small()
    # register 1 -> 1, lane 2 = bit 1 -> 8: 1 ^ 8 = 9.
    assert L.apply({"register": 1, "lane": 2}) == [("dim0", 9)]
    assert L.in_dims == [("register", 4), ("lane", 4)] and L.out_dims == [("dim0", 16)]
    assert L.bases == {"register": [[1], [2]], "lane": [[4], [8]]}
    assert LinearLayout(repr(L)) == L and hash(LinearLayout(repr(L))) == hash(L)


def test_compose_invert():
    L = small()
    swap = LinearLayout.from_bases({"dim0": [[2], [1], [8], [4]]}, {"x": 16})
    c = L.compose(swap)  # x -> swap(L(x)): register bit 0 -> 1 -> 2
    assert c.apply({"register": 1}) == [("x", 2)]
    inv = L.invert()
    assert inv.apply({"dim0": 9}) == [("register", 1), ("lane", 2)]
    # invert_and_compose(B) = B^-1 o L: L against itself is the identity.
    ident = L.invert_and_compose(L)
    assert all(ident.apply({"register": r}) == [("register", r), ("lane", 0)] for r in range(4))


def test_pseudoinvert_and_free_masks():
    # lane bit 1 maps to 0: a broadcast bit; free mask of lane = 0b10.
    L = LinearLayout.from_bases({"lane": [[1], [0]]}, {"dim0": 2})
    assert L.get_free_variable_masks() == {"lane": 2}
    P = L.pseudoinvert()
    assert L.compose(LinearLayout.from_bases({"dim0": [[1]]}, {"dim0": 2})) == L
    assert P.apply({"dim0": 1}) == [("lane", 1)]
    assert lk.duplicates(L) == {"lane": 2}


def test_outputs_numpy_and_f2():
    L = small()
    out = L.outputs()
    assert out.shape == (16, 1) and out[:, 0].tolist() == list(range(16))
    M = lk.to_f2_matrix(L)
    assert M.shape == (4, 4) and (M == np.eye(4, dtype=np.uint8)).all()
    assert lk.from_f2_matrix(M, {"register": 4, "lane": 4}, {"dim0": 16}) == L


def test_standard_layouts():
    b = lk.blocked([1], [4], [4], [0], [16])
    # Triton's SimpleBlocked: lane bases 1,2; warp bases 4,8.
    assert b.bases == {"register": [], "lane": [[1], [2]], "warp": [[4], [8]], "block": []}
    p = lk.standard_layout({"kind": "blocked", "sizePerThread": [1], "threadsPerWarp": [4],
                            "warpsPerCTA": [4], "order": [0]}, [16])
    assert p == b
    m = lk.nvidia_mma(2, [16, 8], [1, 1], [16, 8])
    # mma.sync accumulator: lane bit 0 -> column 2 (dim1 = 2), register bit 0 -> column 1.
    assert m.bases["register"][0] == [0, 1] and m.bases["lane"][0] == [0, 2]


def test_intel_dpas_accumulator():
    # Intel's DPAS C tile, repeatCount 8 x executionSize 16, sub-group 16:
    # every row is read by lanes 0..15, so lane l holds column l and
    # register r row r: lane bases are columns 1, 2, 4, 8 and register bases
    # rows 1, 2, 4 (dim0 is the row).
    c = lk.standard_layout({"kind": "intel_dpas", "repeatCount": 8, "systolicDepth": 8,
                            "executionSize": 16, "opsPerChan": 2, "threadsPerWarp": 16,
                            "warpsPerCTA": [1, 1], "repCluster": [1, 1]}, [8, 16])
    assert c.bases["lane"] == [[0, 1], [0, 2], [0, 4], [0, 8]]
    assert c.bases["register"] == [[1, 0], [2, 0], [4, 0]]
    with pytest.raises(lk.LayoutError):
        lk.standard_layout({"kind": "intel_dpas", "repeatCount": 8, "systolicDepth": 4,
                            "executionSize": 16, "opsPerChan": 2, "threadsPerWarp": 16,
                            "warpsPerCTA": [1, 1], "repCluster": [1, 1]}, [8, 16])


def test_errors():
    with pytest.raises(lk.LayoutError):
        lk.standard_layout({"kind": "nonsense"}, [16])
    with pytest.raises(lk.LayoutError):
        small().apply({"warp": 1})
    # Pairs name each dim once: a repeat is refused, not the last one kept.
    assert small().apply([("register", 1)]) == small().apply({"register": 1})
    with pytest.raises(lk.LayoutError, match="in-dim 'register' is given twice"):
        small().apply([("register", 0), ("register", 1)])
    # An item that is not a (name, value) pair is refused, never cut to one.
    for bad in [[("register", 1, 2)], [("register",)], "register=1"]:
        with pytest.raises(TypeError, match=r"expected a dict or \(name, value\) pairs"):
            small().apply(bad)
    # A value out of its dim is worded as the CLI words it; a value that is
    # no int names its dim.
    with pytest.raises(lk.LayoutError, match="value 4 is outside in-dim 'lane' of size 4"):
        small().apply({"lane": 4})
    with pytest.raises(TypeError, match="^lane: expected an int"):
        small().apply({"lane": "3"})
    # A name that is no string is looked up as its text (and not found).
    with pytest.raises(lk.LayoutError, match="no in-dim '1'"):
        small().apply({1: 0})


def test_dim_names_are_names_the_text_reads_back():
    # repr is the text form, whose dim names are [A-Za-z_][A-Za-z0-9_]*:
    # a name outside it would print a text LinearLayout(text) cannot read.
    for bad in ["re g", "d}m", "", "9x", "l\u00e4ne"]:
        with pytest.raises(lk.LayoutError, match="is not a name of the text form"):
            LinearLayout.from_bases({bad: [[1]]}, ["dim0"])
        with pytest.raises(lk.LayoutError, match="is not a name of the text form"):
            LinearLayout.from_bases({"register": [[1]]}, [bad])
        with pytest.raises(lk.LayoutError, match="is not a name of the text form"):
            LinearLayout.identity_1d(4, "register", bad)
    L = LinearLayout.from_bases({"_r9": [[1]]}, ["Dim_0"])
    assert LinearLayout(repr(L)) == L


def test_dict_errors_name_the_parameter():
    # A value found wrong while the layout is built: the check names the
    # parameter, the path is where it sits in the dict.
    blocked = {"kind": "blocked", "sizePerThread": [1, 4],
               "threadsPerWarp": [8, 4], "warpsPerCTA": [4, 1, 1],
               "order": [1, 0]}
    with pytest.raises(lk.LayoutError) as e:
        lk.standard_layout(blocked, [32, 32])
    assert e.value.parameter == "warpsPerCTA"
    assert e.value.path == "params['warpsPerCTA']"
    assert str(e.value).startswith("params['warpsPerCTA']: error: blocked:")
    # A value refused while the dict is read, inside a parent: its path.
    dot = {"kind": "dot_operand", "opIdx": 0, "kWidth": 2,
           "parent": {"kind": "blocked", "sizePerThread": [1, 4],
                      "threadsPerWarp": "8x4", "warpsPerCTA": [4, 1],
                      "order": [1, 0]}}
    with pytest.raises(lk.LayoutError) as e:
        lk.standard_layout(dot, [32, 32])
    assert e.value.parameter == "threadsPerWarp"
    assert e.value.path == "params['parent']['threadsPerWarp']"
    # The shape at fault: the shape argument is named, no dict entry.
    with pytest.raises(lk.LayoutError) as e:
        lk.standard_layout(dict(blocked, warpsPerCTA=[4, 1]), [32, 24])
    assert e.value.parameter == "shape" and e.value.path == "shape"
    # A parent's value found wrong when the layout is built: its path too.
    bad_parent = dict(dot, parent=dict(blocked, warpsPerCTA=[4, 1], order=[1, 1]))
    with pytest.raises(lk.LayoutError) as e:
        lk.standard_layout(bad_parent, [32, 32])
    assert e.value.parameter == "parent.order"
    assert e.value.path == "params['parent']['order']"
    # An int outside int64 is Python's OverflowError; its message names the
    # place, down to the list index.
    with pytest.raises(OverflowError, match=r"^params\['sizePerThread'\]\[1\]: "):
        lk.standard_layout(dict(blocked, sizePerThread=[1, 2**70]), [32, 32])
    with pytest.raises(OverflowError, match=r"^params\['parent'\]\['order'\]\[0\]: "):
        lk.standard_layout(dict(dot, parent=dict(blocked, order=[-2**64, 0])), [32, 32])


def test_owner_grid():
    # Two lanes hold dim1, two registers dim0: cell (r, c) = (thread c,
    # register r); the picture of draw_layout is made of these cells.
    L = lk.LinearLayout("{register: [(1,0)], lane: [(0,1)]} -> {dim0: 2, dim1: 2}")
    assert L.owner_grid() == (2, 2, [(0, 0), (1, 0), (0, 1), (1, 1)])
    # A memory layout has no owner thread: refused rather than drawn as
    # thread 0 everywhere.
    with pytest.raises(lk.LayoutError, match="'offset' of size 4"):
        lk.LinearLayout("{offset: [(1), (2)]} -> {dim0: 4}").owner_grid()


def test_standard_layout_shape_from_a_tensor_type():
    attr = ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
            "warpsPerCTA = [1, 1], order = [1, 0]}>")
    typed = lk.standard_layout(f"tensor<8x16xf16, {attr}>")
    assert typed == lk.standard_layout(attr, [8, 16])
    # Without a type, and for a dict, the shape must be given.
    with pytest.raises(lk.LayoutError, match="needs the tensor shape"):
        lk.standard_layout(attr)
    with pytest.raises(lk.LayoutError, match="need shape="):
        lk.standard_layout({"kind": "blocked", "sizePerThread": [1, 4],
                            "threadsPerWarp": [8, 4], "warpsPerCTA": [1, 1],
                            "order": [1, 0]})
