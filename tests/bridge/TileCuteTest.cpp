//===- TileCuteTest.cpp - Bridge tile <-> cute ----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Worked examples (derived by hand beside each test), refusals, and
/// property tests on random layouts: exact round trips, and element by
/// element agreement of tile's L(x) with cute's crd2offset.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/bridge/TileCute.h"

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/tile/TileText.h"

#include "support/TileTestSupport.h"

#include "support/BridgeTestSupport.h"

#include <gtest/gtest.h>

#include <functional>

using namespace lk;
using namespace lk::bridge;
using namespace lk::bridge::testing;
using lk::tile::Axis;
using lk::tile::CoordSet;
using lk::tile::TileLayout;
using lk::tile::testing::TileGenerator;

namespace {

/// Value of a crd2offset result on codomain dimension i (0 past its end).
int64_t dim(const IntTuple &t, size_t i) {
  if (t.isLeaf())
    return i == 0 ? t.value() : 0;
  return i < t.rank() ? t[i].value() : 0;
}

/// For every flat x and replica r: L(x)[r] == shard(x) + replica(r) + O, per
/// axis of the codomain, with the cute side evaluated by crd2offset.
::testing::AssertionResult agrees(const TileLayout &l, const TileAsCute &c) {
  CoordSet s;
  for (int64_t x = 0; x < l.size(); ++x) {
    l.evalInto(x, s);
    Expected<IntTuple> d = cute::crd2offset(IntTuple(x), c.shard);
    if (!d)
      return ::testing::AssertionFailure() << d.error().message;
    for (size_t r = 0; r < s.size(); ++r) {
      IntTuple rep;
      if (c.replica) {
        Expected<IntTuple> rr =
            cute::crd2offset(IntTuple(int64_t(r)), *c.replica);
        if (!rr)
          return ::testing::AssertionFailure() << rr.error().message;
        rep = *rr;
      }
      for (size_t i = 0; i < c.axes.size(); ++i) {
        int slot = l.axisSlot(c.axes[i]);
        int64_t want = slot < 0 ? 0 : s[r][size_t(slot)];
        int64_t got =
            dim(*d, i) + (c.replica ? dim(rep, i) : 0) + l.offsetOn(c.axes[i]);
        if (want != got)
          return ::testing::AssertionFailure()
                 << l.str() << " vs " << c.shard.str() << " at x=" << x
                 << " r=" << r << " axis " << c.axes[i].name() << ": " << want
                 << " != " << got;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(TileCute, TensorMemoryAccumulator) {
  TileLayout l = tileOf("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]");
  Expected<TileAsCute> c = tileToCute(l);
  ASSERT_TRUE(c);
  // Modes reversed; TCol is codomain 0 (named first), TLane codomain 1.
  EXPECT_EQ(c->shard.str(), "(112,128,2):(1@0,1@1,112@0)");
  ASSERT_EQ(c->axes.size(), 2u);
  EXPECT_EQ(c->axes[0], Axis::TCol());
  EXPECT_EQ(c->axes[1], Axis::TLane());
  EXPECT_FALSE(c->replica);
  // Element (1,127,111): flat 1*128*112 + 127*112 + 111 = 28671; cute splits
  // it colex over (112,128,2) -> (111,127,1) -> (111 + 112, 127) = (223,127).
  EXPECT_EQ(cute::crd2offset(IntTuple(28671), c->shard)->str(), "(223,127)");
  EXPECT_TRUE(agrees(l, *c));
  EXPECT_EQ(*cuteToTile(*c), l);
}

TEST(TileCute, M8n8Fragment) {
  TileLayout l = tileOf("S[(8,4,2):(4@laneid,1@laneid,1)]");
  Expected<TileAsCute> c = tileToCute(l);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->shard.str(), "(2,4,8):(1@1,1@0,4@0)");
  EXPECT_TRUE(agrees(l, *c));
  // A chosen codomain order.
  const Axis order[] = {Axis::m(), Axis::laneid(), Axis::warpid()};
  Expected<TileAsCute> c2 = tileToCute(l, ReplicaOffset::Refuse, order);
  ASSERT_TRUE(c2);
  EXPECT_EQ(c2->shard.str(), "(2,4,8):(1@0,1@1,4@1)");
  EXPECT_TRUE(agrees(l, *c2));
}

TEST(TileCute, PlainCuteLayoutIsAMemoryLayout) {
  // (4,8):(1,4) is column-major 4x8; in tile order the iters are reversed.
  const Axis m[] = {Axis::m()};
  Expected<TileLayout> t = cuteToTile(cuteOf("(4,8):(1,4)"), m);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->str(), "S[(8,4):(4,1)]");
  // Nested cute shapes flatten: ((2,4),8):((1,16),2) -> leaves 2:1, 4:16, 8:2.
  t = cuteToTile(cuteOf("((2,4),8):((1,16),2)"), m);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->str(), "S[(8,4,2):(2,16,1)]");
  for (int64_t x = 0; x < 64; ++x)
    EXPECT_EQ(t->addressAt(x),
              cute::evaluate(cuteOf("((2,4),8):((1,16),2)"), x));
}

TEST(TileCute, ReplicaAndOffsetAreRefusedOrCarried) {
  TileLayout l = tileOf(
      "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid");
  Expected<TileAsCute> refused = tileToCute(l);
  ASSERT_FALSE(refused);
  EXPECT_EQ(
      refused.error().message,
      "replica iter 0 (R[2:4@warpid]) is not representable in a cute layout: "
      "cute maps a coordinate to one point");
  ASSERT_EQ(refused.error().notes.size(), 1u);

  Expected<TileAsCute> offsetOnly = tileToCute(tileOf("S[(4):(1)] + 5@warpid"));
  ASSERT_FALSE(offsetOnly);
  EXPECT_EQ(
      offsetOnly.error().message,
      "offset 5@warpid is not representable in a cute layout: cute layouts "
      "start at the origin");
  // A zero offset adds nothing and is kept.
  Expected<TileAsCute> zero = tileToCute(tileOf("S[(4):(1)] + 0@warpid"));
  ASSERT_TRUE(zero);
  EXPECT_EQ(*cuteToTile(*zero), tileOf("S[(4):(1)] + 0@warpid"));

  Expected<TileAsCute> carried = tileToCute(l, ReplicaOffset::Carry);
  ASSERT_TRUE(carried);
  // axes (laneid, warpid, m): shard (2,4,2,8):(1@2,1@0,1@1,4@0).
  EXPECT_EQ(carried->shard.str(), "(2,4,2,8):(1@2,1@0,1@1,4@0)");
  ASSERT_TRUE(carried->replica);
  EXPECT_EQ(carried->replica->str(), "(2):(4@1)");
  EXPECT_TRUE(agrees(l, *carried));
  EXPECT_EQ(*cuteToTile(*carried), l);
}

TEST(TileCute, CodomainErrors) {
  TileLayout l = tileOf("S[(4,2):(1@laneid,1)]");
  const Axis missing[] = {Axis::laneid()};
  EXPECT_EQ(tileToCute(l, ReplicaOffset::Refuse, missing).error().message,
            "the layout names axis m, which is not in the codomain");
  const Axis twice[] = {Axis::laneid(), Axis::m(), Axis::m()};
  EXPECT_EQ(tileToCute(l, ReplicaOffset::Refuse, twice).error().message,
            "axis m appears twice in the codomain");
}

TEST(TileCute, CuteRefusals) {
  const Axis two[] = {Axis::laneid(), Axis::m()};
  EXPECT_EQ(
      cuteToTile(cuteOf("(4,2):(1@0@1,1)"), two).error().message,
      "cute layout (4,2):(1@0@1,1), leaf 0 (stride 1@0@1): a nested basis is "
      "not representable as a tile stride (tile axes are flat)");
  EXPECT_EQ(cuteToTile(cuteOf("(4,2):(1@2,1)"), two).error().message,
            "cute layout (4,2):(1@2,1), leaf 0 (stride 1@2): basis index 2 is "
            "outside "
            "the codomain of 2 axes");
  EXPECT_EQ(
      cuteToTile(cuteOf("(4,2):(1,-3)"), two).error().message,
      "cute layout (4,2):(1,-3), leaf 1 (stride -3): a negative stride is not "
      "representable (tile strides are non-negative)");
  EXPECT_FALSE(cuteToTile(cuteOf("(4,2):(1,2)"), {}));
}

TEST(TileCuteProperty, RandomTileLayoutsRoundTrip) {
  TileGenerator g(0xb41d9e);
  for (int n = 0; n < 400; ++n) {
    TileLayout l = g.layout(512, 5, 2, 3);
    Expected<TileAsCute> c = tileToCute(l, ReplicaOffset::Carry);
    ASSERT_TRUE(c) << l.str() << ": " << c.error().message;
    ASSERT_TRUE(agrees(l, *c));
    Expected<TileLayout> back = cuteToTile(*c);
    ASSERT_TRUE(back) << l.str();
    ASSERT_EQ(*back, l) << l.str() << " -> " << back->str();
    // Without replica and offset the refusing mode succeeds as well.
    if (l.replica().empty()) {
      bool offsets = false;
      for (const tile::AxisValue &o : l.offset())
        offsets |= o.value != 0;
      ASSERT_EQ(bool(tileToCute(l)), !offsets) << l.str();
    } else {
      ASSERT_FALSE(tileToCute(l)) << l.str();
    }
  }
}

TEST(TileCuteProperty, RandomCuteLayoutsRoundTrip) {
  TileGenerator g(0xc07e);
  const Axis axes[] = {Axis::m(), Axis::laneid(), Axis::warpid(), Axis::TCol()};
  for (int n = 0; n < 400; ++n) {
    // A random nested shape with plain or single-level basis strides.
    std::function<void(int, IntTuple &, IntTuple &, int64_t &)> build =
        [&](int depth, IntTuple &shape, IntTuple &stride, int64_t &size) {
          if (depth == 0 || g.chance(40)) {
            int64_t e = g.extent();
            if (size * e > 2048)
              e = 1;
            size *= e;
            shape = IntTuple(e);
            int64_t s = g.stride();
            stride =
                g.chance(25)
                    ? IntTuple(s)
                    : IntTuple::leaf(s, BasisPath::unit(int(g.uniform(0, 3))));
            return;
          }
          shape = IntTuple();
          stride = IntTuple();
          for (int64_t i = 0, r = g.uniform(1, 3); i < r; ++i) {
            IntTuple a, b;
            build(depth - 1, a, b, size);
            shape.push_back(a);
            stride.push_back(b);
          }
        };
    IntTuple shape, stride;
    int64_t size = 1;
    build(3, shape, stride, size);
    Expected<cute::Layout> c = cute::Layout::make(shape, stride);
    ASSERT_TRUE(c) << shape.str() << ":" << stride.str();
    Expected<TileLayout> t = cuteToTile(*c, axes);
    ASSERT_TRUE(t) << c->str() << ": " << t.error().message;
    // Element by element: the tile layout computes what cute computes.
    const Axis *ax = axes;
    for (int64_t x = 0; x < t->size(); ++x) {
      IntTuple want = *cute::crd2offset(IntTuple(x), *c);
      for (size_t i = 0; i < 4; ++i)
        ASSERT_EQ(t->addressAt(x, ax[i]), dim(want, i))
            << c->str() << " -> " << t->str() << " at " << x;
    }
    // Back to cute over the same codomain: the flattened layout, strides as
    // bases; again the same function.
    Expected<TileAsCute> back = tileToCute(*t, ReplicaOffset::Refuse, axes);
    ASSERT_TRUE(back);
    auto leavesA = c->shape().leaves(), leavesB = back->shard.shape().leaves();
    ASSERT_EQ(leavesA.size(), leavesB.size());
    for (size_t k = 0; k < leavesA.size(); ++k)
      ASSERT_EQ(leavesA[k].value, leavesB[k].value);
    for (int64_t x = 0; x < t->size(); ++x) {
      IntTuple a = *cute::crd2offset(IntTuple(x), *c);
      IntTuple b = *cute::crd2offset(IntTuple(x), back->shard);
      for (size_t i = 0; i < 4; ++i)
        ASSERT_EQ(dim(a, i), dim(b, i));
    }
    ASSERT_EQ(*cuteToTile(*back), *t);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Swizzles
//===----------------------------------------------------------------------===//

// Tile's Swizzle(M,B,S) and cute's Swizzle<B,M,S> are the same function:
// every well-formed small (M, B, S), every address below 2^(M+S+B+1).
TEST(SwizzleBridge, TileAndCuteSwizzlesAgree) {
  for (int M = 0; M <= 4; ++M)
    for (int B = 0; B <= 3; ++B)
      for (int S = B; S <= 5; ++S) {
        Expected<tile::SwizzleLayout> s = tile::SwizzleLayout::make(M, B, S);
        ASSERT_TRUE(s);
        cute::Swizzle c = swizzleToCute(*s);
        EXPECT_EQ(c.B, B);
        EXPECT_EQ(c.M, M);
        EXPECT_EQ(c.S, S);
        for (int64_t m = 0; m < (int64_t(1) << (M + S + B + 1)); ++m)
          ASSERT_EQ((*s)(m), cute::swizzleApply(B, M, S, m)) << s->str();
        Expected<tile::SwizzleLayout> back = swizzleFromCute(c);
        ASSERT_TRUE(back);
        EXPECT_EQ(*back, *s);
      }
}

// cute accepts S < B (not self-inverse); the tile model refuses it.
TEST(SwizzleBridge, FromCuteRefusesOverlappingBits) {
  EXPECT_FALSE(swizzleFromCute(cute::Swizzle{3, 4, 2}));
  Expected<tile::SwizzleLayout> s = swizzleFromCute(cute::Swizzle{3, 4, 3});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->str(), "Swizzle(M=4,B=3,S=3)");
}
