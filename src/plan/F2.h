//===- F2.h - Bit-vector helpers shared by the planners ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to src/plan: linear algebra over F2 on packed bit-vectors (a
/// layout column is one uint64_t) used by the conversion, warp-shuffle and
/// gather planners and the simulator.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_PLAN_F2_H
#define LAYOUTKIT_SRC_PLAN_F2_H

#include "layoutkit/core/SmallVector.h"
#include "layoutkit/linear/LinearLayout.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace lk::plan::detail {

/// The hardware input dims of an aligned layout, in order.
inline constexpr std::array<linear::DimId, 4> kHwDims = {
    linear::dims::kRegister, linear::dims::kLane, linear::dims::kWarp,
    linear::dims::kBlock};

/// Bit-vectors (layout columns) kept inline up to 64: the planners build
/// many short-lived sets of layout columns per plan, and a heap allocation
/// for each was most of the planning time.
using Columns = SmallVector<uint64_t, 64>;

/// A column of `l` as the coordinates of its output dims, "(16,0)".
inline std::string columnText(const linear::LinearLayout &l, uint64_t col) {
  std::string s = "(";
  for (int k = 0; k < l.numOutDims(); ++k) {
    uint64_t m = (uint64_t(1) << l.outDim(k).log2) - 1;
    s += (k ? "," : "") + std::to_string((col >> l.outShift(k)) & m);
  }
  return s + ")";
}

/// The columns of input dim `d` of `l` (empty when `l` lacks it).
inline Columns dimColumns(const linear::LinearLayout &l, linear::DimId d) {
  Columns c;
  int i = l.inDimIndex(d);
  if (i < 0)
    return c;
  for (int b = 0; b < l.inDim(i).log2; ++b)
    c.push_back(l.column(l.inShift(i) + b));
  return c;
}

/// Incremental Gaussian elimination over F2 that remembers, for each row,
/// the XOR of the tags of the added vectors it combines. Rows are kept in
/// echelon form, sorted by leading bit, descending, so one pass reduces a
/// vector. Vectors added earlier are preferred: a vector that depends on
/// earlier ones is dropped (add returns false).
///
/// Example: add(0b011, tag 1), add(0b110, tag 2); reduce(v = 0b101) leaves
/// v = 0 and returns 1 ^ 2 = 3 (0b101 = 0b011 ^ 0b110).
struct F2Basis {
  Columns rows, combos;

  /// Reduces v by the rows; returns the XOR of the tags used and leaves the
  /// remainder (0 iff v was in the span) in v.
  uint64_t reduce(uint64_t &v) const {
    uint64_t combo = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      uint64_t top = uint64_t(1) << (63 - __builtin_clzll(rows[i]));
      if (v & top) {
        v ^= rows[i];
        combo ^= combos[i];
      }
    }
    return combo;
  }
  /// Adds v with its tag; false (nothing added) when v is in the span.
  bool add(uint64_t v, uint64_t tag) {
    uint64_t combo = reduce(v) ^ tag;
    if (!v)
      return false;
    size_t at = 0;
    while (at < rows.size() && rows[at] > v)
      ++at;
    rows.insert(at, v);
    combos.insert(at, combo);
    return true;
  }
  bool contains(uint64_t v) const {
    reduce(v);
    return v == 0;
  }
  int rank() const { return int(rows.size()); }
};

/// Rank over F2 of a set of bit-vectors.
inline int rankF2(std::span<const uint64_t> vs) {
  F2Basis b;
  for (uint64_t v : vs)
    b.add(v, 0);
  return b.rank();
}

} // namespace lk::plan::detail

#endif // LAYOUTKIT_SRC_PLAN_F2_H
