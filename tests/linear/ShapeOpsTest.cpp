//===- ShapeOpsTest.cpp - Shape operations become no-ops -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// For random distributed layouts (blocked layouts of random parameters and
/// shapes), each propagated layout is checked element by element against the
/// operation's semantics: the hardware location that holds an operand element
/// holds the corresponding result element (forward), and every result
/// element is held in the operand by the same lane, warp and block
/// (backward).
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Analysis.h"
#include "layoutkit/linear/ShapeOps.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>

using namespace lk;
using namespace lk::linear;
using lk::linear::testing::ok;
using lk::linear::testing::P;
using lk::linear::testing::Random;

namespace {

/// A random blocked layout of a random shape of `rank` dims.
LinearLayout randomBlocked(Random &r, size_t rank,
                           std::vector<int64_t> shape = {}) {
  std::vector<unsigned> spt, tpw, wpc, order(rank);
  unsigned lanes = 32, warps = unsigned(1) << r.uniform(0, 2);
  for (size_t d = 0; d < rank; ++d) {
    spt.push_back(unsigned(1) << r.uniform(0, 2));
    unsigned tl = d + 1 == rank
                      ? lanes
                      : unsigned(1) << r.uniform(
                            0, std::min<int64_t>(3, __builtin_ctz(lanes)));
    lanes /= tl;
    tpw.push_back(tl);
    unsigned tw = d + 1 == rank
                      ? warps
                      : unsigned(1) << r.uniform(0, __builtin_ctz(warps));
    warps /= tw;
    wpc.push_back(tw);
    if (shape.size() < rank)
      shape.push_back(int64_t(1) << r.uniform(0, 5));
    order[d] = unsigned(d);
  }
  std::shuffle(order.begin(), order.end(), r.rng());
  return ok(blockedLayout(spt, tpw, wpc, order, shape));
}

int64_t rowMajor(const std::vector<int64_t> &c, const LinearLayout &l) {
  int64_t idx = 0;
  for (int k = 0; k < l.numOutDims(); ++k)
    idx = idx * l.outDim(k).size() + c[size_t(k)];
  return idx;
}

/// The hardware coordinates (one value per input dim) of every input.
template <class F> void forEachInput(const LinearLayout &l, F f) {
  for (uint64_t x = 0; x < uint64_t(l.totalInSize()); ++x)
    f(l.unpackIn(x), l.unpackOut(l.applyFlat(x)));
}

TEST(ShapeOps, TransposeExample) {
  LinearLayout src =
      P("{register: [(0,1)], lane: [(0,2), (1,0)]} -> {dim0: 2, dim1: 4}");
  unsigned order[] = {1, 0};
  EXPECT_EQ(ok(transForward(src, order)).str(),
            "{register: [(1,0)], lane: [(2,0), (0,1)]} -> {dim0: 4, dim1: 2}");
  // An order that is no permutation is named at its entry.
  unsigned twice[] = {0, 0}, past[] = {0, 2};
  EXPECT_EQ(transForward(src, twice).error().message,
            "trans: order entry 1 is 0, named before; order is a permutation "
            "of 0..1");
  EXPECT_EQ(transForward(src, past).error().message,
            "trans: order entry 1 is 2; the tensor has rank 2");
}

TEST(ShapeOps, TransForwardAndBackward) {
  Random r(21);
  for (int t = 0; t < 200; ++t) {
    size_t rank = size_t(r.uniform(1, 4));
    LinearLayout src = randomBlocked(r, rank);
    std::vector<unsigned> order(rank);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), r.rng());
    LinearLayout dst = ok(transForward(src, order));
    EXPECT_TRUE(isDistributed(dst));
    for (uint64_t x = 0; x < uint64_t(src.totalInSize()); ++x) {
      std::vector<int64_t> s = src.unpackOut(src.applyFlat(x));
      std::vector<int64_t> d = dst.unpackOut(dst.applyFlat(x));
      for (size_t i = 0; i < rank; ++i)
        ASSERT_EQ(d[i], s[order[i]]) << src.str();
    }
    EXPECT_EQ(ok(transBackward(dst, order)), src);
  }
}

TEST(ShapeOps, ReshapeAndExpandDims) {
  Random r(22);
  for (int t = 0; t < 200; ++t) {
    LinearLayout src = randomBlocked(r, size_t(r.uniform(1, 3)));
    // A random factorization of the total size into 1-3 dims.
    int bits = src.totalOutBits();
    std::vector<int64_t> shape;
    int n = int(r.uniform(1, 3));
    std::vector<int> split = r.split(bits, n);
    for (int b : split)
      shape.push_back(int64_t(1) << b);
    LinearLayout dst = ok(reshapeForward(src, shape));
    EXPECT_TRUE(isDistributed(dst));
    for (uint64_t x = 0; x < uint64_t(src.totalInSize()); ++x)
      ASSERT_EQ(rowMajor(dst.unpackOut(dst.applyFlat(x)), dst),
                rowMajor(src.unpackOut(src.applyFlat(x)), src));
    std::vector<int64_t> srcShape;
    for (int k = 0; k < src.numOutDims(); ++k)
      srcShape.push_back(src.outDim(k).size());
    EXPECT_EQ(ok(reshapeBackward(dst, srcShape)), src);
    int axis = int(r.uniform(0, src.numOutDims()));
    LinearLayout ex = ok(expandDimsForward(src, axis));
    EXPECT_EQ(ex.numOutDims(), src.numOutDims() + 1);
    EXPECT_EQ(ex.outDim(axis).log2, 0);
    for (uint64_t x = 0; x < uint64_t(src.totalInSize()); ++x) {
      std::vector<int64_t> s = src.unpackOut(src.applyFlat(x));
      s.insert(s.begin() + axis, 0);
      ASSERT_EQ(ex.unpackOut(ex.applyFlat(x)), s);
    }
    EXPECT_EQ(ok(expandDimsBackward(ex, axis)), src);
  }
  int64_t bad[] = {3, 4};
  EXPECT_FALSE(reshapeForward(P("{lane: [(1)]} -> {dim0: 2}"), bad));
}

TEST(ShapeOps, Broadcast) {
  Random r(23);
  for (int t = 0; t < 200; ++t) {
    size_t rank = size_t(r.uniform(1, 3));
    std::vector<int64_t> shape;
    for (size_t d = 0; d < rank; ++d)
      shape.push_back(r.chance(50) ? 1 : int64_t(1) << r.uniform(1, 4));
    LinearLayout src = randomBlocked(r, rank, shape);
    std::vector<int64_t> dstShape = shape;
    for (int64_t &s : dstShape)
      if (s == 1 && r.chance(70))
        s = int64_t(1) << r.uniform(1, 4);
    LinearLayout dst = ok(broadcastForward(src, dstShape));
    for (size_t d = 0; d < rank; ++d)
      EXPECT_EQ(dst.outDim(int(d)).size(), dstShape[d]);
    int srcRegs = src.inDimLog2(dims::kRegister);
    // Forward: the new registers hold copies of the thread's own values.
    forEachInput(dst, [&](std::vector<int64_t> in, std::vector<int64_t> out) {
      in[0] &= (int64_t(1) << srcRegs) - 1; // register is input dim 0
      std::vector<int64_t> s = ok(src.apply(in));
      for (size_t d = 0; d < rank; ++d)
        if (shape[d] == 1)
          out[d] = 0;
      ASSERT_EQ(s, out) << src.str() << " -> " << dst.str();
    });
    // Backward: every element a result location needs is held by the same
    // lane / warp / block in the operand.
    LinearLayout back = ok(broadcastBackward(dst, shape));
    std::set<std::pair<std::vector<int64_t>, std::vector<int64_t>>> held;
    forEachInput(back, [&](std::vector<int64_t> in, std::vector<int64_t> out) {
      in[0] = 0;
      held.insert({in, out});
    });
    forEachInput(dst, [&](std::vector<int64_t> in, std::vector<int64_t> out) {
      in[0] = 0;
      for (size_t d = 0; d < rank; ++d)
        if (shape[d] == 1)
          out[d] = 0;
      ASSERT_TRUE(held.count({in, out})) << dst.str() << " <- " << back.str();
    });
  }
}

// join adds a dim: on a layout of the most dims (16) it fails, naming the
// limit; split of a minor dim that is not of size 2 names its size.
TEST(ShapeOps, JoinAndSplitNameTheirLimits) {
  using namespace lk::linear::dims;
  LinearLayout l = ok(LinearLayout::identity1D(2, kRegister, dim(0)));
  for (int d = 1; d < kNumStandardOutDims; ++d)
    l = ok(l * ok(LinearLayout::zeros1D(1, kRegister, dim(d))));
  ASSERT_EQ(l.numOutDims(), 16);
  Expected<LinearLayout> j = joinForward(l);
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error().message, "join: the operand has 16 dims; join adds one "
                               "and a layout has at most 16");
  LinearLayout four = ok(LinearLayout::identity1D(4, kRegister, dim(0)));
  Expected<LinearLayout> s = joinBackward(four);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            "split: the minor dim must have size 2; dim0 has size 4");
}

// The register bits a join or broadcast adds past one dim's 62 bits are the
// operation's fault, named by it (the product inside is not the caller's):
// join adds one register bit to 62, broadcasting dim0 from 1 to 2^62 adds
// 62 to one.
TEST(ShapeOps, RegisterBitsPastOneDimNameTheOperation) {
  using namespace lk::linear::dims;
  LinearLayout wide =
      ok(LinearLayout::identity1D(int64_t(1) << 62, kRegister, dim(0)));
  Expected<LinearLayout> j = joinForward(wide);
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error().message,
            "join: input dim 'register' would have 63 bits; one dim has at "
            "most 2^62 values");
  LinearLayout one = ok(ok(LinearLayout::zeros1D(1, kRegister, dim(0))) *
                        ok(LinearLayout::identity1D(2, kRegister, dim(1))));
  const int64_t shape[] = {int64_t(1) << 62, 2};
  Expected<LinearLayout> b = broadcastForward(one, shape);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().message.rfind("broadcast: input dim 'register' would "
                                    "have 63 bits",
                                    0),
            0u)
      << b.error().message;
}

TEST(ShapeOps, JoinAndSplit) {
  Random r(24);
  for (int t = 0; t < 200; ++t) {
    LinearLayout src = randomBlocked(r, size_t(r.uniform(1, 3)));
    LinearLayout dst = ok(joinForward(src));
    int rank = src.numOutDims();
    ASSERT_EQ(dst.outDim(rank).size(), 2);
    // Register bit 0 selects the operand; the others are the operand's.
    forEachInput(dst, [&](std::vector<int64_t> in, std::vector<int64_t> out) {
      int64_t which = in[0] & 1;
      in[0] >>= 1;
      std::vector<int64_t> s = ok(src.apply(in));
      s.push_back(which);
      ASSERT_EQ(out, s);
    });
    EXPECT_TRUE(isDistributed(dst));
    // split (joinBackward) undoes join.
    EXPECT_EQ(ok(joinBackward(dst)), src);
  }
  // A minor dim held by lanes cannot be split without moving data.
  LinearLayout lanes =
      P("{register: [(1,0)], lane: [(0,1)]} -> {dim0: 2, dim1: 2}");
  EXPECT_EQ(joinBackward(lanes).error().message,
            "split: lane basis 0 moves the minor dim; the split would move "
            "data (dim1, the minor dim, must be one register bit's alone)");
  // Nor by a register bit that moves another dim too, or by two bits.
  LinearLayout mixed = P("{register: [(1,1)]} -> {dim0: 2, dim1: 2}");
  EXPECT_EQ(joinBackward(mixed).error().message.rfind(
                "split: register basis 0 moves dim0 too; ", 0),
            0u);
  LinearLayout two =
      P("{register: [(0,1), (1,0), (0,1)]} -> {dim0: 2, dim1: 2}");
  EXPECT_EQ(joinBackward(two).error().message.rfind(
                "split: register bases 0 and 2 both move it; ", 0),
            0u);
  // ... but by a register, wherever it is, it can.
  LinearLayout regs =
      P("{register: [(1,0), (0,1)], lane: [(2,0)]} -> {dim0: 4, dim1: 2}");
  EXPECT_EQ(ok(joinBackward(regs)).str(),
            "{register: [(1)], lane: [(2)]} -> {dim0: 4}");
}

} // namespace
