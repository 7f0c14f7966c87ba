//===- TritonAgreementTest.cpp - Where Triton's linear layouts decide -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The points where Triton's definitions fix one answer among several
/// reasonable ones: the WMMA tile when transposed, the order of a product's
/// dims (Triton's supremum), and which solution invertAndCompose returns
/// (the identity on dims both layouts map alike) and when it has one (the
/// image of this inside the image of outer). Hand derivations beside each
/// case; the random tests compare with brute-force enumeration.
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Standard.h"

#include <gtest/gtest.h>

#include <set>

using namespace lk;
using namespace lk::linear;
using namespace lk::linear::dims;
using lk::linear::testing::ok;
using lk::linear::testing::Random;

namespace {

LinearLayout id1(int64_t n, DimId in, DimId out) {
  return ok(LinearLayout::identity1D(n, in, out));
}

LinearLayout mul(const LinearLayout &a, const LinearLayout &b) {
  return ok(product(a, b));
}

std::shared_ptr<const Encoding> share(Encoding e) {
  return std::make_shared<Encoding>(std::move(e));
}

Encoding wmma(int version, bool transposed, std::vector<unsigned> warps) {
  Encoding e;
  e.kind = EncodingKind::AmdWmma;
  e.version = version;
  e.isTransposed = transposed;
  e.warpsPerCTA = std::move(warps);
  return e;
}

TEST(TritonWmma, TransposedSwapsTheTileRoles) {
  // Triton's tile for version 2: register [(0,1), (0,2), (0,4)], lane
  // [(1,0), (2,0), (4,0), (8,0), (0,8)] over the out dims (threadOrder[0],
  // threadOrder[1]); threadOrder is row-major [1, 0] = (dim1, dim0), or
  // [0, 1] = (dim0, dim1) when transposed. So registers walk dim0 (M) and
  // lanes dim1 (N), or, transposed, registers walk dim1 and lanes dim0.
  int64_t shape[] = {16, 16};
  EXPECT_EQ(ok(toLinearLayout(wmma(2, false, {1, 1}), shape)).str(),
            "{register: [(1,0), (2,0), (4,0)], lane: [(0,1), (0,2), (0,4), "
            "(0,8), (8,0)], warp: [], block: []} -> {dim0: 16, dim1: 16}");
  EXPECT_EQ(ok(toLinearLayout(wmma(2, true, {1, 1}), shape)).str(),
            "{register: [(0,1), (0,2), (0,4)], lane: [(1,0), (2,0), (4,0), "
            "(8,0), (0,8)], warp: [], block: []} -> {dim0: 16, dim1: 16}");
  // Version 1: register [(0,2), (0,4), (0,8)], lane [(1,0) .. (8,0), (0,1)]
  // over the same thread order.
  EXPECT_EQ(ok(toLinearLayout(wmma(1, true, {1, 1}), shape)).str(),
            "{register: [(0,2), (0,4), (0,8)], lane: [(1,0), (2,0), (4,0), "
            "(8,0), (0,1)], warp: [], block: []} -> {dim0: 16, dim1: 16}");
  // Warps keep the row-major order (dim1 first) either way; the tile is
  // repeated over 32x16 by the second warp along dim0.
  int64_t tall[] = {32, 16};
  EXPECT_EQ(ok(toLinearLayout(wmma(2, true, {2, 1}), tall)).str(),
            "{register: [(0,1), (0,2), (0,4)], lane: [(1,0), (2,0), (4,0), "
            "(8,0), (0,8)], warp: [(16,0)], block: []} -> {dim0: 32, "
            "dim1: 16}");
  // Rank 3: the batch dim is dim0, the tile over (dim1, dim2) transposed.
  int64_t batched[] = {1, 16, 16};
  EXPECT_EQ(ok(toLinearLayout(wmma(2, true, {1, 1, 1}), batched)).str(),
            "{register: [(0,0,1), (0,0,2), (0,0,4)], lane: [(0,1,0), (0,2,0), "
            "(0,4,0), (0,8,0), (0,0,8)], warp: [], block: []} -> {dim0: 1, "
            "dim1: 16, dim2: 16}");
}

std::vector<DimId> outOrder(const LinearLayout &l) {
  std::vector<DimId> r;
  for (int k = 0; k < l.numOutDims(); ++k)
    r.push_back(l.outDim(k).id);
  return r;
}

std::vector<DimId> inOrder(const LinearLayout &l) {
  std::vector<DimId> r;
  for (int k = 0; k < l.numInDims(); ++k)
    r.push_back(l.inDim(k).id);
  return r;
}

TEST(TritonProduct, DimsFollowTheSupremum) {
  // outs [dim0, dim2] * [dim1, dim2]: dim2 is due later in both, so the
  // supremum is [dim0, dim1, dim2] (appending would give dim0, dim2, dim1).
  LinearLayout a = mul(id1(2, kRegister, dim(0)), id1(2, kLane, dim(2)));
  LinearLayout b = mul(id1(2, kWarp, dim(1)), id1(2, kBlock, dim(2)));
  LinearLayout p = mul(a, b);
  EXPECT_EQ(outOrder(p), (std::vector<DimId>{dim(0), dim(1), dim(2)}));
  EXPECT_EQ(p.str(), "{register: [(1,0,0)], lane: [(0,0,1)], warp: "
                     "[(0,1,0)], block: [(0,0,2)]} -> {dim0: 2, dim1: 2, "
                     "dim2: 4}");
  // Ties go to the first operand: [dim0, dim1] * [dim0, dim2] keeps
  // [dim0, dim1, dim2]; [dim1, dim0] * [dim2, dim0] gives [dim1, dim2, dim0].
  EXPECT_EQ(outOrder(mul(mul(id1(2, kRegister, dim(1)), id1(2, kLane, dim(0))),
                         mul(id1(2, kWarp, dim(2)), id1(2, kBlock, dim(0))))),
            (std::vector<DimId>{dim(1), dim(2), dim(0)}));
  // Input dims alike: [register, warp] * [lane, warp] -> [register, lane,
  // warp].
  LinearLayout c = mul(id1(2, kRegister, dim(0)), id1(2, kWarp, dim(1)));
  LinearLayout d = mul(id1(2, kLane, dim(0)), id1(2, kWarp, dim(1)));
  EXPECT_EQ(inOrder(mul(c, d)), (std::vector<DimId>{kRegister, kLane, kWarp}));
  // Disjoint dims: the first operand's, then the second's.
  EXPECT_EQ(outOrder(mul(id1(2, kRegister, dim(3)), id1(2, kLane, dim(1)))),
            (std::vector<DimId>{dim(3), dim(1)}));
}

/// Both relative orders kept, every dim once.
bool keepsOrder(const std::vector<DimId> &merged, const std::vector<DimId> &x) {
  size_t at = 0;
  for (DimId d : x) {
    while (at < merged.size() && merged[at] != d)
      ++at;
    if (at == merged.size())
      return false;
  }
  return true;
}

TEST(TritonProduct, RandomProductsKeepBothOrders) {
  Random r(1604);
  for (int t = 0; t < 2000; ++t) {
    // Two random subsets of dim0..dim5, each in increasing order, so common
    // dims agree; the product's function is checked by its bases.
    auto pick = [&] {
      std::vector<DimId> v;
      for (int k = 0; k < 6; ++k)
        if (r.chance(45))
          v.push_back(dim(k));
      return v;
    };
    std::vector<DimId> xo = pick(), yo = pick();
    LinearLayout a, b;
    for (DimId d : xo)
      a = mul(a, id1(2, kRegister, d));
    for (DimId d : yo)
      b = mul(b, id1(2, kLane, d));
    LinearLayout p = mul(a, b);
    std::vector<DimId> po = outOrder(p);
    std::set<DimId> all(xo.begin(), xo.end());
    all.insert(yo.begin(), yo.end());
    EXPECT_EQ(po.size(), all.size());
    EXPECT_TRUE(keepsOrder(po, xo));
    EXPECT_TRUE(keepsOrder(po, yo));
    // A dim of the first list comes as early as both orders allow: before
    // it there are only the first list's earlier dims and dims of the
    // second list that precede a common dim still to come.
    for (size_t k = 0; k < po.size(); ++k) {
      auto inX = std::find(xo.begin(), xo.end(), po[k]);
      if (inX == xo.end() || k == 0)
        continue;
      DimId prev = po[k - 1];
      bool prevInX = std::find(xo.begin(), xo.end(), prev) != xo.end();
      if (prevInX)
        continue;
      // prev is only in y: some dim of x at or after po[k] is common and
      // comes after prev in y (else po[k] would have been taken first).
      auto py = std::find(yo.begin(), yo.end(), prev);
      bool due = false;
      for (auto it = inX; it != xo.end(); ++it)
        due |= std::find(py, yo.end(), *it) != yo.end();
      EXPECT_TRUE(due) << "dim " << po[k];
    }
    // Register bit k of the product is a's basis k, lane bit k b's basis k
    // shifted above a's part of that dim.
    for (size_t k = 0; k < xo.size(); ++k)
      EXPECT_EQ(p.basis(kRegister, int(k), xo[k]), 1);
    for (size_t k = 0; k < yo.size(); ++k) {
      bool common = std::find(xo.begin(), xo.end(), yo[k]) != xo.end();
      EXPECT_EQ(p.basis(kLane, int(k), yo[k]), common ? 2 : 1);
    }
  }
}

/// The identity on l's input dims.
LinearLayout identityOn(const LinearLayout &l) {
  LinearLayout r;
  for (int i = 0; i < l.numInDims(); ++i)
    r = mul(r, id1(l.inDim(i).size(), l.inDim(i).id, l.inDim(i).id));
  return r;
}

/// One layout of every family (and every parent of a dot operand and a
/// slice), several with broadcast bits.
std::vector<LinearLayout> standardLayouts() {
  std::vector<LinearLayout> out;
  auto add = [&](const Encoding &e, std::vector<int64_t> shape) {
    Expected<LinearLayout> l = toLinearLayout(e, shape);
    EXPECT_TRUE(l) << (l ? "" : l.error().message);
    if (l)
      out.push_back(*l);
  };
  Encoding blocked;
  blocked.sizePerThread = {2, 4};
  blocked.threadsPerWarp = {4, 8};
  blocked.warpsPerCTA = {2, 2};
  blocked.order = {1, 0};
  add(blocked, {64, 64});
  add(blocked, {4, 8}); // lanes and warps broadcast
  Encoding mma;
  mma.kind = EncodingKind::NvidiaMma;
  mma.instrShape = {16, 8};
  mma.warpsPerCTA = {2, 2};
  add(mma, {64, 64});
  add(mma, {16, 8}); // warps broadcast
  Encoding wgmma = mma;
  wgmma.versionMajor = 3;
  wgmma.instrShape = {16, 64, 16};
  wgmma.warpsPerCTA = {4, 1};
  add(wgmma, {64, 64});
  Encoding mfma;
  mfma.kind = EncodingKind::AmdMfma;
  mfma.warpsPerCTA = {2, 2};
  for (int m : {16, 32})
    for (bool tr : {false, true}) {
      mfma.mDim = mfma.nDim = m;
      mfma.isTransposed = tr;
      add(mfma, {64, 64});
    }
  for (int v : {1, 2})
    for (bool tr : {false, true})
      add(wmma(v, tr, {2, 2}), {64, 64});
  auto dotOf = [&](const Encoding &parent, int opIdx, int kWidth) {
    Encoding d;
    d.kind = EncodingKind::DotOperand;
    d.opIdx = opIdx;
    d.kWidth = kWidth;
    d.parent = share(parent);
    return d;
  };
  for (int op : {0, 1}) {
    add(dotOf(mma, op, 2), {64, 64});
    mfma.mDim = mfma.nDim = 32;
    mfma.isTransposed = false;
    add(dotOf(mfma, op, 8), {64, 64});
    add(dotOf(wmma(1, false, {2, 2}), op, 16), {64, 64});
    add(dotOf(wmma(2, false, {2, 2}), op, 8), {64, 64});
    add(dotOf(blocked, op, 0), {64, 64});
  }
  auto sliceOf = [&](const Encoding &parent, int dim) {
    Encoding s;
    s.kind = EncodingKind::Slice;
    s.dim = dim;
    s.parent = share(parent);
    return s;
  };
  add(sliceOf(blocked, 0), {64});
  add(sliceOf(blocked, 1), {64});
  add(sliceOf(mma, 1), {64});
  add(sliceOf(dotOf(mma, 0, 2), 1), {16});
  Encoding sw;
  sw.kind = EncodingKind::SwizzledShared;
  sw.vec = 2;
  sw.perPhase = 1;
  sw.maxPhase = 4;
  sw.order = {1, 0};
  add(sw, {16, 32});
  Encoding nv;
  nv.kind = EncodingKind::NvmmaShared;
  nv.order = {1, 0};
  add(nv, {64, 64});
  Encoding shm;
  shm.kind = EncodingKind::ShmemForRegToReg;
  shm.tensorShape = {64, 32};
  shm.repShape = {16, 32};
  shm.order = {1, 0};
  add(shm, {64, 32});
  return out;
}

TEST(TritonInvertAndCompose, EveryStandardLayoutConvertsToItselfAsIdentity) {
  int withBroadcast = 0;
  for (const LinearLayout &l : standardLayouts()) {
    withBroadcast += l.zeroColumnMaskFlat() != 0;
    Expected<LinearLayout> c = l.invertAndCompose(l);
    ASSERT_TRUE(c) << l.str() << ": " << c.error().message;
    EXPECT_EQ(*c, identityOn(l)) << l.str() << " gave " << c->str();
  }
  EXPECT_GT(withBroadcast, 3);
}

TEST(TritonInvertAndCompose, BroadcastLaneBitMapsToItself) {
  // {lane: [1, 0]} -> {dim0: 2}: lane 2 holds what lane 0 holds. Any of
  // lane 2 -> lane 0 or lane 2 -> lane 2 is a solution; as Triton, the
  // identity: C = {lane: [1, 2]} -> {lane: 4}.
  LinearLayout l = ok(LinearLayout::fromColumns(
      std::vector<DimSize>{{kLane, 2}}, std::vector<DimSize>{{dim(0), 1}},
      std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(ok(l.invertAndCompose(l)).str(), "{lane: [(1), (2)]} -> {lane: 4}");
  // Against a layout that spreads the same data over registers instead,
  // the broadcast bit takes the minimum-norm preimage: register 0 (value 0).
  LinearLayout regs = ok(LinearLayout::fromColumns(
      std::vector<DimSize>{{kRegister, 1}}, std::vector<DimSize>{{dim(0), 1}},
      std::vector<uint64_t>{1}));
  EXPECT_EQ(ok(l.invertAndCompose(regs)).str(),
            "{lane: [(1), (0)]} -> {register: 2}");
}

TEST(TritonInvertAndCompose, PreconditionIsTheImage) {
  // outer = {lane: [1, 0]} -> {dim0: 4} is not surjective (image {0, 1}).
  LinearLayout outer = ok(LinearLayout::fromColumns(
      std::vector<DimSize>{{kLane, 2}}, std::vector<DimSize>{{dim(0), 2}},
      std::vector<uint64_t>{1, 0}));
  // this = {register: [1]} -> {dim0: 4} lies inside it: register 1 -> lane 1.
  LinearLayout inside = ok(LinearLayout::fromColumns(
      std::vector<DimSize>{{kRegister, 1}}, std::vector<DimSize>{{dim(0), 2}},
      std::vector<uint64_t>{1}));
  EXPECT_EQ(ok(inside.invertAndCompose(outer)).str(),
            "{register: [(1)]} -> {lane: 4}");
  // this = {register: [2]}: offset 2 is nowhere in outer.
  LinearLayout outside = ok(LinearLayout::fromColumns(
      std::vector<DimSize>{{kRegister, 1}}, std::vector<DimSize>{{dim(0), 2}},
      std::vector<uint64_t>{2}));
  Expected<LinearLayout> bad = outside.invertAndCompose(outer);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("basis 0 of input dim 'register'"),
            std::string::npos)
      << bad.error().message;
  // A larger dim of this is fine while its bases stay inside outer's range
  // ({register: [1, 2]} -> {dim0: 8} against the identity on 4), and a
  // diagnostic once one leaves it (basis 4).
  LinearLayout id4 = id1(4, kLane, dim(0));
  LinearLayout wide = ok(LinearLayout::fromColumns(
      std::vector<DimSize>{{kRegister, 2}}, std::vector<DimSize>{{dim(0), 3}},
      std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(ok(wide.invertAndCompose(id4)).str(),
            "{register: [(1), (2)]} -> {lane: 4}");
  LinearLayout wider = ok(LinearLayout::fromColumns(
      std::vector<DimSize>{{kRegister, 3}}, std::vector<DimSize>{{dim(0), 3}},
      std::vector<uint64_t>{1, 2, 4}));
  EXPECT_FALSE(wider.invertAndCompose(id4));
  // Triton asserts here (the register dims agree, so it solves lane 3 over
  // outer's lane bit alone); a solution exists: lane 1 -> register 1 + lane 1.
  LinearLayout o2 = mul(id1(2, kRegister, dim(0)), id1(2, kLane, dim(0)));
  LinearLayout t2 = ok(LinearLayout::fromColumns(
      std::vector<DimSize>{{kRegister, 1}, {kLane, 1}},
      std::vector<DimSize>{{dim(0), 2}}, std::vector<uint64_t>{1, 3}));
  EXPECT_EQ(ok(t2.invertAndCompose(o2)).str(),
            "{register: [(1,0)], lane: [(1,1)]} -> {register: 2, lane: 2}");
  // Output dims that differ by name are a diagnostic.
  EXPECT_FALSE(id1(4, kLane, dim(1)).invertAndCompose(id4));
}

TEST(TritonInvertAndCompose, RandomPairsAgreeWithEnumeration) {
  Random r(1605);
  int solved = 0, refused = 0;
  for (int t = 0; t < 3000; ++t) {
    int outBits = int(r.uniform(1, 6));
    LinearLayout outer = r.layout(int(r.uniform(0, 7)), 2, outBits, 2, 25);
    // this: the same out dims; columns often inside outer's image.
    std::vector<DimSize> outs;
    for (int k = 0; k < outer.numOutDims(); ++k)
      outs.push_back(outer.outDim(k));
    int inBits = int(r.uniform(0, 6));
    std::vector<uint64_t> cols;
    for (int j = 0; j < inBits; ++j)
      cols.push_back(r.chance(70) && outer.totalInBits() > 0
                         ? outer.applyFlat(r.bits(outer.totalInBits()))
                         : r.bits(outBits));
    LinearLayout self = ok(LinearLayout::fromColumns(
        Random::dimsOf(Random::inNames(), r.split(inBits, 2)), outs, cols));
    std::set<uint64_t> image;
    for (uint64_t y = 0; y < (uint64_t(1) << outer.totalInBits()); ++y)
      image.insert(outer.applyFlat(y));
    bool exists = true;
    for (uint64_t x = 0; x < (uint64_t(1) << inBits); ++x)
      exists &= image.count(self.applyFlat(x)) > 0;
    Expected<LinearLayout> c = self.invertAndCompose(outer);
    ASSERT_EQ(bool(c), exists) << self.str() << " / " << outer.str();
    if (!c) {
      ++refused;
      continue;
    }
    ++solved;
    for (uint64_t x = 0; x < (uint64_t(1) << inBits); ++x)
      EXPECT_EQ(self.applyFlat(x), outer.applyFlat(c->applyFlat(x)))
          << self.str() << " / " << outer.str();
    EXPECT_EQ(ok(self.invertAndCompose(self)), identityOn(self));
  }
  EXPECT_GT(solved, 500);
  EXPECT_GT(refused, 200);
}

} // namespace
