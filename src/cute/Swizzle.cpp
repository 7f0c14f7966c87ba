//===- Swizzle.cpp --------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Swizzle.h"

#include <algorithm>

namespace lk::cute {

int64_t swizzleApply(int B, int M, int S, int64_t x) {
  uint64_t ux = uint64_t(x);
  uint64_t mask = ((uint64_t(1) << B) - 1) << (M + std::max(0, S));
  uint64_t picked = ux & mask;
  uint64_t shifted = S >= 0 ? picked >> S : picked << -S;
  return int64_t(ux ^ shifted);
}

Status swizzleParamsValid(int64_t B, int64_t M, int64_t S) {
  constexpr int64_t kMax = 62;
  // Each term is checked alone first, so the sum and |S| cannot overflow.
  if (B < 0 || M < 0 || B > kMax || M > kMax || S < -kMax || S > kMax ||
      B + M + (S < 0 ? -S : S) > kMax)
    return Diagnostic::error(
        "swizzle parameters out of range: need 0 <= B, 0 <= M and B + M + |S| "
        "<= 62, got B=" +
        std::to_string(B) + " M=" + std::to_string(M) +
        " S=" + std::to_string(S));
  return Ok{};
}

Expected<Swizzle> Swizzle::make(int64_t B, int64_t M, int64_t S) {
  std::string name = "Sw<" + std::to_string(B) + "," + std::to_string(M) + "," +
                     std::to_string(S) + ">";
  if (B < 0 || M < 0)
    return Diagnostic::error("swizzle " + name +
                             ": B and M must be non-negative");
  int64_t absS = S < 0 ? (S < -62 ? 63 : -S) : S;
  if (absS < B)
    return Diagnostic::error(
        "swizzle " + name + ": |S| must be >= B (S = " + std::to_string(S) +
        ", B = " + std::to_string(B) + ") so that the swizzle is self-inverse");
  if (B > 62 || M > 62 || absS > 62 || B + M + absS > 62)
    return Diagnostic::error("swizzle " + name +
                             ": B + M + |S| must be at most 62");
  return Swizzle{int(B), int(M), int(S)};
}

std::string Swizzle::str() const {
  return "Sw<" + std::to_string(B) + "," + std::to_string(M) + "," +
         std::to_string(S) + ">";
}

Expected<ComposedLayout> ComposedLayout::make(Swizzle swizzle, int64_t offset,
                                              Layout layout) {
  if ((!swizzle.isIdentity() || offset != 0) && layout.hasBasisStrides())
    return Diagnostic::error("a swizzle or an offset acts on integer "
                             "offsets; the layout " +
                             layout.str() + " has basis strides");
  return ComposedLayout{swizzle, offset, std::move(layout)};
}

std::string ComposedLayout::str() const {
  std::string s = swizzle.str() + " o ";
  if (offset != 0)
    s += std::to_string(offset) + " o ";
  return s + layout.str();
}

} // namespace lk::cute
