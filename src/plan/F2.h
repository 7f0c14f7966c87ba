//===- F2.h - Bit-vector helpers shared by the planners ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to src/plan: helpers on packed bit-vectors (a layout column is
/// one uint64_t) used by the conversion, warp-shuffle and gather planners
/// and the simulator.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_PLAN_F2_H
#define LAYOUTKIT_SRC_PLAN_F2_H

#include "layoutkit/core/SmallVector.h"
#include "layoutkit/linear/F2Basis.h"
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

/// The number of non-zero columns.
inline uint64_t nonzeroCount(std::span<const uint64_t> cols) {
  uint64_t n = 0;
  for (uint64_t c : cols)
    n += c != 0;
  return n;
}

/// The F2 eliminator is the linear layer's (linear/F2Basis.h).
using linear::F2Basis;
using linear::rankF2;

/// The register offset of element j of a vector whose element bits are the
/// register bits `bits`: bit k of j selects register bit bits[k].
/// Example: bits = {0, 2}, j = 3 -> 0b101 = 5.
inline int64_t vecRegOffset(const std::vector<int> &bits, int64_t j) {
  int64_t r = 0;
  for (size_t k = 0; k < bits.size(); ++k)
    if (j >> k & 1)
      r |= int64_t(1) << bits[k];
  return r;
}

} // namespace lk::plan::detail

#endif // LAYOUTKIT_SRC_PLAN_F2_H
