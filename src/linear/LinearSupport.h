//===- LinearSupport.h - Helpers shared by the linear layouts ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to src/linear: what the files of LinearLayout's operations
/// share. `name` spells a dim for diagnostics; `Repack` moves the output
/// fields of a packed column to another packing (the output dims of a
/// composition, a product or a sublayout).
///
/// Example: a Repack with add(4, 2, 0) maps column 0b110000 to 0b11.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_LINEAR_LINEARSUPPORT_H
#define LAYOUTKIT_SRC_LINEAR_LINEARSUPPORT_H

#include "layoutkit/core/Bits.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <string>

namespace lk::linear::detail {

/// The name of dim `id`, for diagnostics.
inline std::string name(DimId id) { return std::string(dimName(id)); }

/// Moves output fields of a column from one packing to another: field k
/// (srcShift[k], width[k]) goes to dstShift[k].
struct Repack {
  int n = 0;
  uint8_t srcShift[LinearLayout::kMaxDims];
  uint8_t width[LinearLayout::kMaxDims];
  uint8_t dstShift[LinearLayout::kMaxDims];
  bool identity = true;

  void add(int src, int w, int dst) {
    if (w == 0)
      return;
    srcShift[n] = uint8_t(src);
    width[n] = uint8_t(w);
    dstShift[n] = uint8_t(dst);
    if (src != dst)
      identity = false;
    ++n;
  }
  uint64_t operator()(uint64_t c) const {
    if (identity)
      return c;
    uint64_t r = 0;
    for (int k = 0; k < n; ++k)
      r |= ((c >> srcShift[k]) & lowMask(width[k])) << dstShift[k];
    return r;
  }
};

} // namespace lk::linear::detail

#endif // LAYOUTKIT_SRC_LINEAR_LINEARSUPPORT_H
