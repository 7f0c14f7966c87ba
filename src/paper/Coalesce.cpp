//===- Coalesce.cpp - Blocked layouts for coalesced global access --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/paper/Coalesce.h"

#include <algorithm>
#include <vector>

namespace lk::paper {

namespace {

constexpr int kLanes = 32;
constexpr int64_t kMaxAccessBits = 128;

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

Status checkArguments(std::span<const int64_t> shape, int elementBits,
                      int numWarps) {
  if (shape.empty() || shape.size() > 4)
    return Diagnostic::error(
        "coalesced layout: expected a shape of rank 1 to 4, got rank " +
        std::to_string(shape.size()));
  for (size_t d = 0; d < shape.size(); ++d)
    if (!isPow2(shape[d]) || shape[d] > (int64_t(1) << 20))
      return Diagnostic::error(
          "coalesced layout: expected extents that are powers of two up to "
          "2^20, got " +
          std::to_string(shape[d]) + " in dim " + std::to_string(d));
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 &&
      elementBits != 64)
    return Diagnostic::error(
        "coalesced layout: expected 8, 16, 32 or 64-bit elements, got " +
        std::to_string(elementBits));
  if (!isPow2(numWarps) || numWarps > 32)
    return Diagnostic::error(
        "coalesced layout: expected a power of two from 1 to 32 warps, got " +
        std::to_string(numWarps));
  return Ok{};
}

/// Spreads lanes and warps from the fastest dim outwards (file comment).
void spreadThreads(std::span<const int64_t> shape, linear::Encoding &e,
                   int numWarps) {
  size_t rank = shape.size();
  e.threadsPerWarp.assign(rank, 1);
  e.warpsPerCTA.assign(rank, 1);
  int64_t lanesLeft = kLanes, warpsLeft = numWarps;
  int64_t threadsLeft = int64_t(kLanes) * numWarps;
  int64_t lanesUsed = 1, warpsUsed = 1;
  for (size_t k = 0; k + 1 < rank; ++k) {
    unsigned d = e.order[k];
    int64_t groups = std::max<int64_t>(1, shape[d] / e.sizePerThread[d]);
    int64_t threads = std::clamp<int64_t>(threadsLeft, 1, groups);
    int64_t lanes = std::clamp<int64_t>(threads, 1, lanesLeft);
    int64_t warps = std::clamp<int64_t>(threads / lanes, 1, warpsLeft);
    e.threadsPerWarp[d] = unsigned(lanes);
    e.warpsPerCTA[d] = unsigned(warps);
    lanesLeft /= lanes;
    warpsLeft /= warps;
    threadsLeft /= threads;
    lanesUsed *= lanes;
    warpsUsed *= warps;
  }
  unsigned slowest = e.order[rank - 1];
  e.threadsPerWarp[slowest] = unsigned(kLanes / lanesUsed);
  e.warpsPerCTA[slowest] = unsigned(numWarps / warpsUsed);
}

} // namespace

Expected<linear::Encoding> coalescedEncoding(std::span<const int64_t> shape,
                                             int elementBits, int numWarps,
                                             CoalesceStyle style) {
  if (auto ok = checkArguments(shape, elementBits, numWarps); !ok)
    return std::move(ok).error();
  size_t rank = shape.size();
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  int64_t perThread =
      std::max<int64_t>(1, numel / (int64_t(kLanes) * numWarps));
  int64_t budget = std::min<int64_t>(kMaxAccessBits / elementBits, perThread);

  linear::Encoding e;
  e.kind = linear::EncodingKind::Blocked;
  e.cta = linear::CTALayout::single(rank);
  e.sizePerThread.assign(rank, 1);
  if (style == CoalesceStyle::AcrossDims) {
    for (size_t k = 0; k < rank; ++k)
      e.order.push_back(unsigned(rank - 1 - k));
    for (unsigned d : e.order) {
      int64_t take = std::min<int64_t>(shape[d], budget);
      e.sizePerThread[d] = unsigned(take);
      budget /= take;
    }
  } else {
    // The contiguous dim: the last one of size > 1 (dims of size 1 do not
    // break contiguity); dim 0 when every extent is 1.
    unsigned fast = 0;
    for (size_t d = rank; d-- > 0;)
      if (shape[d] > 1) {
        fast = unsigned(d);
        break;
      }
    e.order.push_back(fast);
    for (size_t d = rank; d-- > 0;)
      if (d != fast)
        e.order.push_back(unsigned(d));
    e.sizePerThread[fast] = unsigned(std::min<int64_t>(shape[fast], budget));
  }
  spreadThreads(shape, e, numWarps);
  return e;
}

Expected<std::string> accessInstruction(int64_t bits) {
  switch (bits) {
  case 8:
  case 16:
    return "v1.b" + std::to_string(bits);
  case 32:
  case 64:
  case 128:
    return "v" + std::to_string(bits / 32) + ".b32";
  default:
    return Diagnostic::error(
        "access instruction: expected 8, 16, 32, 64 or 128 bits, got " +
        std::to_string(bits));
  }
}

} // namespace lk::paper
