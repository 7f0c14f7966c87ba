"""LayoutKit: tensor layouts in three models and conversions between them.

* cute (CuTe's layout algebra, pycute's names): ``Layout``, ``Swizzle``,
  ``ComposedLayout``, ``composition``, ``complement``, ``logical_divide``, ...
* tile (TIRx tile layouts): ``TileLayout`` (``S[..] + R[..] + O``), owners,
  holders, bank grids and conflicts, presets;
* linear (Triton's linear layouts over F2): ``LinearLayout`` with
  ``from_bases``, ``compose``, ``invert_and_compose``, ``pseudoinvert``,
  ``apply``, ``get_free_variable_masks``; ``standard_layout``, ``blocked``,
  ``nvidia_mma``; ``to_f2_matrix`` / ``from_f2_matrix``;
* hardware: ``atoms``/``find_atom``, descriptors, access analyses;
* planning: ``plan(src, dst, dtype=...)`` with the strategy, the cost and
  the CUDA text; ``reduce(layout, axis)`` and ``gather(src, index, axis,
  dtype)``; each result's attributes are its record's keys (``to_dict()``);
* drawing (matplotlib): ``layoutkit.draw``.

Every failure raises :class:`LayoutError` (a ``ValueError``) with the
library's diagnostic: ``message``, ``column``, ``line``, ``offset``,
``source`` and ``notes``.  The C++ core does the work; see docs/python.md.
"""

from ._layoutkit import *  # noqa: F401,F403  (every public name, classes too)
from ._tuples import (  # noqa: F401  (pycute's helpers on plain tuples)
    LayoutBase, is_int, is_tuple, is_layout, signum, inner_product, tuple_max,
    elem_scale, crd2crd, shiftl, shiftr, hier_unzip,
)
from . import draw  # noqa: F401
from .draw import (  # noqa: F401
    draw_layout, draw_tv_layout, draw_swizzle, draw_banks, draw_mma_atom,
    draw_plan,
)

__version__ = "0.1.0"


def _svg(obj):
    """The SVG of ``draw_layout(obj)``: Jupyter shows layouts as pictures."""
    try:
        return draw.to_svg(draw.draw_layout(obj))
    except Exception:  # a layout without a 2-D picture shows as text
        return None


Layout._repr_svg_ = _svg
ComposedLayout._repr_svg_ = _svg
TileLayout._repr_svg_ = _svg
