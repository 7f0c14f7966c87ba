//===- PaddedTest.cpp - Padded layouts of non-power-of-two shapes ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The worked examples of Padded.h, derived by hand beside each test, and a
/// property check of the mask on random layouts against a direct reading of
/// the definition (apply() per input, coordinates compared one by one).
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Padded.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::linear;
using lk::linear::testing::ok;
using lk::linear::testing::P;

namespace {

TEST(Padded, NextPow2AndShape) {
  EXPECT_EQ(ok(nextPow2(1)), 1);
  EXPECT_EQ(ok(nextPow2(3)), 4);
  EXPECT_EQ(ok(nextPow2(48)), 64);
  EXPECT_EQ(ok(nextPow2(64)), 64);
  EXPECT_EQ(ok(nextPow2(224)), 256);
  EXPECT_EQ(ok(nextPow2(int64_t(1) << 62)), int64_t(1) << 62);
  // (2^62, 2^63) would round to 2^63: reported, not a hang.
  auto big = nextPow2((int64_t(1) << 62) + 3);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("is 2^63, beyond int64"),
            std::string::npos);
  std::vector<int64_t> shape{3, 112, 8};
  EXPECT_EQ(ok(paddedShape(shape)), (std::vector<int64_t>{4, 128, 8}));
  std::vector<int64_t> bad{4, 0};
  auto e = paddedShape(bad);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "extent 0 of dim 1 is not in [1, 2^62]");
}

// blocked(sizePerThread [2], threadsPerWarp [32], warpsPerCTA [1]) over the
// padded shape [64]: register r of lane l holds 2l + r. Valid iff
// 2l + r < 48 iff l < 24: lanes 24..31 are fully masked; register 0 and 1
// are both valid in lane 0. 16 padded elements of 64; 16 masked slots.
TEST(Padded, BlockedOver48MasksLanes) {
  const unsigned spt[] = {2}, tpw[] = {32}, wpc[] = {1}, order[] = {0};
  const int64_t padded[] = {64};
  LinearLayout b = ok(blockedLayout(spt, tpw, wpc, order, padded));
  ASSERT_EQ(b, P("{register: [(1)], lane: [(2), (4), (8), (16), (32)], "
                 "warp: [], block: []} -> {dim0: 64}"));
  const int64_t logical[] = {48};
  PaddedLayout p = ok(PaddedLayout::make(b, logical));
  // pad() builds the same from the logical shape.
  PaddedLayout q = ok(pad(logical, [&](std::span<const int64_t> s) {
    return blockedLayout(spt, tpw, wpc, order, s);
  }));
  EXPECT_EQ(q.layout(), b);
  EXPECT_TRUE(p.isPadded());
  EXPECT_EQ(p.validElements(), 48);
  EXPECT_EQ(p.paddedElements(), 16);
  Waste w = ok(p.waste());
  EXPECT_EQ(w.elements, 64);
  EXPECT_EQ(w.slots, 64);
  EXPECT_EQ(w.maskedSlots, 16);
  EXPECT_DOUBLE_EQ(w.fraction, 0.25);
  ASSERT_EQ(w.masked.size(), 4u);
  EXPECT_TRUE(w.masked[0].values.empty()); // register
  std::vector<int64_t> lanes;
  for (int64_t l = 24; l < 32; ++l)
    lanes.push_back(l);
  EXPECT_EQ(w.masked[1].values, lanes);
  EXPECT_EQ(w.str(), "16 of 64 elements padded (25%); 16 of 64 slots masked; "
                     "lane: 8 of 32 masked (24..31)");
}

// Register bits high: register r of lane l holds 16r + l; register 3 holds
// 48..63 in every lane, so it is fully masked and no lane is.
TEST(Padded, HighRegisterBitsMaskRegisters) {
  const int64_t logical[] = {48};
  PaddedLayout p = ok(PaddedLayout::make(
      P("{register: [(16), (32)], lane: [(1), (2), (4), (8)]} -> {dim0: 64}"),
      logical));
  Waste w = ok(p.waste());
  EXPECT_EQ(w.masked[0].values, (std::vector<int64_t>{3}));
  EXPECT_TRUE(w.masked[1].values.empty());
  EXPECT_EQ(w.maskedSlots, 16);
}

// Two dims, (3, 5) padded to (4, 8): element (i, j) valid iff i < 3 and
// j < 5: 15 of 32 valid. Layout: register bits -> dim1 (1, 2, 4), lane bits
// -> dim0 (1, 2). Lane 3 (row 3) is fully masked; registers 5, 6, 7
// (columns 5..7) are fully masked.
TEST(Padded, TwoDims) {
  const int64_t logical[] = {3, 5};
  PaddedLayout p = ok(PaddedLayout::make(
      P("{register: [(0,1), (0,2), (0,4)], lane: [(1,0), (2,0)]} -> "
        "{dim0: 4, dim1: 8}"),
      logical));
  EXPECT_EQ(p.validElements(), 15);
  Waste w = ok(p.waste());
  EXPECT_EQ(w.paddedElements, 17);
  EXPECT_EQ(w.masked[0].values, (std::vector<int64_t>{5, 6, 7}));
  EXPECT_EQ(w.masked[1].values, (std::vector<int64_t>{3}));
  EXPECT_EQ(p.str(), "{register: [(0,1), (0,2), (0,4)], lane: [(1,0), "
                     "(2,0)]} -> {dim0: 4, dim1: 8} over (3,5)");
}

// Broadcast: a zero lane column duplicates each element; slots count both
// copies, elements once.
TEST(Padded, BroadcastCountsSlotsTwice) {
  const int64_t logical[] = {3};
  PaddedLayout p = ok(PaddedLayout::make(
      P("{register: [(1), (2)], lane: [(0)]} -> {dim0: 4}"), logical));
  Waste w = ok(p.waste());
  EXPECT_EQ(w.paddedElements, 1);
  EXPECT_EQ(w.slots, 8);
  EXPECT_EQ(w.maskedSlots, 2); // register 3 of lanes 0 and 1
  EXPECT_EQ(w.masked[0].values, (std::vector<int64_t>{3}));
  EXPECT_TRUE(w.masked[1].values.empty());
}

TEST(Padded, Diagnostics) {
  LinearLayout l = P("{register: [(1), (2), (4), (8), (16)]} -> {dim0: 32}");
  const int64_t wrong[] = {48};
  auto e = PaddedLayout::make(l, wrong);
  ASSERT_FALSE(e);
  EXPECT_EQ(
      e.error().message,
      "the logical extent 48 of dim0 pads to 64, but the layout's dim0 has "
      "size 32 (an extent pads to the next power of two, so dim0's must "
      "be in 17..32)");
  const int64_t rank2[] = {4, 8};
  auto r = PaddedLayout::make(l, rank2);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "the logical shape has 2 extents, the layout 1 out-dims");
  // An unpadded layout is a PaddedLayout with nothing masked.
  const int64_t exact[] = {32};
  PaddedLayout p = ok(PaddedLayout::make(l, exact));
  EXPECT_FALSE(p.isPadded());
  EXPECT_EQ(ok(p.waste()).maskedSlots, 0);
}

TEST(Padded, RangesText) {
  const int64_t v[] = {0, 1, 6, 8, 9, 10};
  EXPECT_EQ(rangesText(v), "0..1, 6, 8..10");
  EXPECT_EQ(rangesText({}), "");
}

// Property: on random layouts and logical shapes, a value is reported fully
// masked exactly when every input with that value maps (by apply) to a
// coordinate past some logical extent.
TEST(Padded, MaskMatchesDefinition) {
  lk::linear::testing::Random rng(7);
  for (int iter = 0; iter < 60; ++iter) {
    int regBits = int(rng.uniform(0, 2)), laneBits = int(rng.uniform(1, 3));
    int out0 = int(rng.uniform(1, 3)), out1 = int(rng.uniform(1, 2));
    std::vector<InDimBases> ins{{dims::kRegister, {}}, {dims::kLane, {}}};
    for (int k = 0; k < regBits + laneBits; ++k) {
      std::vector<int64_t> b{int64_t(rng.bits(out0)), int64_t(rng.bits(out1))};
      ins[k < regBits ? 0 : 1].bases.push_back(b);
    }
    std::vector<OutDim> outs{{dims::dim(0), int64_t(1) << out0},
                             {dims::dim(1), int64_t(1) << out1}};
    LinearLayout l = ok(LinearLayout::make(std::span(ins), std::span(outs)));
    // n0 in (2^(out0-1), 2^out0]: the padded extent is 2^out0.
    const int64_t fixed[] = {
        rng.uniform((int64_t(1) << (out0 - 1)) + 1, int64_t(1) << out0),
        int64_t(1) << out1};
    PaddedLayout p = ok(PaddedLayout::make(l, fixed));
    Waste w = ok(p.waste());
    for (int k = 0; k < 2; ++k) {
      int64_t size = l.inDim(k).size(), other = l.inDim(1 - k).size();
      std::vector<int64_t> want;
      for (int64_t v = 0; v < size; ++v) {
        bool allPad = true;
        for (int64_t u = 0; u < other && allPad; ++u) {
          std::vector<int64_t> in =
              k == 0 ? std::vector<int64_t>{v, u} : std::vector<int64_t>{u, v};
          std::vector<int64_t> y = ok(l.apply(in));
          allPad = !(y[0] < fixed[0] && y[1] < fixed[1]);
        }
        if (allPad)
          want.push_back(v);
      }
      EXPECT_EQ(w.masked[size_t(k)].values, want) << l.str();
    }
  }
}

} // namespace
