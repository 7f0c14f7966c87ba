//===- LinearTileTest.cpp - Bridge linear <-> tile ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Worked examples, refusals (each diagnostic names the iter, offset or
/// basis), and seeded property tests: every conversion is checked on every
/// element and every replica (tile's L(x) against the linear layout applied
/// to each coordinate, which must give x back, each hardware coordinate
/// exactly once), and round trips give equal layouts.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/bridge/LinearTile.h"

#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/tile/TileText.h"

#include "support/TileTestSupport.h"

#include "support/BridgeTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>

using namespace lk;
using namespace lk::bridge;
using namespace lk::bridge::testing;
using lk::linear::LinearLayout;
using lk::tile::Axis;
using lk::tile::CoordSet;
using lk::tile::Iter;
using lk::tile::TileLayout;
namespace dims = lk::linear::dims;

namespace {

/// For every flat x and every coordinate h of L(x): ll(h) == x (as the
/// row-major coordinate of `shape` when given); and every hardware point of
/// ll is reached exactly once.
::testing::AssertionResult agrees(const TileLayout &t, const LinearLayout &ll,
                                  const std::vector<int64_t> &shape = {}) {
  std::vector<int> seen(size_t(ll.totalInSize()), 0);
  CoordSet s;
  std::vector<int64_t> in(size_t(ll.numInDims()));
  for (Axis a : t.axes()) {
    bool found = false;
    for (int i = 0; i < ll.numInDims(); ++i)
      found |= *dimAxis(ll.inDim(i).id) == a;
    if (!found)
      return ::testing::AssertionFailure()
             << "axis " << a.name() << " has no in-dim";
  }
  for (int64_t x = 0; x < t.size(); ++x) {
    t.evalInto(x, s);
    for (size_t r = 0; r < s.size(); ++r) {
      for (int i = 0; i < ll.numInDims(); ++i) {
        int slot = t.axisSlot(*dimAxis(ll.inDim(i).id));
        in[size_t(i)] = slot < 0 ? 0 : s[r][size_t(slot)];
        if (in[size_t(i)] >= ll.inDim(i).size())
          return ::testing::AssertionFailure()
                 << t.str() << ": x=" << x << " outside " << ll.str();
      }
      uint64_t h = ll.packIn(in);
      ++seen[size_t(h)];
      std::vector<int64_t> got = ll.unpackOut(ll.applyFlat(h));
      std::vector<int64_t> want = shape.empty()
                                      ? std::vector<int64_t>{x}
                                      : TileLayout::unflatten(shape, x);
      if (got != want)
        return ::testing::AssertionFailure()
               << t.str() << " vs " << ll.str() << " at x=" << x << " r=" << r;
    }
  }
  for (size_t h = 0; h < seen.size(); ++h)
    if (seen[h] != 1)
      return ::testing::AssertionFailure()
             << t.str() << " vs " << ll.str() << ": hardware point " << h
             << " reached " << seen[h] << " times";
  return ::testing::AssertionSuccess();
}

TEST(LinearTile, M8n8Fragment) {
  TileLayout t = tileOf("S[(8,4,2):(4@laneid,1@laneid,1)]");
  Expected<LinearLayout> l = tileToLinear(t);
  ASSERT_TRUE(l) << l.error().message;
  EXPECT_EQ(
      l->str(),
      "{register: [(1)], lane: [(2), (4), (8), (16), (32)]} -> {index: 64}");
  EXPECT_TRUE(agrees(t, *l));
  // With the logical shape (8,8): the first quarter of the mma.sync
  // accumulator, as LinearLayout.h's tutorial builds it.
  Expected<LinearLayout> l2 = tileToLinear(t, {dims::kRegister, {8, 8}});
  ASSERT_TRUE(l2);
  EXPECT_EQ(
      *l2,
      linearOf("{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]} "
               "-> {dim0: 8, dim1: 8}"));
  EXPECT_TRUE(agrees(t, *l2, {8, 8}));
  // Back: the two laneid iters merge (4@laneid walks on from 1@laneid).
  EXPECT_EQ(linearToTile(*l2)->str(), "S[(32,2):(1@laneid,1)]");
  EXPECT_EQ(*linearToTile(*l), *linearToTile(*l2));
  EXPECT_TRUE(agrees(*linearToTile(*l), *l));
}

TEST(LinearTile, ReplicasAreZeroColumns) {
  TileLayout t = tileOf("S[(4):(1@laneid)] + R[2:4@laneid]");
  Expected<LinearLayout> l = tileToLinear(t);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->str(), "{lane: [(1), (2), (0)]} -> {index: 4}");
  EXPECT_TRUE(agrees(t, *l));
  EXPECT_EQ(*linearToTile(*l), t);

  LinearLayout ll =
      linearOf("{register: [(1)], lane: [(2), (0)]} -> {index: 4}");
  Expected<TileLayout> back = linearToTile(ll);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->str(), "S[(2,2):(1@laneid,1)] + R[2:2@laneid]");
  EXPECT_TRUE(agrees(*back, ll));
  EXPECT_EQ(*tileToLinear(*back), ll);

  // A memory layout: m named `offset`; the warp axis of a zero offset is a
  // size-1 in-dim and comes back as that zero offset.
  TileLayout mem = tileOf("S[(4,8):(1,4)] + R[2:1@warpid] + 0@cta");
  Expected<LinearLayout> lm = tileToLinear(mem, {dims::kOffset, {}});
  ASSERT_TRUE(lm) << lm.error().message;
  // Iter 0 (4:1, the major logical bits 3, 4) holds offset bits 0, 1.
  EXPECT_EQ(lm->str(),
            "{offset: [(8), (16), (1), (2), (4)], warp: [(0)], block: []} "
            "-> {index: 32}");
  EXPECT_TRUE(agrees(mem, *lm));
  EXPECT_EQ(*linearToTile(*lm, dims::kOffset), mem);
}

TEST(LinearTile, TileRefusals) {
  auto message = [](std::string_view text) {
    Expected<LinearLayout> l = tileToLinear(tileOf(text));
    return l ? std::string("converted: ") + l->str() : l.error().message;
  };
  EXPECT_EQ(message("S[(8,3):(1,8)]"),
            "iter 1 of S[(8,3):(1,8)] has extent 3, not a power of two");
  EXPECT_EQ(message("S[(4):(1)] + 5@warpid"),
            "offset 5@warpid is not representable: a linear layout maps the "
            "origin of "
            "every axis to element 0");
  EXPECT_EQ(message("S[(2,2):(3,1)]"),
            "iter 0 of S[(2,2):(3,1)] has stride 3, not a power of two");
  EXPECT_EQ(
      message("S[(2,2):(0,1)]"),
      "iter 0 of S[(2,2):(0,1)] has stride 0: several logical elements share "
      "one "
      "coordinate, which a linear layout (hardware -> logical) cannot express");
  EXPECT_EQ(
      message("S[(2,4):(2,1)]"),
      "iter 0 of S[(2,4):(2,1)] and iter 1 of S[(2,4):(2,1)] both reach bit 1 "
      "of m "
      "(value 2): the coordinates carry, so the map is not linear over F2");
  EXPECT_EQ(
      message("S[(4):(2@laneid)]"),
      "bit 0 (value 1) of laneid is reached by no iter: coordinates with it "
      "set "
      "hold no element, but a linear layout maps every coordinate to one");
  EXPECT_EQ(message("S[(4):(1)] + R[3:4]"),
            "replica iter 0 (R[3:4]) has extent 3, not a power of two");
  EXPECT_EQ(message("S[(4):(1)] + R[2:0@warpid]"),
            "replica iter 0 (R[2:0@warpid]) has stride 0: the element is held "
            "twice at "
            "one coordinate");
  EXPECT_EQ(
      message("S[(4):(1)] + R[2:2]"),
      "iter 0 of S[(4):(1)] and replica iter 0 (R[2:2]) both reach bit 1 of m "
      "(value 2): the coordinates carry, so the map is not linear over F2");
  // A shape that the layout does not admit.
  EXPECT_FALSE(tileToLinear(tileOf("S[(4):(1)]"), {dims::kRegister, {2, 4}}));
}

TEST(LinearTile, LinearRefusals) {
  auto message = [](std::string_view text) {
    Expected<TileLayout> t = linearToTile(linearOf(text));
    return t ? std::string("converted: ") + t->str() : t.error().message;
  };
  EXPECT_EQ(message("{register: [(1), (2), (4), (5)]} -> {index: 8}"),
            "basis 3 of in-dim register maps to 0b101, which is not a single "
            "bit: a tile "
            "iter moves one logical bit per hardware bit");
  EXPECT_EQ(message("{register: [(1)], lane: [(2), (1)]} -> {index: 4}"),
            "basis 1 of in-dim lane maps to 0b1, as does basis 0 of in-dim "
            "register: a "
            "tile layout cannot hold an element at the XOR of two coordinates");
  EXPECT_EQ(
      message("{register: [(1)], lane: [(4)]} -> {index: 8}"),
      "logical bit 1 (flat index 2) is reached by no basis: the layout is not "
      "surjective, so some element has no coordinate");
  EXPECT_EQ(message("{foo: [(1)]} -> {index: 2}"),
            "in-dim 'foo' names no tile axis");
  EXPECT_EQ(message("{register: [(1)], offset: [(2)]} -> {index: 4}"),
            "in-dims 'register' and 'offset' both map to axis m");
}

//===----------------------------------------------------------------------===//
// Property tests
//===----------------------------------------------------------------------===//

/// A random hardware -> logical layout over register, lane, warp, block,
/// TLane (in the bridge's in-dim order). Representable: every logical bit
/// on exactly one input bit, the other input bits zero. Else random columns.
/// Out-dims: `index`, or dim0..dim{r-1} with `shape` set to their sizes.
LinearLayout randomLinear(Gen &g, bool representable,
                          std::vector<int64_t> &shape) {
  const linear::DimId names[] = {dims::kRegister, dims::kLane, dims::kWarp,
                                 dims::kBlock, linear::internDim("TLane")};
  std::vector<linear::DimSize> ins;
  int inBits = 0;
  for (linear::DimId d : names) {
    if (g.chance(30))
      continue;
    int b = int(g.uniform(0, 3));
    ins.push_back({d, b});
    inBits += b;
  }
  if (ins.empty())
    ins.push_back({dims::kRegister, int(g.uniform(0, 3))}),
        inBits = ins[0].log2;
  int outBits =
      representable ? int(g.uniform(0, inBits)) : int(g.uniform(0, 8));
  std::vector<int> slots(static_cast<size_t>(inBits));
  for (int j = 0; j < inBits; ++j)
    slots[size_t(j)] = j;
  std::shuffle(slots.begin(), slots.end(), g.rng);
  std::vector<uint64_t> cols(size_t(inBits), 0);
  for (int j = 0; j < inBits; ++j) {
    if (representable) {
      if (j < outBits)
        cols[size_t(slots[size_t(j)])] = uint64_t(1) << j;
    } else {
      cols[size_t(j)] = uint64_t(g.uniform(0, (int64_t(1) << outBits) - 1));
    }
  }
  shape.clear();
  std::vector<linear::DimSize> outs;
  if (g.chance(50)) {
    outs.push_back({indexDim(), outBits});
  } else {
    // dim0 (major) .. dim{r-1}; flattened, the last is lowest.
    int r = int(g.uniform(1, 3));
    std::vector<int> bits(size_t(r), 0);
    for (int b = 0; b < outBits; ++b)
      ++bits[size_t(g.uniform(0, r - 1))];
    for (int d = r; d-- > 0;)
      outs.push_back({dims::dim(d), bits[size_t(d)]});
    for (int d = 0; d < r; ++d)
      shape.push_back(int64_t(1) << bits[size_t(d)]);
  }
  Expected<LinearLayout> l = LinearLayout::fromColumns(ins, outs, cols);
  EXPECT_TRUE(l) << l.error().message;
  if (shape.empty())
    return *l;
  std::vector<linear::DimId> order;
  for (size_t d = 0; d < shape.size(); ++d)
    order.push_back(dims::dim(int(d)));
  return *l->transposeOuts(order);
}

/// An equivalent, unmerged form of t: iters split into pieces, extent-1
/// iters inserted, replicas shuffled, zero offsets added.
TileLayout perturb(Gen &g, const TileLayout &t) {
  tile::IterList shard, replica;
  auto split = [&](const Iter &it, tile::IterList &out) {
    int bits = std::countr_zero(uint64_t(it.extent));
    if (bits >= 2 && g.chance(50)) {
      int lo = int(g.uniform(1, bits - 1));
      // Tile order: the major piece first.
      out.push_back(Iter{int64_t(1) << (bits - lo), it.stride << lo, it.axis});
      out.push_back(Iter{int64_t(1) << lo, it.stride, it.axis});
    } else {
      out.push_back(it);
    }
    if (g.chance(15))
      out.push_back(Iter{1, g.uniform(0, 5), it.axis});
  };
  for (const Iter &it : t.shard())
    split(it, shard);
  for (const Iter &it : t.replica())
    split(it, replica);
  std::shuffle(replica.begin(), replica.end(), g.rng);
  tile::OffsetList offset = t.offset();
  if (g.chance(30)) {
    bool has = false;
    for (const tile::AxisValue &o : offset)
      has |= o.axis == Axis::wgid();
    if (!has)
      offset.push_back(tile::AxisValue{Axis::wgid(), 0});
  }
  Expected<TileLayout> r = TileLayout::make(shard, replica, offset);
  EXPECT_TRUE(r) << r.error().message;
  return *r;
}

TEST(LinearTileProperty, RandomLinearLayoutsRoundTrip) {
  Gen g(0x7113);
  int converted = 0;
  for (int n = 0; n < 2000; ++n) {
    std::vector<int64_t> shape;
    bool representable = n % 2 == 0;
    LinearLayout ll = randomLinear(g, representable, shape);
    // The criterion, computed independently on the flattened row-major index.
    LinearLayout rev = ll;
    if (ll.numOutDims() > 1) {
      std::vector<linear::DimId> order;
      for (int i = ll.numOutDims(); i-- > 0;)
        order.push_back(ll.outDim(i).id);
      rev = *ll.transposeOuts(order);
    }
    uint64_t reached = 0;
    bool ok = true;
    for (uint64_t c : rev.columns()) {
      ok &= std::popcount(c) <= 1 && !(c & reached);
      reached |= c;
    }
    ok &= reached == rev.outMask();
    Expected<TileLayout> t = linearToTile(ll);
    ASSERT_EQ(bool(t), ok) << ll.str() << (t ? "" : ": " + t.error().message);
    if (representable) {
      ASSERT_TRUE(ok);
    }
    if (!t)
      continue;
    ++converted;
    ASSERT_TRUE(agrees(*t, ll, shape)) << ll.str();
    Expected<LinearLayout> back = tileToLinear(*t, {dims::kRegister, shape});
    ASSERT_TRUE(back) << t->str() << ": " << back.error().message;
    ASSERT_EQ(*back, ll) << t->str();
    // Canonical tile layouts round-trip exactly; unmerged ones convert to
    // the same linear layout.
    ASSERT_EQ(*linearToTile(*back), *t);
    TileLayout p = perturb(g, *t);
    Expected<LinearLayout> fromP = tileToLinear(p, {dims::kRegister, shape});
    ASSERT_TRUE(fromP) << p.str() << ": " << fromP.error().message;
    ASSERT_TRUE(agrees(p, *fromP, shape));
    if (!(*fromP == ll)) {
      // Only a zero offset on wgid may add a size-1 in-dim.
      ASSERT_EQ(fromP->numInDims(), ll.numInDims() + 1)
          << p.str() << " " << fromP->str();
    }
  }
  EXPECT_GT(converted, 1000);
}

TEST(LinearTileProperty, RandomTileLayouts) {
  // General random tile layouts: when the bridge converts, the conversion
  // agrees with L(x) on every element and replica.
  tile::testing::TileGenerator g(0x7113e);
  int converted = 0;
  for (int n = 0; n < 20000; ++n) {
    TileLayout t = g.layout(256, 4, 2, 2);
    Expected<LinearLayout> l = tileToLinear(t);
    if (!l)
      continue;
    ++converted;
    ASSERT_TRUE(agrees(t, *l)) << t.str();
    Expected<TileLayout> back = linearToTile(*l);
    ASSERT_TRUE(back) << l->str() << ": " << back.error().message;
    ASSERT_EQ(*tileToLinear(*back), *l);
  }
  EXPECT_GT(converted, 60);
}

TEST(LinearTileProperty, ThroughCute) {
  // tile -> linear -> cute agrees with tile -> cute's layout of the memory
  // axis for single-axis layouts (S[...] on m, no replica).
  Gen g(0xc7);
  for (int n = 0; n < 300; ++n) {
    std::vector<int64_t> shape;
    LinearLayout ll = randomLinear(g, true, shape);
    Expected<TileLayout> t = linearToTile(ll);
    ASSERT_TRUE(t);
    // logical -> physical on one flattened axis word: the inverse direction
    // of ll restricted to its non-replica bits is what cute describes.
    if (!shape.empty() || ll.numInDims() != 1 || ll.zeroColumnMaskFlat() != 0)
      continue;
    Expected<LinearLayout> inv = ll.flattenOuts().invert();
    ASSERT_TRUE(inv);
    Expected<cute::Layout> c = linearToCute(*inv);
    ASSERT_TRUE(c) << inv->str();
    // cute is colex over the row-major flat index bits: evaluate(c, x) is
    // the m coordinate tile gives element x.
    for (int64_t x = 0; x < t->size(); ++x)
      ASSERT_EQ(cute::evaluate(*c, x),
                t->addressAt(x, *dimAxis(ll.inDim(0).id)));
  }
}

} // namespace

namespace {

TEST(LinearTile, TritonLayouts) {
  // Triton's blocked and mma.sync layouts are strided bit permutations:
  // they convert to tile layouts and back exactly.
  const unsigned spt[] = {1, 4}, tpw[] = {4, 8}, wpc[] = {4, 1},
                 order[] = {1, 0};
  const int64_t shape[] = {64, 64};
  Expected<LinearLayout> blocked =
      linear::blockedLayout(spt, tpw, wpc, order, shape);
  ASSERT_TRUE(blocked) << blocked.error().message;
  Expected<TileLayout> bt = linearToTile(*blocked);
  ASSERT_TRUE(bt) << bt.error().message;
  // Row-major (row bits above column bits), most major first: the 4 row
  // repeats on registers 8, 16; 4 warps; 4 lane rows (lanes 8, 16); the
  // column repeat on register 4; 8 lane columns; 4 contiguous registers. The
  // block in-dim (size 1) stays named as a zero offset.
  EXPECT_EQ(bt->str(),
            "S[(4,4,4,2,8,4):(8,1@warpid,8@laneid,4,1@laneid,1)] + 0@cta");
  std::vector<int64_t> s(shape, shape + 2);
  EXPECT_TRUE(agrees(*bt, *blocked, s));
  EXPECT_EQ(*tileToLinear(*bt, {linear::dims::kRegister, s}), *blocked);

  const unsigned instr[] = {16, 8}, warps[] = {2, 2};
  const int64_t mmaShape[] = {32, 16};
  Expected<LinearLayout> mma =
      linear::nvidiaMmaLayout(2, instr, warps, mmaShape);
  ASSERT_TRUE(mma) << mma.error().message;
  Expected<TileLayout> mt = linearToTile(*mma);
  ASSERT_TRUE(mt) << mt.error().message;
  std::vector<int64_t> ms(mmaShape, mmaShape + 2);
  EXPECT_TRUE(agrees(*mt, *mma, ms));
  EXPECT_EQ(*tileToLinear(*mt, {linear::dims::kRegister, ms}), *mma);
  // Row bit 4 on warp 2, row 8 on register 2, rows 1..4 on lanes 4..16;
  // column 8 on warp 1, columns 2, 4 on lanes 1, 2, column 1 on register 1.
  EXPECT_EQ(
      mt->str(),
      "S[(2,2,8,2,4,2):(2@warpid,2,4@laneid,1@warpid,1@laneid,1)] + 0@cta");
}

} // namespace
