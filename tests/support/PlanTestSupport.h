//===- PlanTestSupport.h - Helpers shared by the plan tests -----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Test helpers used by more than one tests/plan/*Test.cpp file: ok(),
/// one-CTA encodings (blocked, mma.sync v2, dot operand, slice) and their
/// layouts, random distributed layouts. The test files pull them in with
/// `using namespace test;`.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_SUPPORT_PLANTESTSUPPORT_H
#define LAYOUTKIT_TESTS_SUPPORT_PLANTESTSUPPORT_H

#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Padded.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/plan/Plan.h"
#include "support/PlanPairs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

namespace lk::plan::test {

/// The value of `e`; an error fails the test and aborts (the callers have
/// nothing sensible to continue with).
template <class T> T ok(Expected<T> e) {
  if (!e) {
    ADD_FAILURE() << "unexpected error: " << e.error().message;
    std::abort();
  }
  return std::move(*e);
}

/// Options of the vector-only plan: st.shared / ld.shared on both sides,
/// no ldmatrix / stmatrix (the tests of the swizzle's bound and of vector
/// widths use it; the default plan is compared against it).
inline PlanOptions vectorOnly() {
  PlanOptions o;
  o.matrixInstructions = false;
  return o;
}

/// The padded layout of linear-layout text `text` over logical shape
/// `logical`.
inline linear::PaddedLayout padded(std::string_view text,
                                   std::vector<int64_t> logical) {
  return ok(
      linear::PaddedLayout::make(ok(linear::parseLinearLayout(text)), logical));
}

/// The [48] pair of the padded tests (f32 over [48] padded to 64):
/// register r of lane l holds 2l + r (A), 32r + l (B).
inline linear::PaddedLayout blocked48A() {
  return padded("{register: [(1)], lane: [(2), (4), (8), (16), (32)], "
                "warp: [], block: []} -> {dim0: 64}",
                {48});
}
inline linear::PaddedLayout blocked48B() {
  return padded("{register: [(32)], lane: [(1), (2), (4), (8), (16)], "
                "warp: [], block: []} -> {dim0: 64}",
                {48});
}

/// The blocked layouts of one logical shape of the padded sweeps.
struct PaddedSweepSet {
  std::vector<int64_t> logical;
  std::vector<linear::PaddedLayout> layouts;
};

/// The padded sweeps' operands (PaddedPlanTest, EmitCudaMaskedTest): for
/// each of four shapes not all powers of two, the blocked layouts of five
/// parameter sets (size per thread, threads per warp, warps, order) over
/// its padded shape.
inline std::vector<PaddedSweepSet> paddedBlockedSweep() {
  struct Params {
    std::vector<unsigned> spt, tpw, wpc, order;
  };
  const std::vector<Params> ps = {{{1, 4}, {8, 4}, {2, 1}, {1, 0}},
                                  {{4, 1}, {4, 8}, {1, 2}, {0, 1}},
                                  {{2, 2}, {2, 16}, {2, 1}, {1, 0}},
                                  {{1, 1}, {32, 1}, {1, 2}, {0, 1}},
                                  {{8, 1}, {1, 32}, {2, 1}, {1, 0}}};
  std::vector<PaddedSweepSet> sets;
  for (std::vector<int64_t> logical :
       {std::vector<int64_t>{12, 8}, std::vector<int64_t>{5, 24},
        std::vector<int64_t>{48, 3}, std::vector<int64_t>{32, 20}}) {
    std::vector<int64_t> shape = ok(linear::paddedShape(logical));
    PaddedSweepSet set{logical, {}};
    for (const Params &p : ps)
      set.layouts.push_back(ok(linear::PaddedLayout::make(
          ok(linear::blockedLayout(p.spt, p.tpw, p.wpc, p.order, shape)),
          logical)));
    sets.push_back(std::move(set));
  }
  return sets;
}

//===----------------------------------------------------------------------===//
// Encodings (one CTA) and their layouts
//===----------------------------------------------------------------------===//

// The encoding builders are those of the planning benchmarks
// (tests/support/PlanPairs.h), so the tests and the cost table build the same
// standard layouts.
inline constexpr auto &blockedEnc = bench::blockedEncoding;
inline constexpr auto &dotEnc = bench::dotEncoding;
inline constexpr auto &sliceEnc = bench::sliceEncoding;
/// The mma.sync (v2, 16x8 instruction) accumulator.
inline bench::EncodingPtr mmaV2Enc(std::vector<unsigned> wpc) {
  return bench::mmaEncoding(2, std::move(wpc));
}

inline linear::LinearLayout layoutOf(const linear::Encoding &e,
                                     std::vector<int64_t> shape) {
  return ok(linear::toLinearLayout(e, shape));
}

/// The layout of blockedEnc(spt, tpw, wpc, order) over `shape`.
inline linear::LinearLayout blocked(std::vector<unsigned> spt,
                                    std::vector<unsigned> tpw,
                                    std::vector<unsigned> wpc,
                                    std::vector<unsigned> order,
                                    std::vector<int64_t> shape) {
  return layoutOf(*blockedEnc(spt, tpw, wpc, order), shape);
}

/// A random distributed layout of a 2^r0 x 2^r1 tensor: the logical bits
/// shuffled onto registers, 5 lane bits and `warpBits` warp bits; with
/// `broadcasts`, some lane/warp bits get zero columns and the register dim
/// grows so that the tensor is still covered (and sometimes gets one zero
/// register column).
/// Example: r0 = r1 = 3, warpBits = 0, no broadcast: 1 register bit and 5
/// lane bits, each column a distinct one of the 6 logical bits.
inline linear::LinearLayout randomDistributed(std::mt19937_64 &rng, int r0,
                                              int r1, int warpBits,
                                              bool broadcasts) {
  namespace dims = linear::dims;
  int n = r0 + r1;
  std::vector<uint64_t> bits;
  for (int b = 0; b < n; ++b)
    bits.push_back(uint64_t(1) << b);
  std::shuffle(bits.begin(), bits.end(), rng);
  std::vector<uint64_t> lane(5, 0), warp(size_t(warpBits), 0), reg;
  size_t next = 0;
  auto pick = [&](std::vector<uint64_t> &slots) {
    for (auto &s : slots) {
      if (broadcasts && rng() % 4 == 0)
        continue; // zero column
      if (next < bits.size())
        s = bits[next++];
    }
  };
  pick(lane);
  pick(warp);
  while (next < bits.size())
    reg.push_back(bits[next++]);
  if (broadcasts && rng() % 2)
    reg.insert(reg.begin() + long(rng() % (reg.size() + 1)), 0);
  std::vector<linear::DimSize> ins = {{dims::kRegister, int(reg.size())},
                                      {dims::kLane, 5},
                                      {dims::kWarp, warpBits},
                                      {dims::kBlock, 0}};
  std::vector<linear::DimSize> outs = {{dims::dim(0), r0}, {dims::dim(1), r1}};
  // Packed output: dim0 bits low, dim1 above; any bit order is a layout.
  std::vector<uint64_t> cols = reg;
  cols.insert(cols.end(), lane.begin(), lane.end());
  cols.insert(cols.end(), warp.begin(), warp.end());
  Expected<linear::LinearLayout> l =
      linear::LinearLayout::fromColumns(ins, outs, cols);
  if (!l) {
    ADD_FAILURE() << "randomDistributed: " << l.error().message;
    std::abort();
  }
  return std::move(*l);
}

} // namespace lk::plan::test

#endif // LAYOUTKIT_TESTS_SUPPORT_PLANTESTSUPPORT_H
