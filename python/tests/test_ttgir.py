"""Triton layouts from TTGIR text and from dicts: one reader, one validation.

LinearLayout.from_ttgir and standard_layout(text) read TTGIR through the
library's api.parseLayout; standard_layout(dict) maps the dict to the same
named fields (linear.makeEncoding). Expected layouts are the dict form's,
which test_oracles.py checks against Triton's own bases.
"""
import re

import pytest

import layoutkit as lk

BLOCKED = {"kind": "blocked", "sizePerThread": [1, 4], "threadsPerWarp": [8, 4],
           "warpsPerCTA": [4, 1], "order": [1, 0]}
BLOCKED_TTGIR = ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                 "warpsPerCTA = [4, 1], order = [1, 0]}>")
MMA = {"kind": "nvidia_mma", "versionMajor": 2, "versionMinor": 0,
       "warpsPerCTA": [2, 2], "instrShape": [16, 8]}
MMA_TTGIR = ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
             "instrShape = [16, 8]}>")


def test_attribute_text_is_the_dict_layout():
    want = lk.standard_layout(BLOCKED, [32, 16])
    assert lk.LinearLayout.from_ttgir(BLOCKED_TTGIR, shape=(32, 16)) == want
    assert lk.standard_layout(BLOCKED_TTGIR, [32, 16]) == want
    # Hand check of one basis: lane 4 is the third lane bit; threadsPerWarp
    # [8, 4] with order [1, 0] puts lane bits 0-1 on dim1 (4 lanes x 4
    # registers = 16 columns) and lane bit 2 on dim0 row 1.
    assert want.get_basis("lane", 2) == [1, 0]


def test_tensor_type_gives_the_shape():
    want = lk.standard_layout(BLOCKED, [64, 16])
    assert lk.LinearLayout.from_ttgir(f"tensor<64x16xf16, {BLOCKED_TTGIR}>") == want
    with pytest.raises(lk.LayoutError):
        lk.LinearLayout.from_ttgir(f"tensor<64x16xf16, {BLOCKED_TTGIR}>", shape=(32, 16))


def test_pasted_dump_with_aliases():
    dump = (f"#mma = {MMA_TTGIR}\n"
            "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>")
    want = lk.standard_layout({"kind": "dot_operand", "opIdx": 0, "kWidth": 2, "parent": MMA}, [64, 32])
    assert lk.LinearLayout.from_ttgir(dump, shape=(64, 32)) == want


def test_one_validation_for_text_and_dict():
    # The same fault gives the same message in both syntaxes.
    bad = dict(BLOCKED, sizePerThread=[1, -4])
    with pytest.raises(lk.LayoutError, match=r"field 'sizePerThread' must be in 0..2\^30, got -4"):
        lk.standard_layout(bad, [32, 16])
    with pytest.raises(lk.LayoutError, match=r"must be in 0..2\^30"):
        lk.LinearLayout.from_ttgir(BLOCKED_TTGIR.replace("[1, 4]", "[1, -4]", 1), shape=(32, 16))
    missing = {k: v for k, v in BLOCKED.items() if k != "order"}
    with pytest.raises(lk.LayoutError, match=r"missing field 'order' \(blocked needs it\)"):
        lk.standard_layout(missing, [32, 16])
    with pytest.raises(lk.LayoutError, match="blocked has no field 'ordr'"):
        lk.standard_layout(dict(missing, ordr=[1, 0]), [32, 16])
    with pytest.raises(lk.LayoutError, match="unknown layout kind 'nope'"):
        lk.standard_layout({"kind": "nope"}, [32, 16])
    with pytest.raises(lk.LayoutError, match="must be a list of integers"):
        lk.standard_layout(dict(BLOCKED, order=[1, True]), [32, 16])
    with pytest.raises(OverflowError):
        lk.standard_layout(dict(BLOCKED, sizePerThread=[1, 2**64]), [32, 16])


def test_json_text_is_the_dict_layout():
    import json
    want = lk.standard_layout(BLOCKED, [32, 16])
    assert lk.standard_layout(json.dumps(BLOCKED), [32, 16]) == want
    assert lk.parse(json.dumps(BLOCKED), shape=(32, 16)) == want
    # The JSON reader's diagnostic points at the member: '"ordr"' is at
    # offset text.index('"ordr"'), so its column is that + 1.
    text = json.dumps(dict(BLOCKED, ordr=[1, 0]))
    with pytest.raises(lk.LayoutError, match="blocked has no field 'ordr'") as e:
        lk.standard_layout(text, [32, 16])
    assert e.value.column == text.index('"ordr"') + 1
    # A dict and its text refuse a missing kind alike.
    for params in ({"order": [0]}, '{"order": [0]}'):
        with pytest.raises(lk.LayoutError, match="expected a layout object with a 'kind'"):
            lk.standard_layout(params, [32])


def test_text_diagnostic_points_at_the_field():
    text = BLOCKED_TTGIR.replace("order", "ordr")
    with pytest.raises(lk.LayoutError) as e:
        lk.LinearLayout.from_ttgir(text, shape=(32, 16))
    message = str(e.value)
    column = text.index("ordr") + 1
    assert f"column {column}" in message
    # The caret line marks the field under its text.
    lines = message.splitlines()
    caret = next(l for l in lines if l.strip().startswith("^"))
    assert caret.index("^") - 2 == column - 1


def test_parse_and_plan_read_ttgir():
    assert lk.parse(BLOCKED_TTGIR, shape=(32, 16)) == lk.standard_layout(BLOCKED, [32, 16])
    with pytest.raises(TypeError):
        lk.standard_layout(3, [32, 16])


def test_warp_analyses_read_any_layout():
    # The distributed side of access / replication: TTGIR text is read as
    # its tile form (lk.to_tile), the same answer as that form given.
    typed = "tensor<32x16xf16, " + BLOCKED_TTGIR + ">"
    tile = lk.to_tile(typed)
    mem = lk.TileLayout("S[(32,16):(16,1)]")
    assert lk.access(typed, mem, 16).to_dict() == lk.access(tile, mem, 16).to_dict()
    assert lk.replication(typed) == lk.replication(tile)
    # An attribute without its type has no shape here.
    with pytest.raises(lk.LayoutError, match="needs the tensor shape"):
        lk.access(BLOCKED_TTGIR, mem, 16)


def test_linear_layout_constructor_reads_ttgir():
    typed = f"tensor<32x16xf16, {BLOCKED_TTGIR}>"
    assert lk.LinearLayout(typed) == lk.LinearLayout.from_ttgir(typed)
    with pytest.raises(lk.LayoutError, match="needs the tensor shape"):
        lk.LinearLayout(BLOCKED_TTGIR)


def test_plan_takes_the_element_type_of_tensor_types():
    src = f"tensor<64x16xf32, {BLOCKED_TTGIR}>"
    named = lk.plan(src, src)
    assert named.to_dict() == lk.plan(src, src, "f32").to_dict()
    with pytest.raises(lk.LayoutError, match="f16 and the layout's element type f32"):
        lk.plan(src, src, "f16")
    with pytest.raises(lk.LayoutError, match="source's element type f32 and the destination's bf16"):
        lk.plan(src, f"tensor<64x16xbf16, {BLOCKED_TTGIR}>")
    with pytest.raises(lk.LayoutError, match="dtype is required"):
        lk.plan(BLOCKED_TTGIR, BLOCKED_TTGIR, shape=(64, 16))
    with pytest.raises(TypeError, match="dtype: expected an element type name"):
        lk.plan(src, src, 16)


def alias_chain(n):
    """n alias lines, each naming the one before, then a tensor type."""
    lines = [f"#a0 = {BLOCKED_TTGIR}"]
    lines += [f"#a{i} = #a{i - 1}" for i in range(1, n)]
    return "\n".join(lines + [f"tensor<32x16xf16, #a{n - 1}>"])


def test_alias_chains_are_bounded_by_the_text_length():
    # A 40000-alias chain (~0.7 MB) is the first alias's layout.
    chain = alias_chain(40000)
    assert len(chain) < 2**20
    assert lk.LinearLayout.from_ttgir(chain) == lk.standard_layout(BLOCKED, [32, 16])
    # 200000 aliases (~3.8 MB) pass the 1 MiB bound: refused before reading.
    big = alias_chain(200000)
    msg = f"layout text of {len(big)} bytes; at most 1048576 (1 MiB) are read"
    with pytest.raises(lk.LayoutError, match=re.escape(msg)):
        lk.LinearLayout.from_ttgir(big)
    with pytest.raises(lk.LayoutError, match=re.escape(msg)):
        lk.standard_layout(big)


def test_a_bad_shape_names_the_shape_argument():
    big = (2**62, 64)
    with pytest.raises(lk.LayoutError) as e:
        lk.LinearLayout.from_ttgir(BLOCKED_TTGIR, shape=big)
    assert e.value.path == "shape"
    assert e.value.message == ("the tensor's element count, the product of its shape "
                               "(4611686018427387904,64), is 2^68; at most 2^62")
    for call in (lambda: lk.LinearLayout.from_ttgir(BLOCKED_TTGIR, shape=(96, 16)),
                 lambda: lk.standard_layout(BLOCKED, [96, 16]),
                 lambda: lk.standard_layout(BLOCKED_TTGIR, (96, 16))):
        with pytest.raises(lk.LayoutError) as e:
            call()
        assert e.value.path == "shape"
        assert e.value.message == "every tensor dim must be a power of two (got 96)"


def test_tile_layout_reads_ttgir_over_a_shape():
    # sizePerThread [1, 4], threadsPerWarp [8, 4], order [1, 0] over (32, 16):
    # element (r, c) sits on lane 4 * (r % 8) + c // 4 of warp r // 8, in
    # register c % 4 (four columns per lane, four lanes per row).
    T = lk.TileLayout(BLOCKED_TTGIR, shape=(32, 16))
    for r, c in [(0, 0), (1, 5), (9, 15), (31, 3)]:
        holder = T.eval(16 * r + c)[0]
        assert holder["laneid"] == 4 * (r % 8) + c // 4
        assert holder.get("warpid", 0) == r // 8
    typed = lk.TileLayout(f"tensor<32x16xf16, {BLOCKED_TTGIR}>")
    assert typed.eval(16 * 9 + 15) == T.eval(16 * 9 + 15)
    with pytest.raises(lk.LayoutError, match="disagree"):
        lk.TileLayout(f"tensor<32x16xf16, {BLOCKED_TTGIR}>", shape=(16, 16))
    # A tile layout's own text reads as before; a shape is checked only
    # against layouts that have one.
    assert lk.TileLayout("S[32:1@laneid]").eval(3) == [{"laneid": 3}]


def test_tile_layout_of_a_cute_layout_over_its_modes():
    # (8,64):(64,1) over (8,64) is the row-major tile: element (1,0) at
    # offset 64; the same text over 512 keeps CuTe's 1-D index (1 -> 64).
    T = lk.TileLayout("(8,64):(64,1)", shape=(8, 64))
    assert repr(T) == repr(lk.TileLayout("S[(8,64):(64,1)]"))
    assert lk.TileLayout("(8,64):(64,1)", shape=512).eval(1) == [{"m": 64}]
    with pytest.raises(lk.LayoutError, match="mode 0 of"):
        lk.TileLayout("(8,64):(64,1)", shape=(64, 8))
    with pytest.raises(lk.LayoutError, match="not admitted"):
        lk.TileLayout("S[(8,4):(1,8)]", shape=(4, 4))
    # Without shape= neither reading is taken for it; a rank-1 layout has one.
    with pytest.raises(lk.LayoutError, match=r"rank 2 reads over its modes, \(8,64\), or over its size, "
                       r"512 \(CuTe's 1-D index\), and no shape= was given; over its modes it is "
                       r"S\[\(8,64\):\(64,1\)\]"):
        lk.TileLayout("(8,64):(64,1)")
    # So does the distributed side of an access analysis, which takes no shape.
    with pytest.raises(lk.LayoutError, match="and nothing here says which"):
        lk.access("(8,64):(64,1)", lk.TileLayout("S[(8,64):(64,1)]"), 16)
    assert lk.TileLayout("64:2").eval(3) == [{"m": 6}]
