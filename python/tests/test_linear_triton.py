"""linear: the rest of Triton's LinearLayout names, checked against the math.

Every expected value is derived by hand in the comment beside it (bases are
the images of 2^i; L(x) is the XOR of the bases of x's set bits).
"""
import numpy as np
import pytest

import layoutkit as lk
from layoutkit import LinearLayout as LL


def lane_reg():
    # register bases 1, 2 on dim1; lane bases (0,4), (1,0): an 2x8 tile.
    return LL.from_bases({"register": [[0, 1], [0, 2]], "lane": [[0, 4], [1, 0]]}, ["dim0", "dim1"])


def test_names_and_sizes():
    L = lane_reg()
    assert L.get_in_dim_names() == ["register", "lane"]
    assert L.get_out_dim_names() == ["dim0", "dim1"]
    # dim0 reaches 1 -> size 2; dim1 reaches 1^2^4 = 7 -> size 8.
    assert L.get_out_dim_sizes() == [2, 8] and L.get_out_dims() == [("dim0", 2), ("dim1", 8)]
    assert L.num_in_dims == L.get_num_in_dims() == 2 and L.num_out_dims == 2
    assert L.get_out_dim_index("dim1") == 1 and L.has_in_dim("lane") and not L.has_out_dim("lane")
    assert L.get_in_dim_size_log2("lane") == 2 and L.get_out_dim_size_log2("dim1") == 3
    assert L.get_total_in_dim_size_log2() == 4 and L.get_total_out_dim_size_log2() == 4
    assert L.get_basis("lane", 1) == [1, 0] and L.get_basis("lane", 0, "dim1") == 4
    assert L.get_bases() == L.bases
    for pos in (2, -1, 2**31, 2**62):
        with pytest.raises(lk.LayoutError, match="outside"):
            L.get_basis("lane", pos)
    # A dim the layout lacks is an error in every lookup, never a size 1.
    lookups = [L.get_out_dim_index, L.get_out_dim_size, L.get_out_dim_size_log2]
    for f in lookups:
        with pytest.raises(lk.LayoutError, match=r"no out-dim 'warp' \(its out-dims: dim0, dim1\)"):
            f("warp")
    for f in (L.get_in_dim_size, L.get_in_dim_size_log2, lambda d: L.get_basis(d, 0)):
        with pytest.raises(lk.LayoutError, match=r"no in-dim 'nope' \(its in-dims: register, lane\)"):
            f("nope")
    with pytest.raises(lk.LayoutError, match="no in-dim 'warp'"):
        L.apply({"warp": 1})
    assert L.get_in_dim_size("lane") == 4 and L.get_out_dim_size("dim1") == 8
    # has_*_dim is a question: any string, named or not, gets an answer.
    for name in ("warp", "l\u00e4ne", "", "re g"):
        assert not L.has_in_dim(name) and not L.has_out_dim(name)
    assert L.has_in_dim("lane") and L.has_out_dim("dim0")


def test_constructors():
    # strided: bases stride * 2^i = 4, 8, 16; out size size * stride = 32.
    s = LL.strided_1d(8, 4, "register", "offset")
    assert s.bases == {"register": [[4], [8], [16]]} and s.out_dims == [("offset", 32)]
    assert [s.apply({"register": x})[0][1] for x in range(8)] == [4 * x for x in range(8)]
    assert not s.is_surjective()
    with pytest.raises(lk.LayoutError):
        LL.strided_1d(8, 3, "register", "offset")  # 3x is not XOR-linear
    with pytest.raises(lk.LayoutError):
        LL.strided_1d(2**31, 2**32, "register", "offset")  # 2^63 does not fit
    z = LL.zeros_1d(4, "lane", "dim0", 8)
    assert z.bases == {"lane": [[0], [0]]} and z.out_dims == [("dim0", 8)]
    assert LL.empty().num_in_dims == 0 and LL.empty() * lane_reg() == lane_reg()
    # Triton's third form: names with sizes, surjective by default.
    with pytest.raises(lk.LayoutError):
        LL.from_bases({"register": [[2]]}, ["dim0"], [4])
    ns = LL.from_bases({"register": [[2]]}, ["dim0"], [4], False)
    assert ns.out_dims == [("dim0", 4)] and not ns.is_surjective()
    with pytest.raises(lk.LayoutError):
        LL.from_bases({"register": [[2]]}, ["dim0"], [4, 2], False)


def test_num_consecutive_in_out():
    # register bases 1, 2, 8: registers 0..3 -> 0..3; register bit 2 -> 8
    # has no low bit in common with 0..3, so V = 4.
    L = LL.from_bases({"register": [[1], [2], [8]]}, ["dim0"], [16], False)
    assert L.get_num_consecutive_in_out() == 4
    # A lane basis 2 touches bit 1: only V = 2 runs stay consecutive.
    L2 = LL.from_bases({"register": [[1], [4]], "lane": [[2]]}, ["dim0"])
    assert L2.get_num_consecutive_in_out() == 2
    # Check the definition directly: L(a*V + v) == L(a*V) + v for v < V.
    for lay, V in ((L, 4), (L2, 2)):
        out = lay.outputs()[:, 0]
        n = lay.get_in_dim_size(lay.get_in_dim_names()[0])
        assert all(out[a + v] == out[a] + v for a in range(0, n, V) for v in range(V))
    # register basis 0 is (0, 1): not on the first out-dim -> 1.
    assert lane_reg().get_num_consecutive_in_out() == 1


def test_reshape_concat():
    L = lane_reg()
    # 4 in bits re-split as one dim of 16: bases in bit order.
    f = L.reshape_ins([("thread", 16)])
    assert f.bases == {"thread": [[0, 1], [0, 2], [0, 4], [1, 0]]}
    # flatten_ins keeps the first name; the dict form is the same request.
    assert L.flatten_ins().bases == {"register": f.bases["thread"]}
    assert L.reshape_ins({"thread": 16}) == f
    # Out bits: dim0 (1 bit) then dim1 (3 bits) re-split as x: 4, y: 4.
    # Basis (0,1) = packed 0b0010 -> x = 2, y = 0; (1,0) = 0b0001 -> x = 1.
    r = L.reshape_outs([("x", 4), ("y", 4)])
    assert r.bases["register"] == [[2, 0], [0, 1]] and r.bases["lane"] == [[0, 2], [1, 0]]
    with pytest.raises(lk.LayoutError):
        L.reshape_outs([("x", 8)])  # 3 bits for 4
    a = LL.from_bases({"register": [[1]]}, ["dim0"])
    b = LL.from_bases({"lane": [[1]]}, ["dim0"])
    ab = a.concat_ins(b)
    assert ab.bases == {"register": [[1]], "lane": [[1]]}
    c = LL.from_bases({"register": [[1]]}, ["dim1"])
    assert a.concat_outs(c).bases == {"register": [[1, 1]]}


def test_divide():
    # identity(32) = identity(4) * identity(8): the quotient is identity(8).
    A = LL.identity_1d(32, "register", "dim0")
    B = LL.identity_1d(4, "register", "dim0")
    q = A.divide_left(B)
    assert q == LL.identity_1d(8, "register", "dim0") and B * q == A
    assert lk.divide_left(A, B) == q
    # Right division: A = B' * identity(4) with B' = identity(8).
    assert A.divide_right(B) == LL.identity_1d(8, "register", "dim0")
    # A register basis order [2, 1] does not start with identity(4): None.
    P = LL.from_bases({"register": [[2], [1]]}, ["dim0"])
    assert P.divide_left(B) is None and lk.divide_left(P, B) is None


def test_trivial_over_and_quotient():
    # block is the identity on itself and apart from the rest.
    L = LL.from_bases({"register": [[1, 0]], "block": [[0, 1], [0, 2]]}, ["dim0", "block"])
    assert L.is_trivial_over(["block"]) and not L.is_trivial_over(["register"])
    assert L.quotient(["block"]) == LL.from_bases({"register": [[1]]}, ["dim0"])
    assert L.quotient([]) == L
    assert L.quotient(["register"]) is None
    # A register basis reaching block bits breaks triviality.
    M = LL.from_bases({"register": [[1, 1]], "block": [[0, 2]]}, ["dim0", "block"], [2, 4], False)
    assert not M.is_trivial_over(["block"]) and M.quotient(["block"]) is None
    assert not L.is_trivial_over(["nowhere"])
    assert L.sublayout_is_zero(["register"], ["block"]) and not L.sublayout_is_zero(["block"], ["block"])
    # A name the layout lacks is an error, not a vacuous True.
    with pytest.raises(lk.LayoutError, match="no out-dim 'blok'"):
        L.sublayout_is_zero(["register"], ["blok"])


def test_remove_dims_and_equality():
    L = LL.from_bases({"register": [[1]], "lane": [[0], [2], [0]]}, ["dim0"])
    r = L.remove_zero_bases_along_dim("lane")
    assert r.bases == {"register": [[1]], "lane": [[2]]} and r.out_dims == [("dim0", 4)]
    assert L.unsqueeze_ins("lane") == r
    u = LL.from_bases({"register": [[1]], "warp": []}, ["dim0"])
    assert u.unsqueeze_in("warp").get_in_dim_names() == ["register"]
    with pytest.raises(lk.LayoutError):
        u.unsqueeze_in("register")  # size 2, not 1
    v = LL.from_bases({"register": [[1, 0]]}, {"dim0": 2, "dim1": 1})
    assert v.unsqueeze_out("dim1").out_dims == [("dim0", 2)]
    big = LL.from_bases({"register": [[1]]}, {"dim0": 8})
    assert big.equal_ignoring_out_dim_sizes(LL.identity_1d(2, "register", "dim0"))
    assert big != LL.identity_1d(2, "register", "dim0")
    assert not big.equal_ignoring_out_dim_sizes(LL.identity_1d(4, "register", "dim0"))


def test_matrix_view_and_str():
    L = lane_reg()
    m = L.get_matrix_view()
    # Column j is the packed basis j: (dim0 bit 0, dim1 bits 1..3).
    assert m == lk.to_f2_matrix(L).tolist()
    assert [row[3] for row in m] == [1, 0, 0, 0]  # lane bit 1 -> dim0 = 1
    assert "register" in str(L) and str(L) == L.to_string()


def test_from_f2_matrix_checks_counts():
    eye = np.eye(3, dtype=np.int64)
    assert lk.from_f2_matrix(eye, {"register": 8}, {"dim0": 8}) == LL.identity_1d(8, "register", "dim0")
    # 65 rows, 7 rows for 8 out bits, 4 columns for 3 in bits: refused.
    for rows, cols, outs in ((65, 3, {"dim0": 256}), (7, 3, {"dim0": 256}), (8, 4, {"dim0": 256})):
        with pytest.raises(lk.LayoutError, match="rows"):
            lk.from_f2_matrix(np.zeros((rows, cols), dtype=np.int64), {"register": 8}, outs)
    # A size that is not a power of two, even one whose rounding overflows.
    for size in (2**62 + 1, 2**63 - 1, 3, 0, -4):
        with pytest.raises(lk.LayoutError, match="power of two"):
            lk.from_f2_matrix(eye, {"register": 8}, {"dim0": size})
    with pytest.raises(lk.LayoutError, match="0 or 1"):
        lk.from_f2_matrix(2 * eye, {"register": 8}, {"dim0": 8})
    with pytest.raises(TypeError):
        lk.from_f2_matrix(eye.astype(float), {"register": 8}, {"dim0": 8})


def test_apply_flat_refuses_inputs_past_the_layout():
    L = lane_reg()  # 4 in bits: inputs 0..15
    # Input 0b1001 = register bit 0 and lane bit 1: (0,1) ^ (1,0) -> packed
    # dim0 bit 0 + dim1 bit 1 = 0b0011.
    assert L.apply_flat(9) == 3
    for x in (16, 2**40, 2**64 - 1):
        with pytest.raises(lk.LayoutError, match="outside"):
            L.apply_flat(x)
