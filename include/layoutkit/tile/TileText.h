//===- TileText.h - Text form of tile layouts: parse and print ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The TIRx text form of a TileLayout:
///
///   layout  := shard { "+" term }
///   shard   := "S" "[" iters "]"
///   term    := replica | offset
///   replica := "R" "[" iters "]"
///   offset  := uint [ "@" axis ]                 -- "5" is "5@m"
///   iters   := "(" extent { "," extent } ")" ":" "(" stride { "," stride } ")"
///            | extent ":" stride                  -- a single iter
///   extent  := uint                               -- at least 1
///   stride  := uint [ "@" axis ]                  -- "4" is "4@m"; 0
///   broadcasts axis    := a registered axis name (Axis.h)
///
/// Blanks are allowed between tokens. Both parenthesized lists hold the same
/// number of entries. A replica may list several iters
/// (`R[(2,3):(4@warpid,1)]`) or come as several terms (`R[2:4@warpid] +
/// R[3:1]`); replicas and offsets may be mixed in any order; an axis has at
/// most one offset.
///
/// Printing (printTileLayout, TileLayout::str()) gives the canonical form:
/// the shard always parenthesized, one `R[e:s]` term per replica iter, then
/// the offsets in the order they were written; no blanks inside the
/// brackets, ` + ` between terms, and `@m` left out:
///
///   S[8:1]                                -> "S[(8):(1)]"
///   S[ (8,2) : (4@laneid , 1) ]+R[(2,3):(4@warpid,1)]
///                                         -> "S[(8,2):(4@laneid,1)] +
///                                         R[2:4@warpid] + R[3:1]"
///   S[(4):(1)] + 2@m + 5@warpid           -> "S[(4):(1)] + 2 + 5@warpid"
///
/// Round trip: parse(print(L)) == L for every layout, and print(parse(t)) == t
/// for every canonical text t (tested on every oracle text and on random
/// layouts).
///
/// Diagnostics report the first error with its range, e.g.
///
///   parseTileLayout("S[(8,2):(4@lane,1)]")
///     error: unknown axis 'lane' at column 12
///       S[(8,2):(4@lane,1)]
///                  ^^^^
///     note: known axes: m, laneid, warpid, ...
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TILE_TILETEXT_H
#define LAYOUTKIT_TILE_TILETEXT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/tile/TileLayout.h"

#include <string>
#include <string_view>

namespace lk::tile {

/// Parses a whole text (see the grammar above).
Expected<TileLayout> parseTileLayout(std::string_view text);

/// The canonical text of `l`.
std::string printTileLayout(const TileLayout &l);

/// "4@laneid", or "4" on the memory axis m.
std::string strideText(int64_t stride, Axis axis);

} // namespace lk::tile

#endif // LAYOUTKIT_TILE_TILETEXT_H
