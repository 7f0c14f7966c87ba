"""Drawing: every draw_* function writes SVG and PNG files."""
import layoutkit as lk


def check(fig, tmp_path, name):
    for ext in ("svg", "png"):
        path = tmp_path / f"{name}.{ext}"
        fig.savefig(path)
        assert path.stat().st_size > 1000
    assert "<svg" in lk.draw.to_svg(fig)


def test_draw_layout_cells(tmp_path):
    fig = lk.draw_layout(lk.Layout((4, 8), (8, 1)), tmp_path / "l.svg")
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    # Cell (1, 2) = 10 is drawn, and fills follow the CLI: offset mod 8.
    assert "10" in texts and ax.get_title() == "(4,8):(8,1)"
    assert (tmp_path / "l.svg").read_text().count("<svg") == 1
    assert lk.draw.layout_table(lk.Layout((4, 8), (8, 1)))[1, 2] == 10
    # The engine's table (api::tabulate): (2,2):(2,1) has L(r, c) = 2r + c.
    assert lk.tabulate(lk.Layout((2, 2), (2, 1))).tolist() == [[0, 1], [2, 3]]
    try:
        lk.tabulate(lk.Layout((2, 2, 2), (1, 2, 4)))
        raise AssertionError("rank 3 not refused")
    except lk.LayoutError as e:
        assert "has rank 3" in str(e)


def test_draw_everything(tmp_path):
    check(lk.draw_tv_layout(lk.Layout(((4, 8), 2), ((16, 1), 8)), (8, 8)), tmp_path, "tv")
    check(lk.draw_swizzle(lk.Swizzle(3, 3, 3)), tmp_path, "sw")
    check(lk.draw_banks(lk.TileLayout("S[(8,64):(64,1)]"), 16, swizzle="128B"), tmp_path, "banks")
    fig = lk.draw_mma_atom("mma.m16n8k16.f16.A")
    # Element (row 1, col 2) of A is thread 1 value 2: "T1" over "V2".
    assert "T1\nV2" in [t.get_text() for t in fig.axes[0].texts]
    check(fig, tmp_path, "atom")
    p = lk.plan("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "((4,8),(2,2)):((32,1),(16,8))", "f16", shape=(16, 8))
    check(lk.draw_plan(p), tmp_path, "plan")
    check(lk.draw_layout(lk.TileLayout("S[(8,4,2):(4@laneid,1@laneid,1)]")), tmp_path, "tile")
    assert lk.Layout((2, 2))._repr_svg_().lstrip().startswith("<?xml")


def test_tv_grid_is_the_engines():
    # (2,2):(1,2): tv(t, v) = t + 2v -> cell (t, v) of a 2 x 2 tile.
    assert lk.tv_grid(lk.Layout((2, 2), (1, 2)), (2, 2)) == \
        (2, 2, [[(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]])
    # (2,2):(1,0): both values of thread 1 are index 1; thread-major.
    assert lk.tv_grid(lk.Layout((2, 2), (1, 0)), (2,))[2][1] == [(1, 0), (1, 1)]
    fig = lk.draw_tv_layout(lk.Layout((2, 2), (1, 0)), (2,))
    assert "T1V0\nT1V1" in [t.get_text() for t in fig.axes[0].texts]
    # Index 3 is outside a tile of 3 elements: the engine names the pair.
    try:
        lk.draw_tv_layout(lk.Layout((2, 2), (1, 2)), (3,))
        raise AssertionError("not refused")
    except lk.LayoutError as e:
        assert "thread 1, value 1 maps to index 3" in str(e)


def test_cells_are_one_collection_and_labels_capped():
    # 64x64: 4096 cells in one PolyCollection; over the 1,024-label cap
    # the title says so and no text is drawn.
    fig = lk.draw_layout(lk.Layout((64, 64), (64, 1)))
    ax = fig.axes[0]
    assert len(ax.collections) == 1 and len(ax.patches) == 0
    assert len(ax.collections[0].get_paths()) == 64 * 64
    assert len(ax.texts) == 0 and "labels omitted: 4096 cells" in ax.get_title()
    # 16x16 keeps one label per cell.
    small = lk.draw_layout(lk.Layout((16, 16), (16, 1))).axes[0]
    assert len(small.texts) == 256 and len(small.collections) == 1


def test_pictures_fit_their_default_size():
    # The 8x64 swizzle tile wraps to 32 columns and stacks its two panels:
    # no longer a strip (the width and height stay within 2x of each other).
    fig = lk.draw_swizzle(lk.Swizzle(3, 3, 3))
    w, h = fig.get_size_inches()
    assert 0.5 < w / h < 2 and max(w, h) <= 20
    before, after = fig.axes
    assert before.get_xlim() == (0, 32) and before.get_ylim() == (16, 0)
    # Row 1 of the swizzled tile starts Sw(64) = 64 ^ (1 << 3) = 72.
    assert after.texts[2 * 32].get_text() == "72"
    for f in (lk.draw_layout(lk.Layout((64, 64), (64, 1))),
              lk.draw_mma_atom("mma.m16n8k16.f16")):
        assert max(f.get_size_inches()) <= 36


def test_bank_cells_show_the_whole_word():
    # f16: word w of line 0 holds elements 2w and 2w+1, side by side.
    fig = lk.draw_banks(lk.TileLayout("S[(8,64):(64,1)]"), 16)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts[:3] == ["0 1", "2 3", "4 5"]
    # 8-bit: four elements per word, two per line.
    fig8 = lk.draw_banks(lk.TileLayout("S[(4,128):(128,1)]"), 8)
    assert fig8.axes[0].texts[1].get_text() == "4 5\n6 7"


def test_mma_atom_names_as_hw_atoms_prints_them():
    # The name without the operand selects A, B and C of that type.
    fig = lk.draw_mma_atom("mma.m16n8k16.f16")
    assert [a.get_title() for a in fig.axes] == [
        "mma.m16n8k16.f16.A", "mma.m16n8k16.f16.B", "mma.m16n8k16.f16.C"]
    assert [a.get_title() for a in lk.draw_mma_atom("mma.m16n8k16.bf16").axes][0] == \
        "mma.m16n8k16.bf16.A"
    # An instruction of several element types names the choices.
    import pytest
    with pytest.raises(lk.LayoutError, match="mma.m16n8k16.f16"):
        lk.draw_mma_atom("mma.m16n8k16")
    with pytest.raises(lk.LayoutError, match="no atom"):
        lk.draw_mma_atom("mma.m99")
