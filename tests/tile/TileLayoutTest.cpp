//===- TileLayoutTest.cpp - The forward map and the inverse queries -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Expected values come from the tables of docs/design.md §6.1-6.2 or are
/// derived by hand beside each test; the property tests compare with
/// the reference evaluator of TileTestSupport.h on random layouts.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TileLayout.h"
#include "layoutkit/tile/TileText.h"

#include "support/TileTestSupport.h"

#include <gtest/gtest.h>

#include <set>

using namespace lk;
using namespace lk::tile;
using lk::tile::testing::named;
using lk::tile::testing::NamedCoord;
using lk::tile::testing::referenceEval;
using lk::tile::testing::TileGenerator;

namespace {

TileLayout parse(std::string_view text) {
  Expected<TileLayout> l = parseTileLayout(text);
  EXPECT_TRUE(l) << (l ? "" : l.error().render());
  return l ? *l : TileLayout();
}

const char *kTensorCore =
    "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid";

std::vector<NamedCoord> evalAt(const TileLayout &l, std::vector<int64_t> shape,
                               std::vector<int64_t> coord) {
  Expected<CoordSet> s = l.eval(shape, coord);
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return s ? named(l, *s) : std::vector<NamedCoord>{};
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

TEST(TileLayout, MakeAndAccessors) {
  TileLayout l = parse(kTensorCore);
  ASSERT_EQ(l.shard().size(), 4u);
  EXPECT_EQ(l.shard()[0], (Iter{8, 4, Axis::laneid()}));
  EXPECT_EQ(l.shard()[3], (Iter{2, 1, Axis::m()}));
  ASSERT_EQ(l.replica().size(), 1u);
  EXPECT_EQ(l.replica()[0], (Iter{2, 4, Axis::warpid()}));
  EXPECT_EQ(l.offsetOn(Axis::warpid()), 5);
  EXPECT_EQ(l.offsetOn(Axis::m()), 0);
  EXPECT_EQ(l.size(), 128);
  EXPECT_EQ(l.replicaCount(), 2);
  ASSERT_EQ(l.axes().size(), 3u);
  EXPECT_EQ(l.axes()[0], Axis::laneid());
  EXPECT_EQ(l.axes()[1], Axis::warpid());
  EXPECT_EQ(l.axes()[2], Axis::m());
  EXPECT_EQ(l.axisSlot(Axis::tid()), -1);

  Expected<TileLayout> made =
      TileLayout::make({{8, 4, Axis::laneid()},
                        {2, 1, Axis::warpid()},
                        {4, 1, Axis::laneid()},
                        {2, 1, Axis::m()}},
                       {{2, 4, Axis::warpid()}}, {{Axis::warpid(), 5}});
  ASSERT_TRUE(made);
  EXPECT_EQ(*made, l);
  EXPECT_EQ(made->str(), kTensorCore);
}

TEST(TileLayout, ShapeTextIsTheGrammars) {
  EXPECT_EQ(shapeText(std::vector<int64_t>{8, 64}), "(8,64)");
  EXPECT_EQ(shapeText(std::vector<int64_t>{}), "()");
}

TEST(TileLayout, DefaultIsTrivial) {
  TileLayout l;
  EXPECT_EQ(l.size(), 1);
  EXPECT_EQ(l.str(), "S[(1):(0)]");
  EXPECT_EQ(l.addressAt(0), 0);
}

TEST(TileLayout, MakeRejects) {
  auto msg = [](Expected<TileLayout> r) {
    return r ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(msg(TileLayout::make(IterList{})),
            "a tile layout needs at least one shard iter");
  EXPECT_EQ(msg(TileLayout::make({{0, 1, Axis::m()}})),
            "shard iter 0 (0:1): extent must be at least 1");
  EXPECT_EQ(
      msg(TileLayout::make({{4, 1, Axis::m()}}, {{2, -1, Axis::laneid()}})),
      "replica iter 0 (2:-1@laneid): stride must be non-negative");
  EXPECT_EQ(msg(TileLayout::make({{4, 1, Axis::m()}}, {}, {{Axis::F(), -2}})),
            "offset -2 on axis F must be non-negative");
  EXPECT_EQ(msg(TileLayout::make({{4, 1, Axis::m()}}, {},
                                 {{Axis::F(), 2}, {Axis::F(), 3}})),
            "two offsets on axis F; the offset has one integer per axis");
  // 2^32 * 2^32 elements overflow the size; a reach of 2^62 * 2 + ... the
  // largest coordinate.
  EXPECT_EQ(
      msg(TileLayout::make({{int64_t(1) << 32, 1, Axis::m()},
                            {int64_t(1) << 32, 1, Axis::m()}})),
      "integer overflow in the size of the shard (product of its extents)");
  EXPECT_EQ(
      msg(TileLayout::make({{3, int64_t(1) << 62, Axis::m()}})),
      "integer overflow in the largest physical coordinate of the layout");
  EXPECT_EQ(
      msg(TileLayout::make({{2, int64_t(1) << 62, Axis::m()}}, {},
                           {{Axis::m(), int64_t(1) << 62}})),
      "integer overflow in the largest physical coordinate of the layout");
}

//===----------------------------------------------------------------------===//
// Forward map: the tensor-core tile (docs/design.md §6.1)
//===----------------------------------------------------------------------===//

/// Every row of the element table of the tensor-core tile (design.md §6.1):
/// (i, j), flat, (c0..c3), laneid, warpid (x2), m.
TEST(TileLayout, TensorCoreTableRows) {
  struct Row {
    int64_t i, j, flat;
    int64_t c[4];
    int64_t laneid, warp0, warp1, m;
  };
  const Row rows[] = {
      {0, 0, 0, {0, 0, 0, 0}, 0, 5, 9, 0},
      {0, 1, 1, {0, 0, 0, 1}, 0, 5, 9, 1},
      {0, 2, 2, {0, 0, 1, 0}, 1, 5, 9, 0},
      {1, 0, 16, {1, 0, 0, 0}, 4, 5, 9, 0},
      {0, 8, 8, {0, 1, 0, 0}, 0, 6, 10, 0},
      {7, 15, 127, {7, 1, 3, 1}, 31, 6, 10, 1},
  };
  TileLayout l = parse(kTensorCore);
  const int64_t shape[] = {8, 16};
  for (const Row &r : rows) {
    const int64_t coord[] = {r.i, r.j};
    ASSERT_EQ(*l.flatten(shape, coord), r.flat);
    SmallVector<int64_t, 8> c = l.components(r.flat);
    ASSERT_EQ(c.size(), 4u);
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(c[size_t(k)], r.c[k]) << "(" << r.i << "," << r.j << ") c" << k;
    std::vector<NamedCoord> want = {
        {{"laneid", r.laneid}, {"warpid", r.warp0}, {"m", r.m}},
        {{"laneid", r.laneid}, {"warpid", r.warp1}, {"m", r.m}}};
    EXPECT_EQ(evalAt(l, {8, 16}, {r.i, r.j}), want) << r.i << "," << r.j;
  }
}

/// The closed form (docs/design.md §6.1): laneid = 4i + floor(j/2) mod 4,
/// warpid = floor(j/8) + 5 + 4r, m = j mod 2, for all 128 elements.
TEST(TileLayout, TensorCoreClosedForm) {
  TileLayout l = parse(kTensorCore);
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      std::vector<NamedCoord> got = evalAt(l, {8, 16}, {i, j});
      ASSERT_EQ(got.size(), 2u);
      for (int64_t r = 0; r < 2; ++r) {
        NamedCoord want = {{"laneid", 4 * i + (j / 2) % 4},
                           {"warpid", j / 8 + 5 + 4 * r},
                           {"m", j % 2}};
        EXPECT_EQ(got[size_t(r)], want);
      }
    }
}

TEST(TileLayout, Owners) {
  TileLayout l = parse(kTensorCore);
  // Element (0,0) lives on warps {5, 9}; (0,8) on {6, 10}.
  std::vector<PhysicalCoord> o = l.owners(0);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[0][1], (AxisValue{Axis::warpid(), 5}));
  EXPECT_EQ(o[1][1], (AxisValue{Axis::warpid(), 9}));
  o = l.owners(8);
  EXPECT_EQ(o[0][1], (AxisValue{Axis::warpid(), 6}));
  EXPECT_EQ(o[1][1], (AxisValue{Axis::warpid(), 10}));
}

TEST(TileLayout, ShapeAdmission) {
  TileLayout l = parse(kTensorCore);
  for (std::vector<int64_t> s :
       {std::vector<int64_t>{128}, {8, 16}, {2, 64}, {4, 4, 8}, {1, 128, 1}})
    EXPECT_TRUE(l.admits(s)) << s.size();
  const int64_t bad[] = {8, 8};
  Status st = l.admits(bad);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message,
            "shape (8,8) of size 64 is not admitted by a layout of size 128 "
            "(the product of the shard extents)");
  const int64_t zero[] = {0, 128};
  EXPECT_FALSE(l.admits(zero));
  // Any admitted shape: (4,32) element (1,2) is flat 34 == (2,2) of (8,16).
  EXPECT_EQ(evalAt(l, {4, 32}, {1, 2}), evalAt(l, {8, 16}, {2, 2}));
  EXPECT_EQ(evalAt(l, {128}, {127}), evalAt(l, {8, 16}, {7, 15}));
}

TEST(TileLayout, CoordinateErrors) {
  TileLayout l = parse(kTensorCore);
  const int64_t shape[] = {8, 16};
  const int64_t out[] = {8, 0};
  const int64_t neg[] = {0, -1};
  const int64_t rank1[] = {3};
  EXPECT_EQ(l.eval(shape, out).error().message,
            "coordinate (8,0) is outside shape (8,16) in dimension 0");
  EXPECT_FALSE(l.eval(shape, neg));
  EXPECT_EQ(l.eval(shape, rank1).error().message,
            "coordinate of rank 1 for shape (8,16) of rank 2");
}

//===----------------------------------------------------------------------===//
// Non-power-of-two extents, addresses, footprint
//===----------------------------------------------------------------------===//

TEST(TileLayout, TensorMemoryAccumulator) {
  // TLane = l, TCol = 112a + c (docs/design.md §6.2).
  TileLayout l = parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]");
  EXPECT_EQ(l.size(), 2 * 128 * 112);
  struct Row {
    int64_t a, l, c, lane, col;
  };
  for (Row r : {Row{0, 0, 0, 0, 0}, Row{0, 5, 3, 5, 3}, Row{1, 0, 0, 0, 112},
                Row{1, 127, 111, 127, 223}}) {
    NamedCoord want = {{"TLane", r.lane}, {"TCol", r.col}};
    EXPECT_EQ(evalAt(l, {2, 128, 112}, {r.a, r.l, r.c}),
              std::vector<NamedCoord>{want});
    const int64_t shape[] = {2, 128, 112};
    const int64_t coord[] = {r.a, r.l, r.c};
    EXPECT_EQ(*l.address(shape, coord, Axis::TCol()), r.col);
    EXPECT_EQ(*l.address(shape, coord, Axis::TLane()), r.lane);
  }
  EXPECT_EQ(l.footprint(Axis::TCol()), (Footprint{0, 223}));
  EXPECT_EQ(l.footprint(Axis::TCol()).span(), 224);
  EXPECT_EQ(l.footprint(Axis::TLane()).span(), 128);
  EXPECT_EQ(l.footprint(Axis::m()), (Footprint{0, 0}));
  EXPECT_TRUE(*l.isInjectiveOn(Axis::TCol()));
  EXPECT_TRUE(*l.isInjective());
}

TEST(TileLayout, MemoryAddress) {
  // Row-major (8,64): m = 64i + j.
  TileLayout l = parse("S[(8,64):(64,1)]");
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 64; ++j) {
      const int64_t s[] = {8, 64}, c[] = {i, j};
      EXPECT_EQ(*l.address(s, c), 64 * i + j);
      EXPECT_EQ(l.addressAt(64 * i + j), 64 * i + j);
    }
  // Offsets count; replicas do not (r = 0).
  TileLayout o = parse("S[(4):(3)] + R[2:100] + 7");
  EXPECT_EQ(o.addressAt(2), 13);
  EXPECT_EQ(o.addressAt(2, Axis::laneid()), 0);
}

TEST(TileLayout, FootprintWithReplicaAndOffset) {
  TileLayout l = parse(kTensorCore);
  // warpid: 5 + [0,1] + 4*[0,1] -> [5, 10]; laneid [0, 31]; m [0, 1].
  EXPECT_EQ(l.footprint(Axis::warpid()), (Footprint{5, 10}));
  EXPECT_EQ(l.footprint(Axis::laneid()), (Footprint{0, 31}));
  EXPECT_EQ(l.footprint(Axis::m()), (Footprint{0, 1}));
  EXPECT_EQ(l.footprint(Axis::tid()), (Footprint{0, 0}));
}

TEST(TileLayout, StrideZeroBroadcasts) {
  // (4,3):(1,0): the 3 columns of a row share one address.
  TileLayout l = parse("S[(4,3):(1,0)]");
  EXPECT_EQ(l.addressAt(0), l.addressAt(2));
  EXPECT_EQ(l.addressAt(3), 1);
  EXPECT_FALSE(*l.isInjectiveOn(Axis::m()));
  EXPECT_FALSE(*l.isInjective());
}

//===----------------------------------------------------------------------===//
// Inverse queries
//===----------------------------------------------------------------------===//

TEST(TileLayout, HoldersOfAThread) {
  TileLayout l = parse(kTensorCore);
  // laneid 0 on warp 5: 4i + (j/2)%4 == 0 and j/8 == 0 -> i = 0, j in {0,1}.
  const AxisValue lane0warp5[] = {{Axis::laneid(), 0}, {Axis::warpid(), 5}};
  EXPECT_EQ(*l.holders(lane0warp5), (std::vector<int64_t>{0, 1}));
  // The replica warp 9 holds the same; warp 7 holds nothing.
  const AxisValue lane0warp9[] = {{Axis::laneid(), 0}, {Axis::warpid(), 9}};
  EXPECT_EQ(*l.holders(lane0warp9), (std::vector<int64_t>{0, 1}));
  const AxisValue warp7[] = {{Axis::warpid(), 7}};
  EXPECT_TRUE(l.holders(warp7)->empty());
  // laneid 31, warp 6, register 1: (7,15) only.
  const AxisValue full[] = {
      {Axis::laneid(), 31}, {Axis::warpid(), 6}, {Axis::m(), 1}};
  EXPECT_EQ(*l.holders(full), (std::vector<int64_t>{127}));
  // Warp 6 holds the right half (j >= 8): 64 elements.
  const AxisValue warp6[] = {{Axis::warpid(), 6}};
  std::vector<int64_t> h = *l.holders(warp6);
  EXPECT_EQ(h.size(), 64u);
  for (int64_t x : h)
    EXPECT_GE(x % 16, 8);
  // An axis the layout does not name is at 0.
  const AxisValue tid1[] = {{Axis::tid(), 1}};
  EXPECT_TRUE(l.holders(tid1)->empty());
  const AxisValue tid0[] = {{Axis::tid(), 0}};
  EXPECT_EQ(l.holders(tid0)->size(), 128u);
}

TEST(TileLayout, HoldersLimit) {
  TileLayout l = parse("S[(1024,1024):(1,0)]");
  const AxisValue any[] = {{Axis::m(), 3}};
  EXPECT_EQ(l.holders(any)->size(), 1024u); // (3, j) for every j
  EXPECT_FALSE(l.holders(any, 100));
  // Replicas count as candidates: 1000 warps of one 4-element shard hold
  // m = 1 at flat 1 each; a budget of 500 is refused before the replicas
  // are listed, and 2^62 replicas are refused at once, not enumerated.
  const AxisValue m1[] = {{Axis::m(), 1}};
  TileLayout r = parse("S[4:1] + R[1000:1@warpid]");
  EXPECT_EQ(*r.holders(m1, 5000), (std::vector<int64_t>{1}));
  EXPECT_FALSE(r.holders(m1, 500));
  EXPECT_FALSE(parse("S[4:1] + R[4611686018427387904:1@warpid]").holders(m1));
}

TEST(TileLayout, InjectivityPerAxis) {
  // strides (2 ext 3), (3 ext 2): sums {0,2,4,3,5,7} distinct, not mixed-radix.
  EXPECT_TRUE(*parse("S[(3,2):(2,3)]").isInjectiveOn(Axis::m()));
  // (4,4):(1,2): c0=2,c1=0 and c0=0,c1=1 collide.
  EXPECT_FALSE(*parse("S[(4,4):(1,2)]").isInjectiveOn(Axis::m()));
  // Tensor core: laneid strides 4 (x8) and 1 (x4): mixed radix.
  TileLayout tc = parse(kTensorCore);
  EXPECT_TRUE(*tc.isInjectiveOn(Axis::laneid()));
  EXPECT_TRUE(*tc.isInjectiveOn(Axis::warpid()));
  EXPECT_TRUE(*tc.isInjectiveOn(Axis::tid())); // no iter on tid
  EXPECT_TRUE(*tc.isInjective());
  // Large but decidable by the bitset: 5000 x 5000 iters with strides 1, 4999.
  EXPECT_FALSE(*parse("S[(5000,5000):(1,4999)]").isInjectiveOn(Axis::m()));
  EXPECT_TRUE(*parse("S[(5000,5000):(1,5000)]").isInjectiveOn(Axis::m()));
  // A replica that overlaps the neighbour's copy: L(0)={0,1}, L(1)={1,2}.
  EXPECT_FALSE(*parse("S[(2):(1)] + R[2:1]").isInjective());
  EXPECT_TRUE(*parse("S[(2):(1)] + R[2:2]").isInjective());
}

//===----------------------------------------------------------------------===//
// Properties on random layouts
//===----------------------------------------------------------------------===//

TEST(TileLayoutProperty, MatchesReferenceEvaluator) {
  TileGenerator g(0x711e);
  for (int n = 0; n < 300; ++n) {
    TileLayout l = g.layout(512);
    CoordSet s;
    for (int64_t x = 0; x < l.size(); ++x) {
      l.evalInto(x, s);
      ASSERT_EQ(named(l, s), referenceEval(l, x)) << l.str() << " at " << x;
      // The memory address is the m value of the first (r = 0) coordinate.
      int64_t address =
          l.names(Axis::m()) ? s[0][size_t(l.axisSlot(Axis::m()))] : 0;
      ASSERT_EQ(l.addressAt(x), address) << l.str();
    }
    // Any admitted shape gives the same map as the flat index.
    std::vector<int64_t> shape = g.shapeOfSize(l.size());
    int64_t x = g.uniform(0, l.size() - 1);
    std::vector<int64_t> c = TileLayout::unflatten(shape, x);
    ASSERT_EQ(*l.flatten(shape, c), x);
    ASSERT_EQ(named(l, *l.eval(shape, c)), referenceEval(l, x));
  }
}

TEST(TileLayoutProperty, HoldersInvertOwners) {
  TileGenerator g(0xb01d);
  for (int n = 0; n < 150; ++n) {
    TileLayout l = g.layout(256);
    // Brute force: coordinate -> holders.
    std::map<std::vector<int64_t>, std::set<int64_t>> byCoord;
    CoordSet s;
    for (int64_t x = 0; x < l.size(); ++x) {
      l.evalInto(x, s);
      for (size_t i = 0; i < s.size(); ++i)
        byCoord[std::vector<int64_t>(s[i].begin(), s[i].end())].insert(x);
    }
    for (const auto &[coord, xs] : byCoord) {
      std::vector<AxisValue> where;
      for (size_t k = 0; k < coord.size(); ++k)
        where.push_back(AxisValue{l.axes()[k], coord[k]});
      std::vector<int64_t> h = *l.holders(where);
      ASSERT_EQ(h, std::vector<int64_t>(xs.begin(), xs.end())) << l.str();
    }
    // Partial query on the first axis.
    Axis a = l.axes()[0];
    int64_t v = l.footprint(a).min + g.uniform(0, 3);
    std::set<int64_t> want;
    for (const auto &[coord, xs] : byCoord)
      if (coord[0] == v)
        want.insert(xs.begin(), xs.end());
    const AxisValue partial[] = {{a, v}};
    ASSERT_EQ(*l.holders(partial),
              std::vector<int64_t>(want.begin(), want.end()))
        << l.str() << " " << a.name() << "=" << v;
  }
}

TEST(TileLayoutProperty, InjectivityAndFootprint) {
  TileGenerator g(0xfeed);
  for (int n = 0; n < 300; ++n) {
    TileLayout l = g.layout(512);
    // Footprint: min and max are reached, nothing outside.
    for (Axis a : l.axes()) {
      Footprint f = l.footprint(a);
      int slot = l.axisSlot(a);
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      CoordSet s;
      std::map<int64_t, std::set<std::vector<int64_t>>> valueToComponents;
      for (int64_t x = 0; x < l.size(); ++x) {
        l.evalInto(x, s);
        for (size_t i = 0; i < s.size(); ++i) {
          lo = std::min(lo, s[i][size_t(slot)]);
          hi = std::max(hi, s[i][size_t(slot)]);
        }
      }
      ASSERT_EQ(f, (Footprint{lo, hi})) << l.str() << " on " << a.name();
      // isInjectiveOn by brute force over the components of the iters on a.
      std::vector<Iter> iters;
      for (const Iter &it : l.shard())
        if (it.axis == a)
          iters.push_back(it);
      std::set<int64_t> sums{0};
      int64_t count = 1;
      for (const Iter &it : iters) {
        std::set<int64_t> next;
        for (int64_t v : sums)
          for (int64_t c = 0; c < it.extent; ++c)
            next.insert(v + c * it.stride);
        sums = next;
        count *= it.extent;
      }
      ASSERT_EQ(*l.isInjectiveOn(a), int64_t(sums.size()) == count)
          << l.str() << " on " << a.name();
    }
    // isInjective by brute force: no coordinate with two holders.
    std::map<std::vector<int64_t>, int64_t> owner;
    bool injective = true;
    CoordSet s;
    for (int64_t x = 0; x < l.size() && injective; ++x) {
      l.evalInto(x, s);
      for (size_t i = 0; i < s.size(); ++i) {
        auto [it, fresh] =
            owner.emplace(std::vector<int64_t>(s[i].begin(), s[i].end()), x);
        if (!fresh && it->second != x)
          injective = false;
      }
    }
    ASSERT_EQ(*l.isInjective(), injective) << l.str();
  }
}

} // namespace
