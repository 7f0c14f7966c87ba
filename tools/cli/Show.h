//===- Show.h - Offset tables of layouts: text and SVG -----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `layoutkit show` draws a layout as a 2-D table of offsets, like CuTe's
/// print_layout:
///
///  * rank 2: mode 0 indexes the rows, mode 1 the columns. Each mode may be
///    hierarchical; cell (r, c) holds L((r, c)), each of r and c split
///    colexicographically inside its own mode (crd2idx on the tuple (r,c)).
///  * rank 1 (and the rank-0 layout `():()`): one row, cell (0, c) = L(c).
///  * rank > 2: refused with a note suggesting group_modes.
///  * a swizzled layout `Sw<B,M,S> o [k o] L` shows Sw(k + L(r, c)).
///  * a basis-stride layout shows the codomain tuple of each cell.
///
/// Example, (2,3):(3,1):
///
///   (2,3):(3,1)
///       0   1   2
///     +---+---+---+
///   0 | 0 | 1 | 2 |
///     +---+---+---+
///   1 | 3 | 4 | 5 |
///     +---+---+---+
///
/// The SVG picture has one <rect> and one <text> per cell (the offset,
/// colored by offset mod 8; for basis strides by the sum of the codomain
/// coordinates mod 8) plus one <text> header per row and per column.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_SHOW_H
#define LAYOUTKIT_TOOLS_SHOW_H

#include "layoutkit/api/Query.h"
#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Swizzle.h"

#include <string>
#include <vector>

namespace lk::cli {

/// The table (api::OffsetTable, api::tabulate) is the front-end API's;
/// this file draws it.
using api::OffsetTable;

/// The print_layout-style text table, ending with '\n'.
std::string renderTable(const OffsetTable &table);

/// A standalone SVG 1.1 document of the table.
std::string renderSvg(const OffsetTable &table);

/// The palette slot (0..7) of a cell.
int paletteSlot(const IntTuple &offset);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_SHOW_H
