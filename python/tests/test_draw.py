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


def test_draw_everything(tmp_path):
    check(lk.draw_tv_layout(lk.Layout(((4, 8), 2), ((16, 1), 8)), (8, 8)), tmp_path, "tv")
    check(lk.draw_swizzle(lk.Swizzle(3, 3, 3)), tmp_path, "sw")
    check(lk.draw_banks(lk.TileLayout("S[(8,64):(64,1)]"), 16, swizzle="128B"), tmp_path, "banks")
    fig = lk.draw_mma_atom("mma.m16n8k16.f16.A")
    assert "T1V2" in [t.get_text() for t in fig.axes[0].texts]
    check(fig, tmp_path, "atom")
    p = lk.plan("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "((4,8),(2,2)):((32,1),(16,8))", shape=(16, 8))
    check(lk.draw_plan(p), tmp_path, "plan")
    check(lk.draw_layout(lk.TileLayout("S[(8,4,2):(4@laneid,1@laneid,1)]")), tmp_path, "tile")
    assert lk.Layout((2, 2))._repr_svg_().lstrip().startswith("<?xml")
