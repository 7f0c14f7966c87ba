//===- PlanPairs.h - Standard layouts of the plan benchmarks ----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The standard distributed layouts the planning benchmarks
/// (PlanBench.cpp), the cost table (PlanCostTable.cpp) and the plan tests
/// (tests/support/PlanTestSupport.h) convert between,
/// as Triton encodings, for a given number of warps and element width:
///
///   blocked-mmalike  blocked([1,2], [8,4], W2, order [1,0]) (equals the mma
///                    accumulator on 16x8 tiles)
///   blocked-row      blocked([1,4], [8,4], W2, order [1,0])
///   blocked-row8     blocked([1,8], [4,8], [w,1], order [1,0]) (16-byte f16
///                    rows, the usual global-load layout)
///   blocked-col      blocked([4,1], [4,8], W2 reversed, order [0,1]) (the
///                    transpose of blocked-row)
///   blocked-1        blocked([1,1], [2,16], [1,w], order [1,0])
///   blocked-2x2      blocked([2,2], [4,8], W2, order [0,1])
///   mma              mma v2 accumulator, instrShape [16,8], W2
///   mmaV3            wgmma accumulator, instrShape [16,16,16], [w,1]
///                    (w >= 4: a warpgroup)
///   dotA, dotB       dot operands 0 / 1 of an mma v2 parent with [w,1] /
///                    [1,w] warps, kWidth = 32 / elementBits (elements <= 32
///                    bits)
///
/// with W2 = [w,1] for w <= 2, [2,2] for 4 warps, [4,2] for 8. The 1-D
/// layouts (slices of the 2-D ones along dim 0) are in sliceEncodings.
///
/// Example: standardEncodings(8, 16) has all ten entries; with 2 warps
/// mmaV3 is left out.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_PLANPAIRS_H
#define LAYOUTKIT_TESTS_SUPPORT_PLANPAIRS_H

#include "layoutkit/linear/Standard.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lk::bench {

using EncodingPtr = std::shared_ptr<linear::Encoding>;

inline EncodingPtr blockedEncoding(std::vector<unsigned> spt,
                                   std::vector<unsigned> tpw,
                                   std::vector<unsigned> wpc,
                                   std::vector<unsigned> order) {
  auto e = std::make_shared<linear::Encoding>();
  e->kind = linear::EncodingKind::Blocked;
  e->cta = linear::CTALayout::single(spt.size());
  e->sizePerThread = std::move(spt);
  e->threadsPerWarp = std::move(tpw);
  e->warpsPerCTA = std::move(wpc);
  e->order = std::move(order);
  return e;
}

/// mma accumulator: version 2 (instrShape [16,8]) or 3 ([16,16,16]).
inline EncodingPtr mmaEncoding(int version, std::vector<unsigned> wpc) {
  auto e = std::make_shared<linear::Encoding>();
  e->kind = linear::EncodingKind::NvidiaMma;
  e->versionMajor = version;
  e->instrShape = version == 2 ? std::vector<unsigned>{16, 8}
                               : std::vector<unsigned>{16, 16, 16};
  e->warpsPerCTA = std::move(wpc);
  e->cta = linear::CTALayout::single(2);
  return e;
}

inline EncodingPtr dotEncoding(EncodingPtr parent, int opIdx, int kWidth) {
  auto e = std::make_shared<linear::Encoding>();
  e->kind = linear::EncodingKind::DotOperand;
  e->opIdx = opIdx;
  e->kWidth = kWidth;
  e->cta = parent->cta;
  e->parent = std::move(parent);
  return e;
}

inline EncodingPtr sliceEncoding(EncodingPtr parent, int dim) {
  auto e = std::make_shared<linear::Encoding>();
  e->kind = linear::EncodingKind::Slice;
  e->dim = dim;
  e->parent = std::move(parent);
  e->cta = linear::CTALayout::single(1);
  return e;
}

/// The 2-D standard layouts of the file comment.
inline std::vector<std::pair<std::string, EncodingPtr>>
standardEncodings(unsigned warps, int elementBits) {
  unsigned w0 = warps, w1 = 1;
  if (warps == 4) {
    w0 = 2;
    w1 = 2;
  } else if (warps == 8) {
    w0 = 4;
    w1 = 2;
  }
  std::vector<std::pair<std::string, EncodingPtr>> r;
  r.push_back(
      {"blocked-mmalike", blockedEncoding({1, 2}, {8, 4}, {w0, w1}, {1, 0})});
  r.push_back(
      {"blocked-row", blockedEncoding({1, 4}, {8, 4}, {w0, w1}, {1, 0})});
  r.push_back(
      {"blocked-row8", blockedEncoding({1, 8}, {4, 8}, {warps, 1}, {1, 0})});
  r.push_back(
      {"blocked-col", blockedEncoding({4, 1}, {4, 8}, {w1, w0}, {0, 1})});
  r.push_back(
      {"blocked-1", blockedEncoding({1, 1}, {2, 16}, {1, warps}, {1, 0})});
  r.push_back(
      {"blocked-2x2", blockedEncoding({2, 2}, {4, 8}, {w0, w1}, {0, 1})});
  r.push_back({"mma", mmaEncoding(2, {w0, w1})});
  if (warps >= 4)
    r.push_back({"mmaV3", mmaEncoding(3, {warps, 1})});
  if (elementBits <= 32) {
    int kWidth = 32 / elementBits;
    r.push_back({"dotA", dotEncoding(mmaEncoding(2, {warps, 1}), 0, kWidth)});
    r.push_back({"dotB", dotEncoding(mmaEncoding(2, {1, warps}), 1, kWidth)});
  }
  return r;
}

/// 1-D layouts: dim 0 sliced away from blocked-row, blocked-col and mma,
/// and a 1-D blocked layout ([2], [32], [w]).
inline std::vector<std::pair<std::string, EncodingPtr>>
sliceEncodings(unsigned warps, int elementBits) {
  std::vector<std::pair<std::string, EncodingPtr>> r;
  for (auto &[name, e] : standardEncodings(warps, elementBits))
    if (name == "blocked-row" || name == "blocked-col" || name == "mma")
      r.push_back({"slice0(" + name + ")", sliceEncoding(e, 0)});
  r.push_back({"blocked-1d", blockedEncoding({2}, {32}, {warps}, {0})});
  return r;
}

/// The value of `e`, or a message and abort (benchmark setup only).
template <class T> T mustSucceed(Expected<T> e, const char *what) {
  if (!e) {
    std::fprintf(stderr, "%s: %s\n", what, e.error().message.c_str());
    std::abort();
  }
  return std::move(*e);
}

} // namespace lk::bench

#endif // LAYOUTKIT_TESTS_SUPPORT_PLANPAIRS_H
