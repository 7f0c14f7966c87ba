"""Pictures of layouts with matplotlib (pure Python over the C++ core).

Every ``draw_*`` function returns a :class:`matplotlib.figure.Figure`
(shown inline by Jupyter) and, given ``filename``, also saves it: the
extension picks the format (``.svg``, ``.png``, ``.pdf``).  The pictures
are the CLI's (``layoutkit show --svg``, ``layoutkit hw atom --svg``): the
same cells, labels and fills (a layout's cell is filled by offset mod 8
from the CLI's eight light colours; an atom's by thread from its twelve).

Size cap: a picture has at most ``limits["draw_cells"]`` cells (65,536,
the cap of ``layoutkit show``) and reads at most ``limits["draw_inputs"]``
inputs (1,048,576 hardware locations of a linear layout or TV layout);
both are counted before any work and a larger request raises
``LayoutError`` naming the count and the cap.  Cells are one
``PolyCollection`` (one artist); labels, a text each, are drawn up to
1,024 cells per figure while they fit at 5 points or more (else the fills
alone, with a note in the title).

Example::

    >>> import layoutkit as lk
    >>> fig = lk.draw_layout(lk.Layout((4, 8), (8, 1)))
    >>> fig.axes[0].get_title()
    '(4,8):(8,1)'
"""

from __future__ import annotations

import io

from . import _layoutkit as _lk

# The CLI's fills: layouts (offset mod 8) and thread-coloured grids.
OFFSET_FILLS = ["#f4cccc", "#fce5cd", "#fff2cc", "#d9ead3",
                "#d0e0e3", "#cfe2f3", "#d9d2e9", "#ead1dc"]
THREAD_FILLS = OFFSET_FILLS + ["#e6b8af", "#b6d7a8", "#a4c2f4", "#ffe599"]

# Labelled cells per figure: glyphs cost the most to render.
_MAX_LABELLED_CELLS = 1024
# Columns one panel row shows; wider tables wrap (draw_swizzle).
_WRAP_COLUMNS = 32


def _limit(name):
    return int(_lk.limits[name])


def _check_cells(what, cells, inputs=0):
    """Refuses a picture of more than limits['draw_cells'] cells or
    limits['draw_inputs'] inputs, before any work."""
    if cells > _limit("draw_cells"):
        raise _lk.LayoutError(
            f"{what}: {cells} cells exceed the drawing limit of {_limit('draw_cells')} "
            f"cells (layoutkit.limits['draw_cells']); draw a tile of it")
    if inputs > _limit("draw_inputs"):
        raise _lk.LayoutError(
            f"{what}: {inputs} inputs exceed the drawing limit of {_limit('draw_inputs')} "
            f"(layoutkit.limits['draw_inputs']); draw a sublayout of it")


def _pyplot():
    import matplotlib
    if matplotlib.get_backend().lower() not in ("agg", "svg") and \
            "inline" not in matplotlib.get_backend().lower():
        try:  # headless machines: no display to open
            import os
            if not os.environ.get("DISPLAY"):
                matplotlib.use("Agg")
        except Exception:
            pass
    import matplotlib.pyplot as plt
    return plt


def _finish(fig, filename):
    if filename is not None:
        fig.savefig(filename, bbox_inches="tight")
    return fig


def to_svg(fig) -> str:
    """The SVG text of a figure (what Jupyter's ``_repr_svg_`` shows)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    _pyplot().close(fig)
    return buf.getvalue()


def _grid(ax, labels, fills, title, row_labels=None, col_labels=None,
          max_labelled=_MAX_LABELLED_CELLS):
    """Draws a rows x cols table of filled cells on ``ax`` as one
    PolyCollection (a collection of patches), labelled when it has at most
    `max_labelled` cells."""
    import numpy as np
    from matplotlib.collections import PolyCollection
    rows, cols = len(labels), len(labels[0]) if labels else 0
    # Unit squares at (c, r), row-major: vertices built in one numpy step.
    r, c = np.divmod(np.arange(rows * cols), max(1, cols))
    corners = np.array([[0, 0], [1, 0], [1, 1], [0, 1]])
    verts = np.stack([c, r], axis=1)[:, None, :] + corners[None, :, :]
    ax.add_collection(PolyCollection(
        verts, facecolors=[f for row in fills for f in row], edgecolors="#333333",
        linewidths=0.6 if rows * cols <= 1024 else 0.3))
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    font = _label_rows(ax, labels, rows, cols) if rows * cols <= max_labelled else 0
    if not font and rows * cols:
        title += f"\n(labels omitted: {rows * cols} cells)"
    tick = max(5.0, min(8.0, font or 6.0))
    step_c, step_r = max(1, cols // 32), max(1, rows // 32)
    ax.set_xticks([c + 0.5 for c in range(0, cols, step_c)])
    ax.set_yticks([r + 0.5 for r in range(0, rows, step_r)])
    ax.set_xticklabels((col_labels or [str(c) for c in range(cols)])[::step_c], fontsize=tick)
    ax.set_yticklabels((row_labels or [str(r) for r in range(rows)])[::step_r], fontsize=tick)
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for s in ax.spines.values():
        s.set_visible(False)
    ax.set_title(title, fontsize=9, family="monospace", pad=14)


def _label_rows(ax, labels, rows, cols):
    """Writes each cell's label centred in it (the callers cap the labelled
    cells per figure at _MAX_LABELLED_CELLS: a Text costs about a
    millisecond to draw).  The font fits the longest line at 0.6 em per
    character and every line at 1.2 em, at most 10 points; returns it, or
    0 under 5 points (unreadable at the default size)."""
    ax.apply_aspect()
    fig, pos = ax.figure, ax.get_position()
    cell = 72 * min(pos.width * fig.get_figwidth() / max(1, cols),
                    pos.height * fig.get_figheight() / max(1, rows))
    longest = _longest(labels)
    lines = max((s.count("\n") + 1 for row in labels for s in row), default=1)
    font = min(10.0, 0.85 * cell / (0.6 * max(2, longest)), 0.8 * cell / (1.2 * lines))
    if font < 5.0:
        return 0
    for r, row in enumerate(labels):
        for c, text in enumerate(row):
            if text:
                ax.text(c + 0.5, r + 0.5, text, ha="center", va="center",
                        fontsize=font, family="monospace", linespacing=1.1)
    return font


def _cell_in(longest):
    """A cell's width in inches: room for about `longest` characters."""
    return min(1.0, max(0.32, 0.075 * longest + 0.1))


def _figure(panels, rows, cols, longest=3, vertical=False):
    """A figure of `panels` rows x cols tables, side by side (or stacked
    when `vertical`); a cell fits `longest` label characters, and the
    tables stay within about 24 x 18 inches (readable at 100 dpi)."""
    plt = _pyplot()
    labelled = panels * rows * cols <= _MAX_LABELLED_CELLS
    cell = _cell_in(longest) if labelled else 0.12
    across, down = (cols, rows * panels) if vertical else (cols * panels, rows)
    cell = min(cell, 24.0 / max(1, across), 16.0 / max(1, down))
    w, h = cols * cell + 1.2, rows * cell + 1.4
    shape = (panels, 1) if vertical else (1, panels)
    size = (w, h * panels) if vertical else (w * panels, h)
    fig, axes = plt.subplots(*shape, figsize=size, squeeze=False)
    fig.subplots_adjust(left=0.06, right=0.98, bottom=0.03, top=0.9,
                        wspace=0.1, hspace=0.2)
    return fig, list(axes.ravel())


def _single(labels, fills, title):
    """A figure of one table (``_figure`` and ``_grid``): (fig, ax)."""
    fig, (ax,) = _figure(1, len(labels), len(labels[0]) if labels else 0,
                         _longest(labels))
    _grid(ax, labels, fills, title)
    return fig, ax


def _longest(labels):
    """The longest line of any label."""
    return max((len(line) for row in labels for s in row for line in s.split("\n")),
               default=1)


# ----------------------------------------------------------------------------
# Offsets of a layout
# ----------------------------------------------------------------------------

def layout_table(layout):
    """The CLI's table of a cute layout as a (rows, cols) numpy array
    (``tabulate``, the engine's table of ``layoutkit show``).

    Rank 2: cell (r, c) = L(r, c) (rows = size of mode 0); rank 0 or 1: one
    row of L(i).  A swizzled layout gives Sw(off + L(..)).

    >>> layout_table(Layout((2, 2), (2, 1))).tolist()
    [[0, 1], [2, 3]]
    """
    inner = layout.layout if isinstance(layout, _lk.ComposedLayout) else layout
    _check_cells("draw_layout", inner.size())
    return _lk.tabulate(layout)


def draw_layout(layout, filename=None, *, shape=None, dtype_bits=None):
    """Draws a layout as the CLI's ``show --svg`` table.

    * cute ``Layout`` / ``ComposedLayout``: cell (r, c) holds L(r, c),
      filled by offset mod 8;
    * ``TileLayout``: the logical elements (``shape``, default (size/last,
      last)) labelled with their first hardware coordinate, filled by owner;
    * ``LinearLayout``: a distributed layout (dim0, dim1) labelled
      T<thread>R<register> like ``draw_plan``'s panels; an offset layout as
      its offsets.

    >>> fig = draw_layout(Layout((4, 8), (8, 1)), "layout.svg")  # doctest: +SKIP
    """
    if isinstance(layout, (_lk.Layout, _lk.ComposedLayout)):
        table = layout_table(layout)
        labels = [[str(v) for v in row] for row in table.tolist()]
        fills = [[OFFSET_FILLS[v % 8] for v in row] for row in table.tolist()]
        return _finish(_single(labels, fills, repr(layout))[0], filename)
    if isinstance(layout, _lk.TileLayout):
        return _finish(_draw_tile(layout, shape), filename)
    if isinstance(layout, _lk.LinearLayout):
        return _finish(_draw_linear(layout), filename)
    raise TypeError("draw_layout takes a Layout, ComposedLayout, TileLayout or LinearLayout")


def _tile_shape(tile, shape):
    if shape is not None:
        return tuple(shape) if len(shape) == 2 else (1, _lk.size(tuple(shape)))
    size = tile.size()
    last = tile.shard[-1][0] if len(tile.shard) > 1 else size
    return (size // last, last)


def _draw_tile(tile, shape):
    rows, cols = _tile_shape(tile, shape)
    _check_cells("draw_layout", rows * cols)
    short = {a: a == "m" or _lk.is_owner_axis(a) for a in tile.eval(0, limit=1)[0]}
    labels, fills = [], []
    for r in range(rows):
        lrow, frow = [], []
        for c in range(cols):
            point = tile.eval(r * cols + c, limit=1)[0]
            lrow.append(" ".join(f"{k[0] if short[k] else k}{v}" for k, v in point.items()))
            frow.append(THREAD_FILLS[_lk.thread_index(point) % len(THREAD_FILLS)])
        labels.append(lrow)
        fills.append(frow)
    return _single(labels, fills, repr(tile))[0]


def _owner_grid(layout, what="draw_layout"):
    """(labels, fills, rows, cols) of a distributed linear layout:
    element (dim0, dim1) <- T<thread>R<register> of its first holder (the
    lowest flat input), from the engine's ``LinearLayout.owner_grid()``."""
    outs = layout.out_dims
    if len(outs) > 2:
        raise _lk.LayoutError("only 1-D and 2-D tensors are drawn")
    rows = outs[0][1] if len(outs) == 2 else 1
    _check_cells(what, rows * outs[-1][1], layout.get_total_in_dim_size())
    rows, cols, cells = layout.owner_grid()
    labels = [[""] * cols for _ in range(rows)]
    fills = [["#ffffff"] * cols for _ in range(rows)]
    for k, cell in enumerate(cells):
        if cell is not None:
            t, reg = cell
            labels[k // cols][k % cols] = f"T{t}\nR{reg}"
            fills[k // cols][k % cols] = THREAD_FILLS[t % len(THREAD_FILLS)]
    return labels, fills, rows, cols


def _draw_linear(layout):
    ins = [d for d, _ in layout.in_dims]
    if any(d in ("lane", "warp", "register") for d in ins):
        labels, fills, _, _ = _owner_grid(layout)
        return _single(labels, fills, "linear layout")[0]
    _check_cells("draw_layout", layout.get_total_in_dim_size())
    table = layout.outputs()[:, 0].reshape(1, -1)
    labels = [[str(v) for v in table[0].tolist()]]
    fills = [[OFFSET_FILLS[v % 8] for v in table[0].tolist()]]
    return _single(labels, fills, "linear layout")[0]


# ----------------------------------------------------------------------------
# TV layouts and atoms
# ----------------------------------------------------------------------------

def _tv_cells(rows, cols, cells):
    """(labels, fills) of a TV grid (``tv_grid``, ``Atom.grid``): cells[r *
    cols + c] the (thread, value) pairs there.  A cell with one holder
    reads T<t> over V<v>; with several, one T<t>V<v> line each; filled by
    the first holder's thread."""
    labels = [["" if not h else f"T{h[0][0]}\nV{h[0][1]}" if len(h) == 1 else
               "\n".join(f"T{t}V{v}" for t, v in h) for h in cells[r * cols:(r + 1) * cols]]
              for r in range(rows)]
    fills = [[THREAD_FILLS[h[0][0] % len(THREAD_FILLS)] if h else "#ffffff"
              for h in cells[r * cols:(r + 1) * cols]] for r in range(rows)]
    return labels, fills


def draw_tv_layout(tv, shape, filename=None):
    """Draws a CuTe TV layout (thread, value) -> index over a (M, N) tile.

    The index i = tv(t, v) is the element (i mod M, i div M) (column-major,
    CuTe's convention); the cell reads T<t>V<v> (all holders, '/'
    separated), filled by thread.

    >>> fig = draw_tv_layout(Layout(((4, 8), 2), ((16, 1), 8)), (8, 8))  # doctest: +SKIP
    """
    _check_cells("draw_tv_layout", _lk.size(tuple(shape)), tv.size())
    labels, fills = _tv_cells(*_lk.tv_grid(tv, tuple(shape)))
    return _finish(_single(labels, fills, repr(tv))[0], filename)


def draw_mma_atom(atom, filename=None):
    """Draws a hardware atom as ``layoutkit hw atom --svg``: each element of
    the operand's logical shape reads T<thread>V<value>, filled by thread.
    ``atom``: an ``Atom``, an atom name, or an instruction name (then every
    operand of it, side by side: A, B, C/D).

    >>> fig = draw_mma_atom("mma.m16n8k16.f16.A")  # doctest: +SKIP
    """
    chosen = _atoms_named(atom) if isinstance(atom, str) else [atom]
    grids = [_tv_cells(*a.grid()) for a in chosen]
    rows = max(len(g[0]) for g in grids)
    cols = max(len(g[0][0]) for g in grids)
    fig, axes = _figure(len(chosen), rows, cols, max(_longest(g[0]) for g in grids))
    for ax, a, (labels, fills) in zip(axes, chosen, grids):
        _grid(ax, labels, fills, a.name, max_labelled=_MAX_LABELLED_CELLS // len(chosen))
    return _finish(fig, filename)


def _atoms_named(name):
    """The atoms a name selects, as `layoutkit hw atoms` prints them: an
    atom's full name ('mma.m16n8k16.f16.A'), the name without the operand
    ('mma.m16n8k16.f16': its operands), or an instruction with one element
    type ('ldmatrix.x4'); an instruction of several element types is
    refused with the names to choose from."""
    try:
        return [_lk.find_atom(name)]
    except _lk.LayoutError:
        pass
    every = _lk.atoms()
    chosen = [a for a in every if a.name.startswith(name + ".")] or \
        [a for a in every if a.instruction == name]
    if not chosen:
        raise _lk.LayoutError(f"no atom or instruction named '{name}' "
                              "(layoutkit.atoms() lists them)")
    groups = sorted({a.name.rsplit(".", 1)[0] for a in chosen
                     if a.operand in ("A", "B", "C")})
    if len(groups) > 1:
        raise _lk.LayoutError(f"'{name}' names {len(groups)} atom groups; choose one of: "
                              + ", ".join(groups))
    return chosen


# ----------------------------------------------------------------------------
# Swizzles and banks
# ----------------------------------------------------------------------------

def draw_swizzle(swizzle, filename=None, *, layout=None, element_bits=16):
    """Draws a swizzle before and after: two tables (stacked, rows wider
    than 32 columns wrapped) of the same row-major
    tile, the left L(r, c), the right Sw(L(r, c)); a cell's fill is its
    4-byte bank group (the 16-byte chunk, address*bytes div 16 mod 8), so
    the chunks that the swizzle moves stand out.

    ``swizzle``: a ``Swizzle`` (the tile is then 2^B rows of 2^(M+S)
    elements, row-major) or a ``ComposedLayout`` (its layout and swizzle).

    >>> fig = draw_swizzle(Swizzle(3, 3, 3))  # doctest: +SKIP
    """
    import numpy as np
    if isinstance(swizzle, _lk.ComposedLayout):
        sw, layout = swizzle.swizzle, swizzle.layout
    else:
        sw = swizzle
        if layout is None:
            _check_cells("draw_swizzle", sw.size())
            rows, cols = 1 << sw.bits, 1 << (sw.base + abs(sw.shift))
            layout = _lk.Layout((rows, cols), (cols, 1))
    before = layout_table(layout)
    after = np.vectorize(sw)(before) if before.size else before
    bytes_ = max(1, element_bits // 8)

    def fill(v):
        return OFFSET_FILLS[(v * bytes_ // 16) % 8]

    # Rows wider than _WRAP_COLUMNS wrap: display row r*k + j shows columns
    # [j*W, (j+1)*W) of row r; the panels stack vertically.
    cols = before.shape[1]
    wrap = min(cols, _WRAP_COLUMNS)
    k = -(-cols // wrap) if cols else 1
    row_labels = [f"{r}" if j == 0 else f"{r}+{j * wrap}" for r in range(before.shape[0])
                  for j in range(k)]

    def wrapped(table):
        labels, fills = [], []
        for row in table.tolist():
            for j in range(k):
                part = row[j * wrap:(j + 1) * wrap]
                labels.append([str(v) for v in part] + [""] * (wrap - len(part)))
                fills.append([fill(v) for v in part] + ["#ffffff"] * (wrap - len(part)))
        return labels, fills

    panels = [wrapped(before), wrapped(after)]
    longest = max(_longest(p[0]) for p in panels)
    fig, axes = _figure(2, len(panels[0][0]), wrap, longest, vertical=True)
    for ax, (labels, fills), title in zip(axes, panels, (f"{layout!r}", f"{sw!r} o {layout!r}")):
        _grid(ax, labels, fills, title, row_labels=row_labels,
              max_labelled=_MAX_LABELLED_CELLS // 2)
    return _finish(fig, filename)


def _word_label(elements):
    """A word's elements side by side, two per line (8-bit words: 2 x 2)."""
    pairs = [elements[i:i + 2] for i in range(0, len(elements), 2)]
    return "\n".join(" ".join(str(v) for v in p) for p in pairs)


def draw_banks(memory, dtype_bits, filename=None, *, swizzle=None):
    """Draws shared memory as lines of 32 four-byte banks: cell (line,
    bank) holds the element stored there (bank = floor(a*bytes/4) mod 32),
    filled by the element's row of 8 (index div 8 mod 8).

    ``memory``: a ``TileLayout`` (element -> address on m), ``swizzle``: a
    mode name ('32B', '64B', '128B') applied for ``dtype_bits``.  A cell
    lists every element of its word (32 / dtype_bits of them side by
    side, two per line: "16 17" for f16, "4 5" over "6 7" for 8 bits).

    >>> fig = draw_banks(TileLayout("S[(8,64):(64,1)]"), 16, swizzle="128B")  # doctest: +SKIP
    """
    # One cell per 4-byte word: a tile of n elements fills at least
    # n * bits / 32 cells; refused before the bank view is built.
    _check_cells("draw_banks", -(-memory.size() * dtype_bits // 32))
    words = memory.bank_words(dtype_bits, swizzle)
    _check_cells("draw_banks", words.shape[0] * words.shape[1])
    labels, fills = [], []
    for line in words.tolist():
        labels.append([_word_label([v for v in w if v >= 0]) for w in line])
        fills.append([("#ffffff" if w[0] < 0 else OFFSET_FILLS[(w[0] // 8) % 8]) for w in line])
    title = f"{memory!r}, {dtype_bits}-bit" + (f", {swizzle} swizzle" if swizzle else "")
    fig, ax = _single(labels, fills, title)
    ax.set_xlabel("bank")
    ax.set_ylabel("line (128 B)")
    return _finish(fig, filename)


# ----------------------------------------------------------------------------
# Plans
# ----------------------------------------------------------------------------

def draw_plan(plan, filename=None):
    """Draws a conversion plan: the source and destination ownership of the
    tensor side by side (each element T<thread>R<register>, filled by
    thread), titled with the strategy and the cost.

    >>> p = plan("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "((4,8),(2,2)):((32,1),(16,8))", "f16", shape=(16, 8))
    >>> fig = draw_plan(p)  # doctest: +SKIP
    """
    src = _owner_grid(plan.src, "draw_plan")
    dst = _owner_grid(plan.dst, "draw_plan")
    fig, axes = _figure(2, max(src[2], dst[2]), max(src[3], dst[3]),
                        max(_longest(src[0]), _longest(dst[0])))
    _grid(axes[0], src[0], src[1], "source", max_labelled=_MAX_LABELLED_CELLS // 2)
    _grid(axes[1], dst[0], dst[1], "destination", max_labelled=_MAX_LABELLED_CELLS // 2)
    cost = plan.cost
    fig.suptitle(f"{plan.strategy}: {cost['instructions']} instructions, "
                 f"{cost['shuffles']} shuffles, {cost['wavefronts']} wavefronts, "
                 f"{cost['barriers']} barriers, {cost['cycles']:.1f} cycles",
                 family="monospace", fontsize=10)
    return _finish(fig, filename)


__all__ = ["draw_layout", "draw_tv_layout", "draw_swizzle", "draw_banks",
           "draw_mma_atom", "draw_plan", "to_svg", "layout_table",
           "OFFSET_FILLS", "THREAD_FILLS"]
