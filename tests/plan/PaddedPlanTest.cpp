//===- PaddedPlanTest.cpp - Plans between padded layouts, masked ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Plans between padded layouts run in the simulator's masked mode: every
/// valid element arrives and nothing touches padding. The masks and counts
/// are derived by hand beside each test; a sweep over blocked pairs of
/// non-power-of-two shapes checks every strategy the planner picks and the
/// shared-memory plan of every pair.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/PaddedPlan.h"

#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Text.h"

#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::plan;
using lk::linear::LinearLayout;
using lk::linear::PaddedLayout;

namespace {

template <class T> T ok(Expected<T> e) {
  EXPECT_TRUE(bool(e)) << (e ? "" : e.error().message);
  return e ? std::move(*e) : T{};
}

using test::blocked48A;
using test::blocked48B;
using test::padded;

std::vector<int64_t> range(int64_t lo, int64_t hi, int64_t step = 1) {
  std::vector<int64_t> v;
  for (int64_t i = lo; i < hi; i += step)
    v.push_back(i);
  return v;
}

// [48] in one warp. A: register r of lane l holds 2l + r: lanes 24..31
// hold only 48..63 (masked, 16 slots). B: register r of lane l holds
// 32r + l: register 1 of lanes 16..31 holds 48..63 (16 slots), nothing is
// fully masked.
//
// Through shared memory (no register bit in common: 4-byte vectors, one
// element per lane and instruction): A stores 2 instructions, in each the
// 8 lanes 24..31 predicated off (16 masked accesses); B loads 2
// instructions, in the second lanes 16..31 off (16 masked accesses). 48
// valid destination registers checked.
TEST(PaddedPlan, Blocked48SharedMemory) {
  PaddedLayout a = blocked48A(), b = blocked48B();
  PaddedPlan p;
  p.plan = ok(planSharedMemory(a.layout(), b.layout(), 32));
  p.logicalShape = {48};
  SimulationResult r = ok(simulatePadded(p));
  EXPECT_TRUE(r.correct) << r.firstMismatch << r.firstViolation;
  EXPECT_EQ(r.maskViolations, 0);
  EXPECT_EQ(r.checked, 48);
  EXPECT_EQ(r.storeInstructions, 2);
  EXPECT_EQ(r.loadInstructions, 2);
  EXPECT_EQ(r.maskedAccesses, 32);
  EXPECT_EQ(r.partialVectors, 0);

  // The planner picks warp shuffles for this pair (no element changes
  // warp): the masked shuffle path.
  PaddedPlan planned = ok(planPaddedConversion(a, b, 32));
  EXPECT_EQ(planned.plan.strategy, Strategy::WarpShuffle);
  EXPECT_EQ(planned.srcWaste.masked[1].values, range(24, 32));
  EXPECT_TRUE(planned.dstWaste.masked[0].values.empty());
  EXPECT_TRUE(planned.dstWaste.masked[1].values.empty());
  SimulationResult s = ok(simulatePadded(planned));
  EXPECT_TRUE(s.correct) << s.firstMismatch << s.firstViolation;
  EXPECT_EQ(s.checked, 48);
}

// The buffer waste of the shared-memory plan above: the memory layout is a
// bijection offset -> [64], so 16 of its 64 offsets hold 48..63; with one
// iteration each buffer slot holds one element, so 16 slots (64 bytes of
// f32) are never used.
TEST(PaddedPlan, BufferWaste) {
  PaddedLayout a = blocked48A(), b = blocked48B();
  const int64_t logical[] = {48};
  PaddedPlan p =
      ok(maskPlan(ok(planSharedMemory(a.layout(), b.layout(), 32)), logical));
  ASSERT_TRUE(p.plan.smem.has_value());
  EXPECT_EQ(p.smemOffsets, 64);
  EXPECT_EQ(p.maskedSmemOffsets, 16);
  EXPECT_EQ(p.unusedBufferSlots, 16);
  EXPECT_EQ(p.unusedBufferBytes, 64);
}

// A register permutation that reads padding: over [48], register r of
// lane l holds 16r + l, so register 3 is padding in every lane. Sending
// destination register 0 (valid) from source register 3 reads padding:
// a violation, and register 0 ends up without its element.
TEST(PaddedPlan, SimulatorCatchesPaddingRead) {
  PaddedLayout l = padded("{register: [(16), (32)], lane: [(1), (2), (4), "
                          "(8)], warp: [], block: []} -> {dim0: 64}",
                          {48});
  PaddedPlan p;
  p.plan.strategy = Strategy::RegisterPermutation;
  p.plan.layouts = ok(alignLayouts(l.layout(), l.layout()));
  p.plan.elementBits = 32;
  p.plan.registerSource = {3, 1, 2, 0};
  p.logicalShape = {48};
  SimulationResult r = ok(simulatePadded(p));
  EXPECT_FALSE(r.correct);
  EXPECT_EQ(r.maskViolations, 16); // register 0 of each of 16 lanes
  EXPECT_EQ(r.firstViolation,
            "warp 0 lane 0 reads register 3, which holds padding");
  // Destination register 3 holds padding: its 16 copies are skipped.
  EXPECT_EQ(r.maskedAccesses, 16);
  // The identity permutation is correct.
  p.plan.registerSource = {0, 1, 2, 3};
  EXPECT_TRUE(ok(simulatePadded(p)).correct);
}

TEST(PaddedPlan, DifferentShapesRefused) {
  PaddedLayout a = padded("{register: [(1), (2)]} -> {dim0: 4}", {3});
  PaddedLayout b = padded("{register: [(1), (2)]} -> {dim0: 4}", {4});
  auto e = planPaddedConversion(a, b, 32);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "the layouts have different logical shapes: {register: [(1), "
            "(2)]} -> {dim0: 4} over (3) and {register: [(1), (2)]} -> "
            "{dim0: 4} over (4)");
}

// (12, 8) padded to (16, 8), one warp. A = blocked([1,4], [16,2], order
// [1,0]): lane bit 0 -> column 4, lane bits 1..4 -> rows 1..8, so rows
// 12..15 are lanes 24..31 (masked). B = blocked([4,1], [4,8], order [0,1]):
// register bits -> rows 1, 2, lane bits 0, 1 -> rows 4, 8, so rows 12..15
// are the lanes with l mod 4 == 3 (masked).
TEST(PaddedPlan, Blocked12x8Masks) {
  const unsigned sa[] = {1, 4}, ta[] = {16, 2}, oa[] = {1, 0};
  const unsigned sb[] = {4, 1}, tb[] = {4, 8}, ob[] = {0, 1};
  const unsigned w[] = {1, 1};
  const int64_t shape[] = {16, 8};
  std::vector<int64_t> logical{12, 8};
  PaddedLayout a = ok(PaddedLayout::make(
      ok(linear::blockedLayout(sa, ta, w, oa, shape)), logical));
  PaddedLayout b = ok(PaddedLayout::make(
      ok(linear::blockedLayout(sb, tb, w, ob, shape)), logical));
  PaddedPlan p = ok(planPaddedConversion(a, b, 16));
  EXPECT_EQ(p.srcWaste.masked[1].values, range(24, 32));
  EXPECT_EQ(p.dstWaste.masked[1].values, range(3, 32, 4));
  EXPECT_EQ(p.srcWaste.paddedElements, 32);
  SimulationResult r = ok(simulatePadded(p));
  EXPECT_TRUE(r.correct) << r.firstMismatch << r.firstViolation;
  EXPECT_EQ(r.checked, 96);
}

// Every blocked pair of a few parameter sets over non-power-of-two shapes:
// the chosen plan and the shared-memory plan, for each element width, run
// masked: every valid element arrives, nothing touches padding.
TEST(PaddedPlan, BlockedSweep) {
  int runs = 0;
  for (const test::PaddedSweepSet &set : test::paddedBlockedSweep()) {
    const std::vector<int64_t> &logical = set.logical;
    for (const PaddedLayout &a : set.layouts)
      for (const PaddedLayout &b : set.layouts)
        for (int64_t bits : {16, 32}) {
          PaddedPlan p = ok(planPaddedConversion(a, b, bits));
          SimulationResult r = ok(simulatePadded(p));
          EXPECT_TRUE(r.correct) << a.str() << " -> " << b.str() << ": "
                                 << r.firstMismatch << r.firstViolation;
          PlanOptions noMatrix;
          noMatrix.matrixInstructions = false;
          auto smem = planSharedMemory(a.layout(), b.layout(), bits, noMatrix);
          if (!smem)
            continue;
          PaddedPlan q;
          q.plan = std::move(*smem);
          q.logicalShape = logical;
          SimulationResult s = ok(simulatePadded(q));
          EXPECT_TRUE(s.correct) << "smem " << a.str() << " -> " << b.str()
                                 << ": " << s.firstMismatch << s.firstViolation;
          ++runs;
        }
  }
  EXPECT_GT(runs, 100);
}

} // namespace
