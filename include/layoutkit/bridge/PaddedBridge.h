//===- PaddedBridge.h - Cute and tile layouts of any shape to padded linear -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// cuteToLinear and tileToLinear refuse an extent that is not a power of
/// two. This header pads such a layout instead: it rounds the extents up to
/// powers of two, converts the padded layout, and returns a
/// linear::PaddedLayout (hardware -> logical, with the logical shape that
/// masks the padding) together with an exact account of every change.
///
/// ## Padding one layout
///
/// Logical dims. A cute layout's logical dims are its top-level modes (mode
/// i is dim i); a tile layout's are the dims of the logical shape it is
/// given, each covered by its shard iters (tile::groupByShape). A dim of
/// extent n is padded to P = nextPow2(n) by padding its *most major* leaf
/// or iter (cute: the last leaf of the mode; tile: the first iter of the
/// dim) from e to E = nextPow2(e); every other leaf or iter of the dim must
/// already be a power of two (padding one of them would change which
/// logical coordinate an element has).
///
/// Placement. Two ways, tried in order:
///
///  1. exact: only extents change. The padded layout agrees with the
///     original on every valid coordinate; the padding lands on offsets
///     (columns, registers) the original never used. Taken when the padded
///     layout is linear (no two leaves or iters share a bit).
///  2. restride: on each axis (cute: the offset), the leaves with
///     extent > 1 and non-zero stride, sorted by stride d_1 < d_2 < ...,
///     keep their order and gaps: d_k = m_k * d_{k-1} * e_{k-1} (m_k a
///     positive integer) becomes D_k = m_k * D_{k-1} * E_{k-1}, D_1 = d_1.
///     Valid elements move (a stride step says from what to what); the
///     layout then takes prod over the axis of the padded spans.
///
/// A layout for which neither works gets a diagnostic: strides that do not
/// nest (d_k not a multiple of d_{k-1} e_{k-1}: modes interleave or
/// overlap, e.g. (4,2):(1,2)), non-power-of-two inner leaves, or what the
/// underlying bridge refuses (negative or basis strides, offsets, ...).
///
/// Direction. The result is hardware -> logical. A tile layout already is
/// (tileToLinear). A cute layout maps logical -> offset; its padded linear
/// layout (in-dims dim0.. per mode, out-dim offset) is inverted, which needs
/// a bijection of the padded layout onto [0, 2^k) (else a diagnostic).
///
/// ## Examples (derived in tests/bridge/PaddedBridgeTest.cpp)
///
///   cute (4,3):(1,4)      exact: leaf 1 extent 3 -> 4; (4,4):(1,4)
///       -> {offset: [(1,0),(2,0),(0,1),(0,2)]} -> {dim0: 4, dim1: 4}
///          over (4,3): offsets 12..15 masked
///   cute (64,3):(1,64)    a 3-stage ring: offsets 192..255 masked
///   tile tmem_accumulator S[(2,128,112):(112@TCol,1@TLane,1@TCol)] over
///       (2,128,112): iter 2 extent 112 -> 128, then restride iter 0 stride
///       112 -> 128: S[(2,128,128):(128@TCol,1@TLane,1@TCol)]; TCol
///       112..127 and 240..255 masked (32 of 256 columns, 12.5%)
///   cute (3,4):(1,3)      restride: leaf 0 extent 3 -> 4, leaf 1 stride
///       3 -> 4
///   cute (4,2):(1,2)      error: strides do not nest
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_BRIDGE_PADDEDBRIDGE_H
#define LAYOUTKIT_BRIDGE_PADDEDBRIDGE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/linear/Padded.h"
#include "layoutkit/tile/TileLayout.h"

#include <span>
#include <string>
#include <vector>

namespace lk::bridge {

/// One change padding made.
struct PadStep {
  enum class Kind {
    Dim,    ///< a logical dim's extent (from -> to)
    Extent, ///< a leaf's or iter's extent
    Stride  ///< a leaf's or iter's stride (restride: valid elements move)
  };
  Kind kind = Kind::Dim;
  /// "dim 1", "leaf 1 (3:4)", "iter 0 (2:112@TCol)": the original's
  /// position and text.
  std::string where;
  int64_t from = 0, to = 0;
  /// "dim 1: extent 3 -> 4", "iter 0 (2:112@TCol): stride 112 -> 128".
  std::string str() const;
};

/// A padded conversion and its account.
struct PaddedConversion {
  linear::PaddedLayout layout;
  /// The padded layout in the source model's text ("(4,4):(1,4)",
  /// "S[(2,128,128):(128@TCol,1@TLane,1@TCol)]").
  std::string paddedText;
  /// The changes, dims first, then extents, then strides.
  std::vector<PadStep> steps;
  /// No stride changed: valid elements keep their placement.
  bool exact = true;
  /// The account as lines (steps, then "exact" or "restrided").
  std::string describe() const;
};

/// A cute layout of any shape as offset -> (dim0, ..., dim{r-1}) over its
/// top-level modes (see the file comment).
Expected<PaddedConversion> cuteToPadded(const cute::Layout &layout);

/// A tile layout over the logical `shape` (admitted by it) as hardware ->
/// (dim0, ..., dim{r-1}); the memory axis m becomes `memoryDim`.
Expected<PaddedConversion>
tileToPadded(const tile::TileLayout &layout, std::span<const int64_t> shape,
             linear::DimId memoryDim = linear::dims::kRegister);

} // namespace lk::bridge

#endif // LAYOUTKIT_BRIDGE_PADDEDBRIDGE_H
