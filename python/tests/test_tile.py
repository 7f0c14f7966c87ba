"""tile: TileLayout S/R/O, eval, owners, holders, banks, conflicts, presets."""
import pytest

import layoutkit as lk

T = "S[(8,4,2):(4@laneid,1@laneid,1)]"


def test_eval_owners_holds():
    t = lk.TileLayout(T)
    # x = 9 -> digits over (8,4,2): (1,0,1) -> laneid 4*1 + 0, m 1.
    assert t.eval(9) == [{"laneid": 4, "m": 1}]
    assert t.owners(9) == [({"laneid": 4}, {"m": 1})]
    # laneid 4 = (1, 0): x = 1*8 + 0*2 + m for m in {0,1}.
    assert t.holds(laneid=4) == [8, 9]
    assert t.size() == 64 and t.shard == [(8, 4, "laneid"), (4, 1, "laneid"), (2, 1, "m")]


def test_replica_and_offset():
    t = lk.TileLayout("S[8:1@laneid] + R[2:16@laneid] + 3@warpid")
    # replica iter adds 0 or 16 on laneid; the offset 3 on warpid.
    assert t.eval(5) == [{"laneid": 5, "warpid": 3}, {"laneid": 21, "warpid": 3}]
    assert t.replica == [(2, 16, "laneid")] and t.offset == {"warpid": 3}


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


def test_presets():
    names = [p[0] for p in lk.tile_presets()]
    assert names
    p = lk.TileLayout.preset(names[0])
    assert repr(p) == lk.tile_presets()[0][2]
