"""Pictures of layouts with matplotlib (pure Python over the C++ core).

Every ``draw_*`` function returns a :class:`matplotlib.figure.Figure`
(shown inline by Jupyter) and, given ``filename``, also saves it: the
extension picks the format (``.svg``, ``.png``, ``.pdf``).  The pictures
are the CLI's (``layoutkit show --svg``, ``layoutkit hw atom --svg``): the
same cells, labels and fills (a layout's cell is filled by offset mod 8
from the CLI's eight light colours; an atom's by thread from its twelve).

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

_MAX_LABELLED_CELLS = 4096


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
          font=None):
    """Draws a rows x cols table of labelled, filled cells on ``ax``."""
    from matplotlib.patches import Rectangle
    rows, cols = len(labels), len(labels[0]) if labels else 0
    longest = max((len(s) for row in labels for s in row), default=1)
    if font is None:
        font = max(3.0, min(10.0, 60.0 / max(1, longest) ** 0.5 / max(1, cols) ** 0.35))
    show_text = rows * cols <= _MAX_LABELLED_CELLS
    for r in range(rows):
        for c in range(cols):
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor=fills[r][c],
                                   edgecolor="#333333", linewidth=0.6))
            if show_text and labels[r][c]:
                ax.text(c + 0.5, r + 0.5, labels[r][c], ha="center",
                        va="center", fontsize=font, family="monospace")
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_xticks([c + 0.5 for c in range(cols)])
    ax.set_yticks([r + 0.5 for r in range(rows)])
    ax.set_xticklabels(col_labels or [str(c) for c in range(cols)],
                       fontsize=max(3, font - 1))
    ax.set_yticklabels(row_labels or [str(r) for r in range(rows)],
                       fontsize=max(3, font - 1))
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for s in ax.spines.values():
        s.set_visible(False)
    ax.set_title(title, fontsize=10, family="monospace", pad=14)


def _figure(panels, rows, cols):
    plt = _pyplot()
    w = min(30.0, max(3.0, 0.55 * cols + 1.0))
    h = min(30.0, max(2.0, 0.45 * rows + 1.2))
    fig, axes = plt.subplots(1, panels, figsize=(w * panels, h), squeeze=False)
    return fig, list(axes[0])


# ----------------------------------------------------------------------------
# Offsets of a layout
# ----------------------------------------------------------------------------

def layout_table(layout):
    """The CLI's table of a cute layout as a (rows, cols) numpy array.

    Rank 2: cell (r, c) = L(r, c) (rows = size of mode 0); rank 0 or 1: one
    row of L(i).  A swizzled layout gives Sw(off + L(..)).

    >>> layout_table(Layout((2, 2), (2, 1))).tolist()
    [[0, 1], [2, 3]]
    """
    inner = layout.layout if isinstance(layout, _lk.ComposedLayout) else layout
    offsets = layout.offsets()
    if inner.rank() == 2 and inner.depth() >= 1:
        rows = _lk.size(inner.shape[0])
        cols = _lk.size(inner.shape[1])
        return offsets.reshape(cols, rows).T
    if inner.rank() > 2:
        raise _lk.LayoutError("a layout of rank > 2 has no table: group its modes first")
    return offsets.reshape(1, -1)


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
        fig, (ax,) = _figure(1, *table.shape)
        _grid(ax, labels, fills, repr(layout))
        return _finish(fig, filename)
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
    owner_axes = ("laneid", "warpid", "tid", "tid_in_wg", "wgid", "cta")
    labels, fills = [], []
    for r in range(rows):
        lrow, frow = [], []
        for c in range(cols):
            point = tile.eval(r * cols + c)[0]
            lrow.append(" ".join(f"{k[0] if k != 'm' else 'm'}{v}" if k in owner_axes + ("m",)
                                 else f"{k}{v}" for k, v in point.items()))
            key = sum(point.get(a, 0) * (1 + 32 * i) for i, a in enumerate(owner_axes))
            frow.append(THREAD_FILLS[key % len(THREAD_FILLS)])
        labels.append(lrow)
        fills.append(frow)
    fig, (ax,) = _figure(1, rows, cols)
    _grid(ax, labels, fills, repr(tile))
    return fig


def _owner_grid(layout):
    """(labels, fills, rows, cols) of a distributed linear layout:
    element (dim0, dim1) <- T<thread>R<register> of its first holder."""
    dims = [d for d, _ in layout.in_dims]
    outs = layout.out_dims
    if len(outs) > 2:
        raise _lk.LayoutError("only 1-D and 2-D tensors are drawn")
    rows = outs[0][1] if len(outs) == 2 else 1
    cols = outs[-1][1]
    table = layout.outputs()
    labels = [[[] for _ in range(cols)] for _ in range(rows)]
    fills = [["#ffffff"] * cols for _ in range(rows)]
    sizes = dict(layout.in_dims)
    for x in range(table.shape[0]):
        rest, coord = x, {}
        for d in dims:
            coord[d] = rest % sizes[d]
            rest //= sizes[d]
        thread = coord.get("lane", 0) + 32 * coord.get("warp", 0) + \
            32 * sizes.get("warp", 1) * coord.get("block", 0)
        r, c = (table[x, 0], table[x, 1]) if len(outs) == 2 else (0, table[x, 0])
        if not labels[r][c]:
            fills[r][c] = THREAD_FILLS[thread % len(THREAD_FILLS)]
        if len(labels[r][c]) < 1:
            labels[r][c].append(f"T{thread}R{coord.get('register', 0)}")
    return [["/".join(s) for s in row] for row in labels], fills, rows, cols


def _draw_linear(layout):
    ins = [d for d, _ in layout.in_dims]
    if any(d in ("lane", "warp", "register") for d in ins):
        labels, fills, rows, cols = _owner_grid(layout)
        fig, (ax,) = _figure(1, rows, cols)
        _grid(ax, labels, fills, "linear layout")
        return fig
    table = layout.outputs()[:, 0].reshape(1, -1)
    labels = [[str(v) for v in table[0].tolist()]]
    fills = [[OFFSET_FILLS[v % 8] for v in table[0].tolist()]]
    fig, (ax,) = _figure(1, 1, table.shape[1])
    _grid(ax, labels, fills, "linear layout")
    return fig


# ----------------------------------------------------------------------------
# TV layouts and atoms
# ----------------------------------------------------------------------------

def _tv_cells(rows, cols, holders):
    """holders: iterable of (row, col, thread, value)."""
    labels = [[""] * cols for _ in range(rows)]
    fills = [["#ffffff"] * cols for _ in range(rows)]
    for r, c, t, v in holders:
        cell = f"T{t}V{v}"
        labels[r][c] = cell if not labels[r][c] else labels[r][c] + "/" + cell
        if fills[r][c] == "#ffffff":
            fills[r][c] = THREAD_FILLS[t % len(THREAD_FILLS)]
    return labels, fills


def draw_tv_layout(tv, shape, filename=None):
    """Draws a CuTe TV layout (thread, value) -> index over a (M, N) tile.

    The index i = tv(t, v) is the element (i mod M, i div M) (column-major,
    CuTe's convention); the cell reads T<t>V<v> (all holders, '/'
    separated), filled by thread.

    >>> fig = draw_tv_layout(Layout(((4, 8), 2), ((16, 1), 8)), (8, 8))  # doctest: +SKIP
    """
    rows, cols = (shape[0], shape[1]) if len(shape) == 2 else (shape[0], 1)
    threads = _lk.size(tv.shape[0])
    values = _lk.size(tv.shape[1]) if tv.rank() > 1 else 1
    offsets = tv.offsets()
    holders = []
    for v in range(values):
        for t in range(threads):
            i = int(offsets[t + v * threads])
            holders.append((i % rows, i // rows, t, v))
    labels, fills = _tv_cells(rows, cols, holders)
    fig, (ax,) = _figure(1, rows, cols)
    _grid(ax, labels, fills, repr(tv))
    return _finish(fig, filename)


def _atom_cells(atom):
    shape = atom.shape
    cols = shape[-1]
    rows = _lk.size(tuple(shape[:-1])) if len(shape) > 1 else 1
    holders = []
    for t in range(atom.threads):
        for v in range(atom.values):
            c = atom.eval(t, v)
            row = 0
            for d in range(len(c) - 1):
                row = row * shape[d] + c[d]
            holders.append((row, c[-1], t, v))
    return rows, cols, holders


def draw_mma_atom(atom, filename=None):
    """Draws a hardware atom as ``layoutkit hw atom --svg``: each element of
    the operand's logical shape reads T<thread>V<value>, filled by thread.
    ``atom``: an ``Atom``, an atom name, or an instruction name (then every
    operand of it, side by side: A, B, C/D).

    >>> fig = draw_mma_atom("mma.m16n8k16.f16.A")  # doctest: +SKIP
    """
    if isinstance(atom, str):
        try:
            chosen = [_lk.find_atom(atom)]
        except _lk.LayoutError:
            chosen = _lk.atoms(instruction=atom)
            if not chosen:
                raise
    else:
        chosen = [atom]
    cells = [_atom_cells(a) for a in chosen]
    rows = max(c[0] for c in cells)
    cols = max(c[1] for c in cells)
    fig, axes = _figure(len(chosen), rows, cols)
    for ax, a, (r, c, holders) in zip(axes, chosen, cells):
        labels, fills = _tv_cells(r, c, holders)
        _grid(ax, labels, fills, a.name)
    return _finish(fig, filename)


# ----------------------------------------------------------------------------
# Swizzles and banks
# ----------------------------------------------------------------------------

def draw_swizzle(swizzle, filename=None, *, layout=None, element_bits=16):
    """Draws a swizzle before and after: two tables of the same row-major
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
            rows, cols = 1 << sw.bits, 1 << (sw.base + sw.shift)
            layout = _lk.Layout((rows, cols), (cols, 1))
    before = layout_table(layout)
    after = np.vectorize(sw)(before) if before.size else before
    bytes_ = max(1, element_bits // 8)

    def fill(v):
        return OFFSET_FILLS[(v * bytes_ // 16) % 8]

    fig, axes = _figure(2, *before.shape)
    for ax, table, title in ((axes[0], before, f"{layout!r}"),
                             (axes[1], after, f"{sw!r} o {layout!r}")):
        _grid(ax, [[str(v) for v in row] for row in table.tolist()],
              [[fill(v) for v in row] for row in table.tolist()], title)
    return _finish(fig, filename)


def draw_banks(memory, dtype_bits, filename=None, *, swizzle=None):
    """Draws shared memory as lines of 32 four-byte banks: cell (line,
    bank) holds the element stored there (bank = floor(a*bytes/4) mod 32),
    filled by the element's row of 8 (index div 8 mod 8).

    ``memory``: a ``TileLayout`` (element -> address on m), ``swizzle``: a
    mode name ('32B', '64B', '128B') applied for ``dtype_bits``.

    >>> fig = draw_banks(TileLayout("S[(8,64):(64,1)]"), 16, swizzle="128B")  # doctest: +SKIP
    """
    grid = memory.banks(dtype_bits, swizzle)
    labels = [[("" if v < 0 else str(v)) for v in row] for row in grid.tolist()]
    fills = [[("#ffffff" if v < 0 else OFFSET_FILLS[(v // 8) % 8]) for v in row]
             for row in grid.tolist()]
    fig, (ax,) = _figure(1, *grid.shape)
    title = f"{memory!r}, {dtype_bits}-bit" + (f", {swizzle} swizzle" if swizzle else "")
    _grid(ax, labels, fills, title)
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

    >>> p = plan("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "((4,8),(2,2)):((32,1),(16,8))", shape=(16, 8))
    >>> fig = draw_plan(p)  # doctest: +SKIP
    """
    src = _owner_grid(plan.src)
    dst = _owner_grid(plan.dst)
    fig, axes = _figure(2, max(src[2], dst[2]), max(src[3], dst[3]))
    _grid(axes[0], src[0], src[1], "source")
    _grid(axes[1], dst[0], dst[1], "destination")
    cost = plan.cost
    fig.suptitle(f"{plan.strategy}: {cost['instructions']} instructions, "
                 f"{cost['shuffles']} shuffles, {cost['wavefronts']} wavefronts, "
                 f"{cost['barriers']} barriers, {cost['cycles']:.1f} cycles",
                 family="monospace", fontsize=10)
    return _finish(fig, filename)


__all__ = ["draw_layout", "draw_tv_layout", "draw_swizzle", "draw_banks",
           "draw_mma_atom", "draw_plan", "to_svg", "layout_table",
           "OFFSET_FILLS", "THREAD_FILLS"]
