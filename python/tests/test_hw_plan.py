"""Atoms, descriptors, analyses, conversions and plans."""
import pytest

import layoutkit as lk


def test_atoms():
    a = lk.find_atom("mma.m16n8k16.f16.A")
    # hw fact: thread 1 value 2 of the A fragment holds (row 8, col 2).
    assert a.eval(1, 2) == [8, 2] and a.threads == 32 and a.shape == [16, 16]
    assert a.name in [x.name for x in lk.atoms(arch="sm_80")]
    assert a.linear_layout().get_total_in_dim_size() == 32 * 8
    # fp8 mma.sync is shown at sm_89, where it first runs: not on sm_80.
    fp8 = lk.find_atom("mma.m16n8k32.e4m3.A")
    assert fp8.arch == "sm_89"
    assert fp8.name not in [x.name for x in lk.atoms(arch="sm_80")]
    assert fp8.name in [x.name for x in lk.atoms(arch="sm_90")]


def test_descriptors():
    w = lk.encode_smem_descriptor(1024, 16, 1024, swizzle="128B")
    d = lk.decode_smem_descriptor(w)
    assert (d["start_address"], d["stride_byte_offset"], d["swizzle"]) == (1024, 1024, "128B")
    t = lk.tile_tma("f16", 16, "K", 64, 64, "128B")
    # docs/api.md: globalDims {64, 64}, globalStrides {128}, box {64, 64}.
    assert t["global_dims"] == [64, 64] and t["global_strides"] == [128] and t["data_type"] == "float16"
    # A word outside [0, 2^64) or a bool is refused, naming the argument.
    with pytest.raises(OverflowError, match="^word: -1 does not fit"):
        lk.decode_smem_descriptor(-1)
    with pytest.raises(TypeError, match="^word: expected an int, got bool"):
        lk.decode_smem_descriptor(True)
    # The data type follows the element type, whose width must match.
    assert lk.tile_tma("i32", 32, "K", 8, 8)["data_type"] == "int32"
    for bad in [("f64", 16), ("nonsense", 16), ("bf16", 7)]:
        with pytest.raises(lk.LayoutError):
            lk.tile_tma(bad[0], bad[1], "K", 64, 64)


def test_conversions():
    assert repr(lk.to_linear(lk.Layout((4, 2), (2, 1)))) == "{index: [(2), (4), (1)]} -> {offset: 8}"
    sw = lk.ComposedLayout("Sw<3,3,3> o (8,64):(64,1)")
    # Over its modes, element (r, c) is CuTe's coordinate (r, c): 64 r + c.
    t = lk.to_tile(sw, shape=(8, 64))
    assert t.swizzle == lk.Swizzle(3, 3, 3)
    assert str(t) == "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]"
    # Over one dim, CuTe's 1-D index i = r + 8 c: the modes reversed.
    assert str(lk.to_tile(sw, shape=512)) == "Swizzle(M=3,B=3,S=3) o S[(64,8):(1,64)]"
    # Without a shape neither reading is a default; the message shows the first.
    with pytest.raises(lk.LayoutError, match=r"no shape= was given; over its modes it is .*S\[\(8,64\):\(64,1\)\]"):
        lk.to_tile(sw)
    # Rank 1 over (8,8): element (r, c) at CuTe's 1-D index r + 8 c.
    assert str(lk.to_tile(lk.Layout(64, 1), shape=(8, 8))) == "S[(8,8):(1,8)]"
    assert str(lk.to_tile("64:1", shape=(8, 8))) == "S[(8,8):(1,8)]"
    # The shape is checked as TileLayout checks it, whatever the model.
    for bad, why in [((8, 4), "shape \\(8,4\\) of size 32 is not admitted"),
                     (32, "shape \\(32\\) of size 32 is not admitted"),
                     ((), "needs at least one extent"),
                     (((2, 4), 8), "a logical shape is a flat tuple"),
                     ((0, 8), "extent 0 of dimension 0 must be at least 1")]:
        with pytest.raises(lk.LayoutError, match=why):
            lk.to_tile("64:1", shape=bad)
    with pytest.raises(lk.LayoutError, match="not admitted"):
        lk.to_tile(lk.TileLayout("S[(8,8):(1,8)]"), shape=(3,))
    # An offset has no tile form over any shape: said first, with or without one.
    with pytest.raises(lk.LayoutError, match=r"no offset; Sw<3,3,3> o 8 o \(8,64\):\(64,1\) has offset 8"):
        lk.to_tile("Sw<3,3,3> o 8 o (8,64):(64,1)")
    # An index with a shape: the shape is checked too (2 is not a shape of
    # 64 elements), and a coordinate reads over it: (1,2) is 1 + 8*2 = 17.
    t = lk.TileLayout("64:1", shape=(8, 8))
    assert t.eval((1, 2), shape=(8, 8)) == [{"m": 17}]
    assert t.eval(17, shape=(8, 8)) == [{"m": 10}]  # row-major 8*2 + 1
    with pytest.raises(lk.LayoutError, match="not admitted"):
        t.eval(1, 2)
    c = lk.to_cute(lk.LinearLayout("{register: [(1), (2)], lane: [(8), (4)]} -> {offset: 16}"))
    assert c == lk.Layout((4, (2, 2)), (1, (8, 4)))
    assert isinstance(lk.parse("S[8:1]"), lk.TileLayout)
    assert isinstance(lk.parse("{register: [(1)]} -> {dim0: 2}"), lk.LinearLayout)
    assert lk.parse("(1@0,1@1)", shape=(4, 8)).shape == (4, 8)


def test_plan_noop_and_smem():
    p = lk.plan("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "((4,8),(2,2)):((32,1),(16,8))", "f16", shape=(16, 8))
    assert p.strategy == "no-op" and p.cost["cycles"] == 0
    b = lk.blocked([1, 4], [8, 4], [4, 1], [1, 0], [32, 32])
    m = lk.nvidia_mma(2, [16, 8], [4, 1], [32, 32])
    q = lk.plan(b, m, dtype="f16")
    assert q.strategy == "shared memory" and q.cost["barriers"] >= 1
    assert "lk_convert" in q.cuda() and q.memory is not None
    # A host main() brings the test kernel it launches, as --host-main does.
    assert "lk_convert_test_kernel" not in q.cuda()
    hosted = q.cuda(host_main=True)
    assert "lk_convert_test_kernel" in hosted and "int main()" in hosted
    # A flag takes True or False only: None is not quietly False.
    with pytest.raises(TypeError):
        lk.plan(b, m, dtype="f16", matrix=None)
    with pytest.raises(TypeError):
        lk.reduce(b, axis=0, eliminate_duplicates=None)
    # The cute form (computed on first read) maps the colex coordinate
    # (dim0 + 32 dim1) of the element at each offset back to that offset.
    k = q.memory_cute
    for off in range(0, 1024, 37):
        (_, d0), (_, d1) = q.memory.apply({"offset": off})
        assert k(d0 + 32 * d1) == off
    assert q.memory_tile is not None


def test_plan_of_a_padded_tensor():
    # A 12x24 f16 tile in the 16x32 blocked layouts of docs/cli.md's
    # transpose: 512 - 288 = 224 elements of each side are padding; the
    # masked plan moves the 288 valid ones and never touches padding.
    b = lk.blocked([1, 4], [8, 4], [2, 1], [1, 0], [16, 32])
    c = lk.blocked([4, 1], [4, 8], [1, 2], [0, 1], [16, 32])
    p = lk.plan(b, c, dtype="f16", logical=(12, 24))
    assert p.strategy == "shared memory" and p.store_instruction == "st.shared"
    assert p.logical_shape == [12, 24]
    pad = p.padding
    assert pad["src_padded_elements"] == 224 and pad["dst_padded_elements"] == 224
    sim = pad["simulation"]
    assert sim["correct"] and sim["checked"] == 288 and sim["violations"] == 0
    code = p.cuda()
    assert "lk_convert_valid(uint64_t y)" in code
    assert "// Masked to the logical shape (12,24)" in code
    q = lk.plan(b, c, dtype="f16")
    assert q.logical_shape is None and q.padding is None
    assert "lk_convert_valid" not in q.cuda()
    with pytest.raises(lk.LayoutError, match="the logical shape has 1 extents"):
        lk.plan(b, c, dtype="f16", logical=(12,))
    with pytest.raises(lk.LayoutError, match="names no extent"):
        lk.plan(b, c, "f16", logical=())
    with pytest.raises(TypeError):
        lk.plan(b, c, "f16", logical=1.5)
    # The text form, as shape= takes it; the padded shape itself pads
    # nothing, so the plan keeps its stmatrix store.
    assert lk.plan(b, c, "f16", logical="(12,24)").logical_shape == [12, 24]
    assert lk.plan(b, c, "f16", logical=(16, 32)).store_instruction.startswith("stmatrix")


def test_plan_record():
    # The attributes are the plan record's keys; to_dict() is the record
    # (`layoutkit plan --json`'s result). The blocked transpose of
    # docs/cli.md goes through shared memory: no permutation, no shuffle.
    b = lk.blocked([1, 4], [8, 4], [2, 1], [1, 0], [16, 32])
    c = lk.blocked([4, 1], [4, 8], [1, 2], [0, 1], [16, 32])
    p = lk.plan(b, c, dtype="f16")
    d = p.to_dict()
    assert list(d) == ["strategy", "dtype", "element_bits", "arch", "src",
                       "dst", "register_sources", "shuffle", "shared_memory",
                       "cost", "padding"]
    assert d["dtype"] == p.dtype == "f16" and d["arch"] == p.arch == "sm_90"
    assert p.register_sources is None and p.shuffle is None and p.padding is None
    assert p.shared_memory == d["shared_memory"] and p.cost == d["cost"]
    assert d["shared_memory"]["store_instruction"] == p.store_instruction
    assert d["src"] == repr(p.src)
    # With logical=, padding is the record's padding (224 of 512 each side).
    q = lk.plan(b, c, dtype="f16", logical=(12, 24)).to_dict()
    assert q["padding"]["src_padded_elements"] == 224
    assert q["padding"]["simulation"]["first_problem"] is None


ROW8 = ("{register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),(4,0)]}"
        " -> {dim0: 8, dim1: 8}")


def test_reduce():
    # The rows of ROW8 are lane bits 2..4: 3 butterfly rounds for each of
    # the 2 registers (6 shuffles, 6 combines), no shared memory; the
    # simulation checks the 64 registers of the warp.
    r = lk.reduce(ROW8, axis=0)
    assert isinstance(r, lk.Result) and r.kind == "reduction"
    assert r.correct and r.checked == 64 and r.first_mismatch is None
    assert r.lane_axis_bits == [2, 3, 4] and r.register_axis_bits == []
    assert r.counts["shuffles"] == 6 and r.counts["combines"] == 6
    assert r.to_dict()["counts"] == r.counts and r.element_bits == 32
    # Without duplicate elimination, every lane stores: axis 1 of a layout
    # whose warps hold it (2 warps along dim1) needs shared memory.
    w = ("{register: [(0,1)], lane: [(0,2),(1,0),(2,0),(4,0),(8,0)],"
         " warp: [(0,4)]} -> {dim0: 16, dim1: 8}")
    e, n = lk.reduce(w, axis=1), lk.reduce(w, axis=1, eliminate_duplicates=False)
    assert e.correct and n.correct and e.warp_axis_bits == [0]
    assert n.counts["thread_stores"] >= e.counts["thread_stores"] > 0
    with pytest.raises(lk.LayoutError, match="expected 0 to 1"):
        lk.reduce(ROW8, axis=2)
    with pytest.raises(lk.LayoutError, match="expected 0 to 1"):
        lk.reduce(ROW8, axis=2**32 + 1)


def test_gather():
    # plan/Gather.h's example: axis 1 holds one register bit and two lane
    # bits: 2 rounds per output register, 2 x 2 = 4 shfl and 4 selects.
    g = lk.gather(ROW8, ROW8, axis=1, dtype="f32")
    assert isinstance(g, lk.Result) and g.kind == "gather"
    assert g.strategy == "warp shuffle" and g.rounds_per_register == 2
    assert g.cost == {"shuffles": 4, "selects": 4, "shared_stores": 0,
                      "shared_loads": 0, "barriers": 0, "smem_bytes": 0}
    assert g.to_dict()["description"] == g.description
    with pytest.raises(lk.LayoutError, match="unknown element type"):
        lk.gather(ROW8, ROW8, axis=1, dtype="f7")


def test_shape_is_checked_for_every_layout_form():
    # shape= is the tensor's shape for a LinearLayout object as for text:
    # its dims must match, and its type is checked (plan, gather, reduce).
    row8 = lk.LinearLayout(ROW8)
    assert lk.plan(row8, row8, "f16", shape=(8, 8)).strategy == "no-op"
    for call in (lambda s: lk.plan(row8, row8, "f16", shape=s),
                 lambda s: lk.gather(row8, row8, axis=1, dtype="f32", shape=s),
                 lambda s: lk.reduce(row8, axis=0, shape=s)):
        with pytest.raises(lk.LayoutError,
                           match=r"extents \(8,8\), not the shape= given, \(99,99\)"):
            call((99, 99))
        with pytest.raises(TypeError):
            call((8.0, 8))
        with pytest.raises(OverflowError):
            call((2**63, 8))
    # A layout that holds half its tensor is no no-op: 5 of the 6 bits of
    # 8x8 spanned (dim1's bit 2 is missing), 32 of 64 elements.
    half = lk.LinearLayout("{register: [(0,1)], lane: [(0,2),(1,0),(2,0),(4,0),(0,0)]}"
                           " -> {dim0: 8, dim1: 8}")
    with pytest.raises(lk.LayoutError, match="holds 32 of its tensor's 64 elements"):
        lk.plan(half, half, "f16")


def test_default_budget_is_the_targets_shared_memory():
    # A 256x256 f32 transpose over 8 warps is a 262144 B tile, more than
    # sm_90's 232448 B per CTA: by default it repeats twice through 128 KiB.
    rows = lk.blocked([1, 8], [32, 1], [8, 1], [1, 0], [256, 256])
    cols = lk.blocked([8, 1], [1, 32], [1, 8], [0, 1], [256, 256])
    p = lk.plan(rows, cols, "f32")
    assert p.shared_memory["iterations"] == 2 and p.cost["smem_bytes"] == 131072
    with pytest.raises(lk.LayoutError, match="more than the 232448 bytes sm_90 gives one CTA"):
        lk.plan(rows, cols, "f32", smem_budget=232449)


def test_analyses():
    dist = lk.TileLayout("S[32:1@laneid]")
    mem = lk.TileLayout("S[32:1]")
    g = lk.global_access(dist, mem, 32, 4)
    # 32 lanes x 4 B contiguous: 4 sectors, 1 line, every byte used.
    assert (g["sectors"], g["lines"], g["efficiency"]) == (4, 1, 1.0)
    s = lk.shared_access(dist, mem, 32, 4)
    assert s["total"] == 1
    strided = lk.TileLayout("S[32:32]")
    assert lk.shared_access(dist, strided, 32, 4)["total"] == 32
    r = lk.LinearLayout.from_bases({"register": [[1], [2]], "lane": [[4], [8]]}, ["dim0"])
    mem_l = lk.LinearLayout.from_bases({"offset": [[1], [2], [4], [8]]}, ["dim0"])
    assert lk.vectorization(r, mem_l)[0] == 4
    assert lk.bank_conflicts(mem, 32, [[i] for i in range(32)])["ways"] == 1
    assert lk.bank_conflicts(mem, 32, [[i] for i in range(32)])["read"] is None
    # The whole analysis: 32 lanes x 1 f32 each at consecutive addresses:
    # 4 bytes per lane (one register), one instruction, one wavefront.
    a = lk.access(dist, mem, 32)
    assert (a.vector_bytes, a.access_bytes, a.instructions) == (4, 4, 1)
    assert a.shared_memory == s and a.global_memory == g
    assert a.replication["replicated"] == []
    # A width of 0 bits is refused (it used to divide by zero in vectorBytes).
    for call in (lambda: lk.access(dist, mem, 0), lambda: lk.vector_bytes(dist, mem, 0),
                 lambda: lk.shared_access(dist, mem, 0, 4), lambda: lk.global_access(dist, mem, 0, 4)):
        with pytest.raises(lk.LayoutError, match=r"element width 0 bits is outside \[1, 1024\]"):
            call()
