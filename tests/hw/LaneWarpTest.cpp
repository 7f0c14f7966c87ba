//===- LaneWarpTest.cpp - A thread index as (lane, warp) ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/LaneWarp.h"

#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

namespace lk::hw {
namespace {

TEST(LaneWarp, OfAThread) {
  EXPECT_EQ(laneWarpOf(0), (LaneWarp{0, 0}));
  EXPECT_EQ(laneWarpOf(31), (LaneWarp{31, 0}));
  EXPECT_EQ(laneWarpOf(70), (LaneWarp{6, 2})); // 70 = 6 + 32 * 2
}

TEST(LaneWarp, Extents) {
  EXPECT_EQ(*laneWarpExtents(128), (LaneWarp{32, 4}));
  EXPECT_EQ(*laneWarpExtents(8), (LaneWarp{8, 1}));
  EXPECT_EQ(*laneWarpExtents(32), (LaneWarp{32, 1}));
  EXPECT_FALSE(laneWarpExtents(48).hasValue());
  EXPECT_FALSE(laneWarpExtents(0).hasValue());
}

TEST(LaneWarp, ThreadModes) {
  EXPECT_EQ(*threadModeAxis(4, 8), (ThreadModeAxis{false, 8})); // 8 * 4 <= 32
  EXPECT_EQ(*threadModeAxis(32, 1), (ThreadModeAxis{false, 1}));
  EXPECT_EQ(*threadModeAxis(2, 64), (ThreadModeAxis{true, 2})); // warps 0, 2
  // Threads 0, 16, 32, 48: lanes 0, 16 of warps 0, 1.
  Expected<ThreadModeAxis> straddle = threadModeAxis(4, 16);
  ASSERT_FALSE(straddle.hasValue());
  EXPECT_NE(straddle.error().message.find("straddles"), std::string::npos);
}

TEST(LaneWarp, SplitThreadDim) {
  const linear::DimId thread = linear::internDim("thread");
  linear::LinearLayout l =
      *linear::LinearLayout::make({{thread, {{1}, {2}, {4}, {8}, {16}, {32}}},
                                   {linear::dims::kRegister, {{64}}}},
                                  {{linear::dims::dim(0), 128}});
  Expected<linear::LinearLayout> s = splitThreadDim(l, thread);
  ASSERT_TRUE(s.hasValue()) << s.error().message;
  EXPECT_EQ(*s, *linear::parseLinearLayout(
                    "{lane: [(1), (2), (4), (8), (16)], warp: [(32)], "
                    "register: [(64)]} -> {dim0: 128}"));
  // Every thread t evaluates at (lane, warp) = laneWarpOf(t).
  for (int64_t t = 0; t < 64; ++t) {
    LaneWarp lw = laneWarpOf(t);
    EXPECT_EQ(*s->apply({lw.lane, lw.warp, 1}), *l.apply({t, 1})) << t;
  }
  // 8 threads: lanes only.
  linear::LinearLayout small = *linear::LinearLayout::make(
      {{thread, {{1}, {2}, {4}}}}, {{linear::dims::dim(0), 8}});
  Expected<linear::LinearLayout> ss = splitThreadDim(small, thread);
  ASSERT_TRUE(ss.hasValue());
  EXPECT_FALSE(ss->hasInDim(linear::dims::kWarp));
  EXPECT_EQ(ss->inDimSize(linear::dims::kLane), 8);
  EXPECT_FALSE(splitThreadDim(small, linear::dims::kLane).hasValue());
}

} // namespace
} // namespace lk::hw
