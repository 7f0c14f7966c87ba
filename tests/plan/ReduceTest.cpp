//===- ReduceTest.cpp - Reductions along one axis -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Hand-derived plans (the derivation beside each test) executed by the
// reduction simulator, plans broken on purpose that it must catch, and
// refusals.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Reduce.h"
#include "layoutkit/linear/Standard.h"

#include <gtest/gtest.h>

namespace {

using namespace lk;
using linear::LinearLayout;
namespace dims = linear::dims;

LinearLayout blockedRow16() {
  unsigned spt[] = {1, 4}, tpw[] = {8, 4}, wpc[] = {2, 1}, order[] = {1, 0};
  int64_t shape[] = {16, 16};
  auto l = linear::blockedLayout(spt, tpw, wpc, order, shape);
  EXPECT_TRUE(l);
  return *l;
}

plan::ReduceSimulation simulated(const plan::ReducePlan &p) {
  auto s = plan::simulateReduction(p);
  EXPECT_TRUE(s) << s.error().message;
  if (!s)
    return {};
  EXPECT_TRUE(s->correct) << s->firstMismatch;
  EXPECT_EQ(s->counts.combines, p.counts.combines);
  EXPECT_EQ(s->counts.shuffles, p.counts.shuffles);
  EXPECT_EQ(s->counts.storeInstructions, p.counts.storeInstructions);
  EXPECT_EQ(s->counts.storeLanes, p.counts.storeLanes);
  EXPECT_EQ(s->counts.loadInstructions, p.counts.loadInstructions);
  EXPECT_EQ(s->counts.registerCopies, p.counts.registerCopies);
  EXPECT_EQ(s->counts.barriers, p.counts.barriers);
  EXPECT_EQ(s->counts.bytes, p.counts.bytes);
  return *s;
}

// Registers (0,1), (0,2); lanes (0,4), (0,8), (1,0), (2,0), (4,0); warp
// (8,0). Axis 1: both register bits and lane bits 0, 1 are axis bits:
// 3 + 2 combines and 2 shuffles per warp (2 warps, 1 result register).
TEST(ReduceHandDerived, BlockedAlongColumnsStaysInTheWarp) {
  auto p = plan::planReduction(blockedRow16(), 1, 32);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->registerAxisBits, (std::vector<int>{0, 1}));
  EXPECT_EQ(p->laneAxisBits, (std::vector<int>{0, 1}));
  EXPECT_TRUE(p->warpAxisBits.empty());
  EXPECT_EQ(p->result.inDimSize(dims::kRegister), 1);
  EXPECT_EQ(p->result.basis(dims::kLane, 0, dims::dim(0)), 0);
  EXPECT_EQ(p->result.basis(dims::kLane, 2, dims::dim(0)), 1);
  EXPECT_EQ(p->result.basis(dims::kWarp, 0, dims::dim(0)), 8);
  EXPECT_EQ(p->result.outDimSize(dims::dim(1)), 1);
  EXPECT_EQ(p->counts.combines, 10);
  EXPECT_EQ(p->counts.shuffles, 4);
  EXPECT_EQ(p->counts.storeInstructions, 0);
  simulated(*p);
}

// Axis 0: lanes 2, 3, 4 (rows 1, 2, 4) and warp 0 (row 8) are axis bits.
// 4 result registers (columns c1, c2 of each thread's 4). Store: 2 warps x
// 4 registers = 8 instructions; with elimination only lanes with lane bits
// 2-4 clear store (4 lanes): 32 thread stores, without 8 x 32 = 256.
// Loads: 2 partials per register: 2 x 4 x 2 = 16; buffer 16 columns x 2
// partials x 4 bytes = 128 bytes.
TEST(ReduceHandDerived, BlockedAlongRowsCrossesWarps) {
  auto p = plan::planReduction(blockedRow16(), 0, 32);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->registerAxisBits.empty());
  EXPECT_EQ(p->laneAxisBits, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(p->warpAxisBits, (std::vector<int>{0}));
  EXPECT_EQ(p->storeLaneSkip, 0b11100u);
  EXPECT_EQ(p->counts.storeInstructions, 8);
  EXPECT_EQ(p->counts.storeLanes, 32);
  EXPECT_EQ(p->counts.loadInstructions, 16);
  EXPECT_EQ(p->counts.barriers, 1);
  EXPECT_EQ(p->counts.bytes, 128);
  simulated(*p);
  auto all = plan::planReduction(blockedRow16(), 0, 32, false);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->counts.storeInstructions, 8);
  EXPECT_EQ(all->counts.storeLanes, 256);
  simulated(*all);
}

// 8x8 over 4 warps with a zero lane basis (lane 4) and a zero warp basis
// (warp 1): warps 2, 3 repeat warps 0, 1. Axis 0: lane bits 2, 3 and warp
// bit 0 are axis bits. With elimination warps 0, 1 store their 2 registers
// (4 instructions), 32 >> 3 = 4 lanes each (16 thread stores); without,
// 4 x 2 = 8 instructions and 256 thread stores: half the instructions.
TEST(ReduceHandDerived, BroadcastWarpsAndLanesStoreOnce) {
  auto l = LinearLayout::make(
      {{dims::kRegister, {{0, 1}}},
       {dims::kLane, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {0, 0}}},
       {dims::kWarp, {{4, 0}, {0, 0}}}},
      {{dims::dim(0), 8}, {dims::dim(1), 8}});
  ASSERT_TRUE(l);
  auto p = plan::planReduction(*l, 0, 16);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->storeWarpSkip, 0b10u);
  EXPECT_EQ(p->storeLaneSkip, 0b11100u);
  EXPECT_EQ(p->counts.storeInstructions, 4);
  EXPECT_EQ(p->counts.storeLanes, 16);
  simulated(*p);
  auto all = plan::planReduction(*l, 0, 16, false);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->counts.storeInstructions, 8);
  EXPECT_EQ(all->counts.storeLanes, 256);
  simulated(*all);
}

// A zero register basis: result register 1 copies register 0 (1 copy per
// warp); a 64-bit element takes two shuffles per round.
TEST(ReduceHandDerived, DuplicatedRegisterIsCopied) {
  auto l = LinearLayout::make({{dims::kRegister, {{0}, {1}}},
                               {dims::kLane, {{2}, {4}, {8}, {16}, {32}}}},
                              {{dims::dim(0), 64}});
  ASSERT_TRUE(l);
  auto p = plan::planReduction(*l, 0, 64);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->registerAxisBits, (std::vector<int>{1}));
  EXPECT_EQ(p->computedRegisters, (std::vector<int64_t>{0}));
  ASSERT_EQ(p->copies.size(), 1u);
  EXPECT_EQ(p->counts.shuffles, 10);
  EXPECT_EQ(p->counts.registerCopies, 1);
  simulated(*p);
}

// Combining over a broadcast lane bit counts its elements twice; storing
// nothing from an axis warp leaves a partial unwritten.
TEST(ReduceSimulator, CatchesDoubleCountingAndMissingPartials) {
  auto l = LinearLayout::make(
      {{dims::kRegister, {{0, 1}}},
       {dims::kLane, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {0, 0}}},
       {dims::kWarp, {{4, 0}, {0, 0}}}},
      {{dims::dim(0), 8}, {dims::dim(1), 8}});
  ASSERT_TRUE(l);
  auto p = plan::planReduction(*l, 0, 32);
  ASSERT_TRUE(p);
  plan::ReducePlan twice = *p;
  twice.laneAxisBits.push_back(4);
  auto s = plan::simulateReduction(twice);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->correct);
  EXPECT_NE(s->firstMismatch.find("holds 16 elements, wants the 8"),
            std::string::npos)
      << s->firstMismatch;
  plan::ReducePlan missing = *p;
  missing.storeWarpSkip |= 1;
  auto m = plan::simulateReduction(missing);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("which no one stored"), std::string::npos);
}

TEST(ReduceRefusals, SayWhy) {
  auto swizzled = LinearLayout::make({{dims::kRegister, {{1, 1}, {0, 1}}}},
                                     {{dims::dim(0), 2}, {dims::dim(1), 2}});
  ASSERT_TRUE(swizzled);
  auto p = plan::planReduction(*swizzled, 0, 32);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("expected a distributed layout"),
            std::string::npos);
  auto axis = plan::planReduction(blockedRow16(), 2, 32);
  ASSERT_FALSE(axis);
  EXPECT_NE(axis.error().message.find("axis 2 out of range"),
            std::string::npos);
  auto width = plan::planReduction(blockedRow16(), 0, 12);
  ASSERT_FALSE(width);
  EXPECT_EQ(width.error().message,
            "reduction: element width 12 bits is not supported (allowed: 8, "
            "16, 32, 64)");
  // Register (1,0) and lane (0,0): 1 of the 2 bits of a 2x2 tensor
  // spanned, 2 of its 4 elements held.
  auto half =
      LinearLayout::make({{dims::kRegister, {{1, 0}}}, {dims::kLane, {{0, 0}}}},
                         {{dims::dim(0), 2}, {dims::dim(1), 2}});
  ASSERT_TRUE(half);
  auto missing = plan::planReduction(*half, 0, 32);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message,
            "reduction: the reduced layout holds 2 of its tensor's 4 elements "
            "(its "
            "columns span 1 of 2 logical bits), so it does not cover the "
            "tensor: " +
                half->str());
}

} // namespace

namespace {

// Bounds before work: 21 hardware bits are refused by the planner; 20 bits
// (10 zero register bases, 5 lane and 5 warp bits holding a 1-D tensor of
// 2^10) are planned, but simulating them would hold 2^20 result locations
// x 2^10 ids per fiber = 2^30 ids, over the simulator's 2^26.
TEST(ReduceRefusals, BoundsTheWorkBeforeStarting) {
  auto layout = [](int zeroRegs) {
    std::vector<std::vector<int64_t>> regs(size_t(zeroRegs),
                                           std::vector<int64_t>{0});
    std::vector<std::vector<int64_t>> lanes, warps;
    for (int b = 0; b < 5; ++b) {
      lanes.push_back({int64_t(1) << b});
      warps.push_back({int64_t(32) << b});
    }
    return LinearLayout::make(
        {{dims::kRegister, regs}, {dims::kLane, lanes}, {dims::kWarp, warps}},
        {{dims::dim(0), 1024}});
  };
  auto big = layout(11);
  ASSERT_TRUE(big);
  auto refused = plan::planReduction(*big, 0, 32);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("at most 2^20 hardware locations"),
            std::string::npos);
  auto l = layout(10);
  ASSERT_TRUE(l);
  auto p = plan::planReduction(*l, 0, 32);
  ASSERT_TRUE(p) << p.error().message;
  auto s = plan::simulateReduction(*p);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("2^30 element ids"), std::string::npos)
      << s.error().message;
}

} // namespace
