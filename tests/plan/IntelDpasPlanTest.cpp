//===- IntelDpasPlanTest.cpp - Planning conversions to and from DPAS ------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The planner takes Intel's DPAS layouts (linear/Standard.h) like any
/// other distributed layout: a blocked tensor of the same sub-group size
/// converted to the A operand and the accumulator converted back, planned
/// and executed by plan::simulate, which checks every destination
/// register. The planner's lanes are the layout's: a sub-group of 16 is
/// a 16-lane warp (its costs are those of the NVIDIA cost model).
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Standard.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Simulator.h"

#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

namespace lk::plan {
namespace {

using linear::LinearLayout;
namespace dims = linear::dims;
using namespace test;

/// #dpas<{repeatCount 8, systolicDepth 8, executionSize 16, opsPerChan
/// `ops`, threadsPerWarp `subGroup`, warpsPerCTA `warps`, repCluster
/// [1, 1]}>.
bench::EncodingPtr dpasEnc(unsigned subGroup, int ops,
                           std::vector<unsigned> warps) {
  auto e = std::make_shared<linear::Encoding>();
  e->kind = linear::EncodingKind::IntelDpas;
  e->repeatCount = 8;
  e->systolicDepth = 8;
  e->executionSize = 16;
  e->opsPerChannel = ops;
  e->threadsPerWarp = {subGroup};
  e->warpsPerCTA = std::move(warps);
  e->repCluster = {1, 1};
  return e;
}

/// Plans src -> dst, simulates the plan and checks every destination
/// register; also forces the shared-memory strategy and simulates it.
void planAndSimulate(const LinearLayout &src, const LinearLayout &dst,
                     int64_t bits) {
  Plan p = ok(planConversion(src, dst, bits));
  SimulationResult s = ok(simulate(p));
  EXPECT_TRUE(s.correct) << p.describe() << ": " << s.firstMismatch;
  EXPECT_EQ(s.checked, dst.inDimSize(dims::kRegister) *
                           dst.inDimSize(dims::kLane) *
                           dst.inDimSize(dims::kWarp));
  Plan smem = ok(planSharedMemory(src, dst, bits));
  SimulationResult t = ok(simulate(smem));
  EXPECT_TRUE(t.correct) << smem.describe() << ": " << t.firstMismatch;
}

TEST(IntelDpasPlan, BlockedToOperandAAndAccumulatorToBlockedSubGroup16) {
  // f16 A (32 x 16) and f32 C (32 x 32) on 2 x 2 warps of 16 lanes;
  // blocked: 4 elements per thread along dim1, lanes 4 x 4, the same warps.
  bench::EncodingPtr dpas = dpasEnc(16, 2, {2, 2});
  LinearLayout blockedA = blocked({1, 4}, {4, 4}, {2, 2}, {1, 0}, {32, 16});
  LinearLayout a = layoutOf(*dotEnc(dpas, 0, 1), {32, 16});
  ASSERT_EQ(a.inDimSize(dims::kLane), 16);
  planAndSimulate(blockedA, a, 16);
  LinearLayout c = layoutOf(*dpas, {32, 32});
  LinearLayout blockedC = blocked({1, 4}, {4, 4}, {2, 2}, {1, 0}, {32, 32});
  planAndSimulate(c, blockedC, 32);
}

TEST(IntelDpasPlan, SubGroup32AndOperandB) {
  // The same with a sub-group of 32 (lanes 4 x 8), and B (opsPerChan 2,
  // 16 x 32) from a column-major blocked layout.
  bench::EncodingPtr dpas = dpasEnc(32, 2, {2, 2});
  planAndSimulate(blocked({1, 4}, {4, 8}, {2, 2}, {1, 0}, {32, 16}),
                  layoutOf(*dotEnc(dpas, 0, 1), {32, 16}), 16);
  planAndSimulate(blocked({4, 1}, {8, 4}, {2, 2}, {0, 1}, {16, 32}),
                  layoutOf(*dotEnc(dpas, 1, 2), {16, 32}), 16);
  planAndSimulate(layoutOf(*dpas, {32, 32}),
                  blocked({1, 4}, {4, 8}, {2, 2}, {1, 0}, {32, 32}), 32);
}

TEST(IntelDpasPlan, LaneCountsMustAgree) {
  // A blocked layout of 32 lanes and a DPAS layout of 16: no plan (the
  // two layouts do not describe the same threads).
  bench::EncodingPtr dpas = dpasEnc(16, 2, {1, 1});
  Expected<Plan> p =
      planConversion(blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {8, 16}),
                     layoutOf(*dpas, {8, 16}), 32);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message,
            "source and destination use different numbers of lanes: 32 vs 16");
}

} // namespace
} // namespace lk::plan
