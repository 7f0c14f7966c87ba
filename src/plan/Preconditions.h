//===- Preconditions.h - What every planner requires of its input -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to src/plan: the checks the conversion, warp-shuffle,
/// shared-memory, gather and reduction planners make of their inputs before
/// any strategy is chosen, so that every planner refuses the same input in
/// the same words.
///
/// Example: a distributed layout of 128 (register, lane) slots over a
/// tensor of 256 elements, whose columns span 7 of its 8 logical bits,
/// holds 128 of them: checkCovers refuses it ("the source layout holds 128
/// of its tensor's 256 elements ...").
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_SRC_PLAN_PRECONDITIONS_H
#define LAYOUTKIT_SRC_PLAN_PRECONDITIONS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lk::plan::detail {

/// Fails unless the element width is 8, 16, 32 or 64 bits (what registers,
/// shuffles and shared-memory vectors move).
inline Status checkElementBits(int64_t elementBits) {
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 &&
      elementBits != 64)
    return Diagnostic::error("element width " + counted(elementBits, "bit") +
                             " is not supported (allowed: 8, 16, 32, 64)");
  return Ok{};
}

/// Fails unless `l` holds every element of its tensor: its columns span all
/// 2^totalOutBits logical indices (surjective), as a distributed layout of
/// the tensor must; an element no thread holds is neither read nor written.
/// `role` names the layout ("source", "destination", "index").
/// Example: 7 of 8 bits spanned -> "the source layout holds 128 of its
/// tensor's 256 elements (its columns span 7 of 8 logical bits): ...".
inline Status checkCovers(const linear::LinearLayout &l,
                          std::string_view role) {
  if (l.isSurjective())
    return Ok{};
  const int r = l.rank(), n = l.totalOutBits(); // r < n <= 64
  auto count = [](int bits) { // 2^bits, written out below 2^63
    return bits < 63 ? std::to_string(int64_t(1) << bits)
                     : "2^" + std::to_string(bits);
  };
  return Diagnostic::error(
      "the " + std::string(role) + " layout holds " + count(r) +
      " of its tensor's " + count(n) + " elements (its columns span " +
      std::to_string(r) + " of " + std::to_string(n) +
      " logical bits), so it does not cover the tensor: " + l.str());
}

} // namespace lk::plan::detail

#endif // LAYOUTKIT_SRC_PLAN_PRECONDITIONS_H
