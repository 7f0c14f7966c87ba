//===- GatherWords.h - Output words of a gather's layouts -------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to src/plan: the two maps on output words (a layout's packed
/// logical coordinates) that the gather planner and its CUDA emitter both
/// use. Every dim of these layouts is a power of two.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_PLAN_GATHERWORDS_H
#define LAYOUTKIT_SRC_PLAN_GATHERWORDS_H

#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>

namespace lk::plan::detail {

/// Row-major position of an output word of `l`, dim 0 slowest:
/// sum_k c_k * prod_{j>k} size_j. The sizes are powers of two, so this
/// re-packs the word's bits (a linear map). Example: dims (4, 8), word
/// with c0 = 2 and c1 = 5 -> 2*8 + 5 = 21.
inline uint64_t rowMajor(const linear::LinearLayout &l, uint64_t word) {
  uint64_t p = 0;
  for (int k = 0; k < l.numOutDims(); ++k) {
    const int w = l.outDim(k).log2;
    p = (p << w) | ((word >> l.outShift(k)) & ((uint64_t(1) << w) - 1));
  }
  return p;
}

/// An output word of `index` with the `axis` coordinate dropped, re-packed
/// into the output dims of `src` (the axis coordinate left 0). The gather's
/// off-axis dims have equal sizes in both layouts.
inline uint64_t offAxisToSrc(const linear::LinearLayout &src,
                             const linear::LinearLayout &index, int axis,
                             uint64_t word) {
  uint64_t r = 0;
  for (int k = 0; k < src.numOutDims(); ++k) {
    if (k == axis)
      continue;
    const int w = src.outDim(k).log2;
    r |= ((word >> index.outShift(k)) & ((uint64_t(1) << w) - 1))
         << src.outShift(k);
  }
  return r;
}

} // namespace lk::plan::detail

#endif // LAYOUTKIT_SRC_PLAN_GATHERWORDS_H
