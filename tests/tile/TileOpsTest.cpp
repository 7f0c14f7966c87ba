//===- TileOpsTest.cpp - Direct sum, grouping and tiling ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TileOps.h"
#include "layoutkit/tile/TileText.h"

#include "support/TileTestSupport.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::tile;
using lk::tile::testing::NamedCoord;
using lk::tile::testing::referenceEval;
using lk::tile::testing::TileGenerator;

namespace {

TileLayout L(std::string_view text) {
  Expected<TileLayout> l = parseTileLayout(text);
  EXPECT_TRUE(l) << text;
  return l ? *l : TileLayout();
}

/// Pointwise sum of two coordinate sets (every pair), as named coordinates.
std::vector<NamedCoord> sumSets(const std::vector<NamedCoord> &a,
                                const std::vector<NamedCoord> &b) {
  std::vector<NamedCoord> out;
  for (const NamedCoord &x : a)
    for (const NamedCoord &y : b) {
      NamedCoord z = x;
      for (const auto &[k, v] : y)
        z[k] += v;
      out.push_back(z);
    }
  return out;
}

std::vector<NamedCoord> sorted(std::vector<NamedCoord> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(TileOps, DirectSumOverDisjointAndStackedAxes) {
  // Warps + lanes: 2 warps of 32 lanes.
  EXPECT_EQ(directSum(L("S[(2):(1@warpid)]"), L("S[(32):(1@laneid)]"))->str(),
            "S[(2,32):(1@warpid,1@laneid)]");
  // Four TMEM accumulators stacked on TCol (each 224 columns wide).
  TileLayout four = *directSum(L("S[(4):(224@TCol)]"),
                               L("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"));
  EXPECT_EQ(four.str(), "S[(4,2,128,112):(224@TCol,112@TCol,1@TLane,1@TCol)]");
  EXPECT_EQ(four.footprint(Axis::TCol()).span(), 896);
  EXPECT_TRUE(*four.isInjective());
  // Replicas combine, offsets add per axis.
  TileLayout s = *directSum(L("S[(2):(1@warpid)] + R[2:4@warpid] + 5@warpid"),
                            L("S[(4):(1)] + R[3:1@pid] + 1@warpid + 2"));
  EXPECT_EQ(
      s.str(),
      "S[(2,4):(1@warpid,1)] + R[2:4@warpid] + R[3:1@pid] + 6@warpid + 2");
}

TEST(TileOpsProperty, DirectSumIsPointwiseSum) {
  TileGenerator g(0xd5);
  for (int n = 0; n < 200; ++n) {
    TileLayout a = g.layout(32, 3, 1, 2), b = g.layout(32, 3, 1, 2);
    Expected<TileLayout> s = directSum(a, b);
    ASSERT_TRUE(s);
    ASSERT_EQ(s->size(), a.size() * b.size());
    for (int64_t f = 0; f < s->size(); ++f) {
      // Fill axes missing on either side with 0 by comparing through sums.
      std::vector<NamedCoord> want = sumSets(referenceEval(a, f / b.size()),
                                             referenceEval(b, f % b.size()));
      ASSERT_EQ(sorted(referenceEval(*s, f)), sorted(want))
          << a.str() << " + " << b.str();
    }
  }
}

TEST(TileOps, GroupByShape) {
  TileLayout frag = L("S[(8,4,2):(4@laneid,1@laneid,1)]");
  const int64_t s88[] = {8, 8};
  std::vector<IterList> g = *groupByShape(frag, s88);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0], (IterList{{8, 4, Axis::laneid()}}));
  EXPECT_EQ(g[1], (IterList{{4, 1, Axis::laneid()}, {2, 1, Axis::m()}}));
  // A boundary inside an iter splits it: 64:1 over (8,8) -> 8:8, 8:1.
  g = *groupByShape(L("S[(64):(1)]"), s88);
  EXPECT_EQ(g[0], (IterList{{8, 8, Axis::m()}}));
  EXPECT_EQ(g[1], (IterList{{8, 1, Axis::m()}}));
  // Non-power-of-two: (6,35):(35,1) over (42,5): 35 splits into 7 x 5.
  const int64_t s425[] = {42, 5};
  g = *groupByShape(L("S[(6,35):(35,1)]"), s425);
  EXPECT_EQ(g[0], (IterList{{6, 35, Axis::m()}, {7, 5, Axis::m()}}));
  EXPECT_EQ(g[1], (IterList{{5, 1, Axis::m()}}));
  // Misaligned: (6,4) over (4,6): dimension 1 needs 6, the last iter has 4.
  const int64_t s46[] = {4, 6};
  Expected<std::vector<IterList>> bad = groupByShape(L("S[(6,4):(4,1)]"), s46);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "shape (4,6) does not align with the shard of S[(6,4):(4,1)]: "
            "dimension 1 "
            "needs 6 more elements but shard iter 1 has extent 4");
  const int64_t s9[] = {9};
  EXPECT_FALSE(groupByShape(frag, s9)); // not admitted
}

TEST(TileOps, TileIsABlockedProductPerDimension) {
  TileLayout outer = L("S[(2,2):(8@TCol,4@TCol)]");
  TileLayout atom = L("S[(32,4):(1@TLane,1@TCol)]");
  const int64_t os[] = {2, 2}, is[] = {32, 4};
  Expected<TiledLayout> t = tileProduct(outer, os, atom, is);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->layout.str(), "S[(2,32,2,4):(8@TCol,1@TLane,4@TCol,1@TCol)]");
  EXPECT_EQ(t->shape, (std::vector<int64_t>{64, 8}));
  // (i,k) -> TLane i mod 32, TCol 8(i/32) + 4(k/4) + k mod 4.
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t k = 0; k < 8; ++k) {
      const int64_t c[] = {i, k};
      CoordSet s = *t->layout.eval(t->shape, c);
      EXPECT_EQ(s[0][size_t(t->layout.axisSlot(Axis::TLane()))], i % 32);
      EXPECT_EQ(s[0][size_t(t->layout.axisSlot(Axis::TCol()))],
                8 * (i / 32) + 4 * (k / 4) + k % 4);
    }
  const int64_t bad[] = {4};
  EXPECT_EQ(tileProduct(outer, os, atom, bad).error().message,
            "tileProduct: outer shape (2,2) and inner shape (4) have different "
            "ranks");
}

TEST(TileOpsProperty, TileEvaluatesOuterPlusInner) {
  TileGenerator g(0x7113);
  for (int n = 0; n < 150; ++n) {
    TileLayout outer = g.layout(16, 2, 1, 1), inner = g.layout(16, 3, 1, 1);
    std::vector<int64_t> os = g.shapeOfSize(outer.size()),
                         is = g.shapeOfSize(inner.size());
    while (os.size() < is.size())
      os.insert(os.begin(), 1);
    while (is.size() < os.size())
      is.insert(is.begin(), 1);
    Expected<TiledLayout> t = tileProduct(outer, os, inner, is);
    if (!t)
      continue; // misaligned shapes are diagnosed
    for (int64_t f = 0; f < t->layout.size(); ++f) {
      std::vector<int64_t> c = TileLayout::unflatten(t->shape, f), o(c.size()),
                           in(c.size());
      for (size_t d = 0; d < c.size(); ++d) {
        o[d] = c[d] / is[d];
        in[d] = c[d] % is[d];
      }
      int64_t fo = *outer.flatten(os, o), fi = *inner.flatten(is, in);
      ASSERT_EQ(
          sorted(referenceEval(t->layout, f)),
          sorted(sumSets(referenceEval(outer, fo), referenceEval(inner, fi))))
          << outer.str() << " x " << inner.str();
    }
  }
}

TEST(TileOps, SplitAndPack) {
  TileLayout l = L("S[(8,12):(12,1@laneid)]");
  TileLayout s = *splitIter(l, 1, 4);
  EXPECT_EQ(s.str(), "S[(8,3,4):(12,4@laneid,1@laneid)]");
  for (int64_t x = 0; x < l.size(); ++x)
    EXPECT_EQ(referenceEval(s, x), referenceEval(l, x));
  EXPECT_EQ(splitIter(l, 1, 5).error().message,
            "splitIter: 5 does not divide the extent 12 of shard iter 1");
  EXPECT_FALSE(splitIter(l, 2, 2));
  // Four 8-bit scale factors per TCol cell.
  TileLayout p = *packIter(L("S[(32,8):(1@TLane,1@TCol)]"), 1, 4);
  EXPECT_EQ(p.str(), "S[(32,2,4):(1@TLane,1@TCol,1)]");
  EXPECT_EQ(p.footprint(Axis::TCol()).span(), 2);
  EXPECT_EQ(packIter(p, 0, 3).error().message,
            "packIter: 3 elements per cell do not divide the extent 32 of "
            "shard iter 0");
}

} // namespace
