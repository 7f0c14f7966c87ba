"""tile: TileLayout S/R/O, eval, owners, holders, banks, conflicts, presets."""
import pytest

import layoutkit as lk

T = "S[(8,4,2):(4@laneid,1@laneid,1)]"


def test_eval_owners_holds():
    t = lk.TileLayout(T)
    # x = 9 -> digits over (8,4,2): (1,0,1) -> laneid 4*1 + 0, m 1.
    assert t.eval(9) == [{"laneid": 4, "m": 1}]
    o = t.owners(9)
    assert o.owners == [{"owner": {"laneid": 4}, "at": {"m": 1}}] and o.total == 1
    assert (o.x, o.coord, o.shape) == (9, [9], [64])
    # laneid 4 = (1, 0): x = 1*8 + 0*2 + m for m in {0,1}.
    assert t.holds(laneid=4) == [8, 9]
    assert t.size() == 64 and t.shard == [(8, 4, "laneid"), (4, 1, "laneid"), (2, 1, "m")]
    # An index is any int, numpy's too; anything else without shape= is
    # refused, naming what was expected and what came.
    np = pytest.importorskip("numpy")
    assert t.eval(np.int64(9)) == t.eval(9) and t.owners(np.int32(9)).owners == o.owners
    for bad, name in [(None, "NoneType"), ("9", "str"), (9.0, "float"), (True, "bool")]:
        with pytest.raises(TypeError, match="expected an index, or a coord with shape=; got " + name):
            t.eval(bad)


def test_records():
    """The records `layoutkit tile eval/owners/holds --json` print."""
    t = lk.TileLayout(T)
    # (1,1) over (8,8) is x = 9; its digits (1,0,1) over (8,4,2) add 4, 0
    # on laneid and 1 on m.
    e = t.evaluate((1, 1), shape=(8, 8))
    assert e.kind == "evaluation" and (e.x, e.coord, e.total) == (9, [1, 1], 1)
    assert e.points == t.eval(9)
    assert [(s["kind"], s["component"], s["added"]) for s in e.steps] == [
        ("shard", 1, 4), ("shard", 0, 0), ("shard", 1, 1)]
    assert e.to_dict()["steps"][0]["from"] is None
    h = t.holding((8, 8), laneid=4)
    assert (h.elements, h.coords, h.total, h.where) == ([8, 9], [[1, 0], [1, 1]], 2, {"laneid": 4})
    # Swizzle(3,3,3) maps m = 192 (row 3) to 192 ^ (3 << 3) = 216.
    s = lk.TileLayout("Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]").evaluate(192)
    assert s.steps[-1] == {"kind": "swizzle", "iter": None, "extent": None, "stride": None,
                           "axis": "m", "component": None, "added": None,
                           "swizzle": "Swizzle(M=3,B=3,S=3)", "from": 192, "to": 216}
    with pytest.raises(AttributeError):
        e.nothing


def test_replica_and_offset():
    t = lk.TileLayout("S[8:1@laneid] + R[2:16@laneid] + 3@warpid")
    # replica iter adds 0 or 16 on laneid; the offset 3 on warpid.
    assert t.eval(5) == [{"laneid": 5, "warpid": 3}, {"laneid": 21, "warpid": 3}]
    assert t.replica == [(2, 16, "laneid")] and t.offset == {"warpid": 3}


def test_thread_index():
    # lane 4 of warp 2: 4 + 32*2 = 68; thread 5 of warpgroup 1: 5 + 128 = 133.
    assert lk.thread_index({"laneid": 4, "warpid": 2, "m": 1}) == 68
    assert lk.thread_index({"tid_in_wg": 5, "wgid": 1}) == 133
    assert lk.thread_index({"cta": 3, "m": 7}) == 0
    # The replica point of element 5 above: laneid 21, warpid 3 -> 117.
    t = lk.TileLayout("S[8:1@laneid] + R[2:16@laneid] + 3@warpid")
    assert [lk.thread_index(p) for p in t.eval(5)] == [101, 117]
    assert lk.is_owner_axis("warpid") and not lk.is_owner_axis("m")
    with pytest.raises(lk.LayoutError, match="thread number"):
        lk.thread_index({"warpid": 1 << 58})
    with pytest.raises(lk.LayoutError, match="unknown axis"):
        lk.thread_index({"lane": 1})


def test_coordinate_needs_shape():
    t = lk.TileLayout(T)
    assert t.eval((1, 1), shape=(8, 8)) == t.eval(9)
    with pytest.raises(TypeError):
        t.eval((1, 1))


def test_banks_grid():
    t = lk.TileLayout("S[(8,64):(64,1)]")
    g = t.banks(16)
    # 16-bit elements: two per 4-byte word; line 0 = elements 0..63 -> bank b holds 2b.
    assert g.shape == (8, 32) and g[0].tolist() == list(range(0, 64, 2))
    s = t.banks(16, "128B")
    # 128B swizzle for 16-bit: Sw<3,3,3>: row 1's 8-element chunks XOR 1: element 64 moves to 72.
    assert s[1, 4] == 64 and s[1, 0] == 72


def test_conflicts():
    t = lk.TileLayout("S[(32,32):(32,1)]")
    # Column 0 of a 32x32 fp32 row-major tile: every lane in bank 0 -> 32 ways.
    assert t.conflicts(32, 32, 32, 0)["ways"] == 32
    padded = lk.TileLayout("S[(32,32):(33,1)]")
    assert padded.conflicts(32, 32, 32, 0)["ways"] == 1
    c = t.conflicts(32, 32, 32, 0)
    # Lane i reads (i, 0), flat 32 i, word 32 i: all in bank 0.
    assert c["read"]["lanes"] == 32 and c["elements"][:3] == [[0], [32], [64]]
    assert c["banks"][0]["words"][1] == {"word": 32, "lanes": [1]} and c["conflict_free"] is False
    # The tile shape must be one the layout admits, as the CLI's SHAPE.
    for rows, cols in [(16, 32), (3, 5), (0, 1024)]:
        with pytest.raises(lk.LayoutError, match=r"^error: shape \(%d,%d\)" % (rows, cols)):
            t.conflicts(32, rows, cols, 0)


def test_bank_view():
    v = lk.TileLayout("S[(8,64):(64,1)]").bank_view(16, "128B")
    # (i, 0) = flat 64 i sits at address 72 i (Swizzle(3,3,3)): word 36 i,
    # line i, bank 4 i; the view spans 8 lines of 128 bytes.
    assert (v.first_line, v.line_count, v.dtype_bits) == (0, 8, 16)
    assert all(v.lines[i][4 * i][0] == 64 * i for i in range(8))


def test_presets():
    # The preset records of the api (the CLI's `tile presets --json`).
    presets = lk.tile_presets()
    assert presets
    for r in presets:
        assert set(r) == {"name", "layout", "shape", "summary"}
        p = lk.TileLayout.preset(r["name"])
        assert repr(p) == r["layout"]
