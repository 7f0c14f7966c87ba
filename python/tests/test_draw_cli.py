"""The pictures agree with the CLI's SVG (`layoutkit show --svg`,
`layoutkit hw atom --svg`): the same cell texts and fills, cell by cell,
row-major. Skipped when the CLI was not built beside the module."""
import pathlib
import re
import subprocess

import pytest
from matplotlib.colors import to_hex

import layoutkit as lk

CLI = pathlib.Path(lk.__file__).resolve().parents[2] / "tools" / "layoutkit"
pytestmark = pytest.mark.skipif(not CLI.exists(), reason="the layoutkit CLI is not built")


def cli_cells(*args):
    svg = subprocess.run([str(CLI), *args, "--svg", "-"], check=True,
                         capture_output=True, text=True).stdout
    fills = re.findall(r'<rect [^>]*fill="(#[0-9a-f]{6})"', svg)
    return fills, svg


def our_cells(fig):
    ax = fig.axes[0]
    # The cells are one collection of polygons (draw.py), in the CLI's order.
    fills = [to_hex(c) for coll in ax.collections for c in coll.get_facecolors()]
    texts = [t.get_text() for t in ax.texts]
    return fills, texts


@pytest.mark.parametrize("text", ["(4,8):(8,1)", "Sw<3,4,3> o (8,64):(64,1)", "(2,(2,4)):(8,(1,2))"])
def test_show_svg(text):
    fills, svg = cli_cells("show", text)
    ours, texts = our_cells(lk.draw_layout(lk.parse(text)))
    assert ours == fills
    for t in texts:
        assert f">{t}</text>" in svg


def test_atom_svg():
    name = "mma.m16n8k16.f16.A"
    fills, svg = cli_cells("hw", "atom", name)
    ours, texts = our_cells(lk.draw_mma_atom(name))
    assert ours == fills
    for t in texts:  # the picture breaks "T0V0" over two lines, the SVG not
        assert f">{t.replace(chr(10), '')}</text>" in svg
