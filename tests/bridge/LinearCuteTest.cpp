//===- LinearCuteTest.cpp - Bridge linear <-> cute ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Worked examples, refusals (each diagnostic names the leaf or basis), and
/// seeded property tests: every conversion is checked against direct
/// evaluation on every element (cute::evaluate / crd2idx against
/// LinearLayout::applyFlat), success is checked against a brute-force test
/// of F2-linearity, and round trips give equal layouts.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/bridge/LinearCute.h"

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"

#include "support/BridgeTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <random>

using namespace lk;
using namespace lk::bridge;
using namespace lk::bridge::testing;
using lk::linear::LinearLayout;
namespace dims = lk::linear::dims;

namespace {

/// Every element: cute's L(i) == linear's applyFlat(i).
::testing::AssertionResult agrees(const cute::Layout &c,
                                  const LinearLayout &l) {
  if (c.size() != l.totalInSize())
    return ::testing::AssertionFailure()
           << "sizes " << c.size() << " vs " << l.totalInSize();
  for (int64_t i = 0; i < c.size(); ++i)
    if (uint64_t(cute::evaluate(c, i)) != l.applyFlat(uint64_t(i)))
      return ::testing::AssertionFailure()
             << c.str() << " vs " << l.str() << " at " << i;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult agrees(const cute::ComposedLayout &c,
                                  const LinearLayout &l) {
  if (c.layout.size() != l.totalInSize())
    return ::testing::AssertionFailure() << "sizes differ";
  for (int64_t i = 0; i < c.layout.size(); ++i) {
    Expected<int64_t> want = cute::crd2idx(IntTuple(i), c);
    if (!want || uint64_t(*want) != l.applyFlat(uint64_t(i)))
      return ::testing::AssertionFailure()
             << c.str() << " vs " << l.str() << " at " << i;
  }
  return ::testing::AssertionSuccess();
}

TEST(LinearCute, WorkedExamples) {
  // (4,2):(2,1): index bits 0,1 -> 2,4 (leaf 0), bit 2 -> 1 (leaf 1).
  Expected<LinearLayout> a = cuteToLinear(cuteOf("(4,2):(2,1)"));
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->str(), "{index: [(2), (4), (1)]} -> {offset: 8}");
  EXPECT_TRUE(agrees(cuteOf("(4,2):(2,1)"), *a));

  // Row-major 8x8 with one in-dim per mode.
  CuteToLinearDims modes{{dims::dim(0), dims::dim(1)}, {}};
  Expected<LinearLayout> b = cuteToLinear(cuteOf("(8,8):(8,1)"), modes);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->str(),
            "{dim0: [(8), (16), (32)], dim1: [(1), (2), (4)]} -> {offset: 64}");
  // Triton's orientation (offset -> logical) is the inverse.
  Expected<LinearLayout> inv = b->invert();
  ASSERT_TRUE(inv);
  EXPECT_EQ(inv->str(),
            "{offset: [(0,1), (0,2), (0,4), (1,0), (2,0), (4,0)]} -> "
            "{dim0: 8, dim1: 8}");

  // A multi-bit stride that does not carry: (2,2):(3,4).
  Expected<LinearLayout> c = cuteToLinear(cuteOf("(2,2):(3,4)"));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->str(), "{index: [(3), (4)]} -> {offset: 8}");
  EXPECT_EQ(*linearToCute(*c), cuteOf("(2,2):(3,4)"));

  // Broadcast (stride 0) leaves are zero columns; out-dims given explicitly.
  CuteToLinearDims outs{{}, {{dims::dim(1), 4}, {dims::dim(0), 4}}};
  Expected<LinearLayout> d = cuteToLinear(cuteOf("(2,4,2):(0,1,4)"), outs);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->str(),
            "{index: [(0,0), (1,0), (2,0), (0,1)]} -> {dim1: 4, dim0: 4}");
}

TEST(LinearCute, Swizzle) {
  // Sw<1,1,2> o 16:1: bit 3 is XORed into bit 1: column 8 -> 8 ^ 2 = 10.
  cute::ComposedLayout s = composedOf("Sw<1,1,2> o 16:1");
  Expected<LinearLayout> l = cuteToLinear(s);
  ASSERT_TRUE(l) << l.error().message;
  EXPECT_EQ(l->str(), "{index: [(1), (2), (4), (10)]} -> {offset: 16}");
  EXPECT_TRUE(agrees(s, *l));
  // The 128-byte swizzle of an 8x64 half tile.
  cute::ComposedLayout big = composedOf("Sw<3,4,3> o (8,64):(64,1)");
  Expected<LinearLayout> lb = cuteToLinear(big);
  ASSERT_TRUE(lb);
  EXPECT_TRUE(agrees(big, *lb));
  EXPECT_TRUE(lb->isInvertible());
  // Back: with the swizzle known, the composed layout is recovered.
  const IntTuple shape = big.layout.shape();
  Expected<cute::ComposedLayout> back = linearToCute(*lb, big.swizzle, &shape);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, big);
  // Without it, the swizzled columns (multi-bit and overlapping) are refused.
  Expected<cute::Layout> plain = linearToCute(*lb);
  ASSERT_FALSE(plain);
  EXPECT_NE(plain.error().message.find("not a permutation of strided bits"),
            std::string::npos);
}

TEST(LinearCute, CuteRefusals) {
  EXPECT_EQ(cuteToLinear(cuteOf("(4,3):(1,4)")).error().message,
            "leaf 1 (3:4) of (4,3):(1,4) has extent 3, not a power of two");
  // A plain layout read as a composed one (the identity swizzle, as the
  // CLI reads every layout) is named as written; a swizzled one whole.
  cute::ComposedLayout plain{cute::Swizzle{}, 0, cuteOf("(4,3):(1,4)")};
  EXPECT_EQ(cuteToLinear(plain).error().message,
            "leaf 1 (3:4) of (4,3):(1,4) has extent 3, not a power of two");
  cute::ComposedLayout swizzled{cute::Swizzle{1, 0, 2}, 0,
                                cuteOf("(4,3):(1,4)")};
  EXPECT_EQ(cuteToLinear(swizzled).error().message,
            "leaf 1 (3:4) of Sw<1,0,2> o (4,3):(1,4) has extent 3, not a power "
            "of two");
  EXPECT_EQ(
      cuteToLinear(cuteOf("(4,2):(1,2)")).error().message,
      "leaf 1 (2:2) of (4,2):(1,2): bit 0 of the leaf maps to offset 2, which "
      "shares bits with index bit 1 (offset 2): the sum carries, so the map is "
      "not linear over F2");
  EXPECT_EQ(
      cuteToLinear(cuteOf("(4,2):(3,8)")).error().message,
      "leaf 0 (4:3) of (4,2):(3,8): bit 1 of the leaf maps to offset 6, which "
      "shares bits with index bit 0 (offset 3): the sum carries, so the map is "
      "not linear over F2");
  EXPECT_EQ(cuteToLinear(cuteOf("(2,2):(1,-2)")).error().message,
            "leaf 1 (2:-2) of (2,2):(1,-2) has a negative stride; offsets over "
            "F2 are "
            "non-negative");
  EXPECT_EQ(
      cuteToLinear(cuteOf("(4,8):(1@0,1@1)")).error().message,
      "leaf 0 (4:1@0) of (4,8):(1@0,1@1) has a basis stride; the bridge reads "
      "plain integer strides (offsets)");
  EXPECT_EQ(cuteToLinear(composedOf("Sw<3,4,3> o 32 o (8,64):(64,1)"))
                .error()
                .message,
            "offset 32 of Sw<3,4,3> o 32 o (8,64):(64,1) is not representable: "
            "a linear "
            "layout maps index 0 to offset 0");
  CuteToLinearDims wrongModes{{dims::dim(0)}, {}};
  EXPECT_EQ(cuteToLinear(cuteOf("(4,2):(1,4)"), wrongModes).error().message,
            "1 in-dim names for (4,2):(1,4), which has 2 top-level modes");
  CuteToLinearDims small{{}, {{dims::kOffset, 4}}};
  EXPECT_EQ(cuteToLinear(cuteOf("(4,2):(1,4)"), small).error().message,
            "the out-dims hold 2 bits, but (4,2):(1,4) reaches offset bit 2");
}

TEST(LinearCute, LinearRefusals) {
  EXPECT_EQ(linearToCute(linearOf("{register: [(1), (5)]} -> {offset: 8}"))
                .error()
                .message,
            "basis 1 of in-dim register maps to 0b101, which shares bits with "
            "basis 0 of "
            "in-dim register (0b1): the map is not a permutation of strided "
            "bits (the "
            "offsets would carry)");
  EXPECT_EQ(
      linearToCute(
          linearOf("{register: [(1)], lane: [(2), (4), (2)]} -> {offset: 8}"))
          .error()
          .message,
      "basis 2 of in-dim lane maps to 0b10, which shares bits with basis 0 of "
      "in-dim lane (0b10): the map is not a permutation of strided bits (the "
      "offsets would carry)");
  LinearLayout ok = linearOf("{register: [(1), (2), (8)]} -> {offset: 16}");
  IntTuple shape = *cute::parseIntTuple("(8)");
  EXPECT_EQ(linearToCute(ok, &shape).error().message,
            "leaf 0 (extent 8) of shape (8): basis 2 of in-dim register maps "
            "to 0b1000, "
            "not 0b100: the bits are not one strided walk");
  IntTuple odd = *cute::parseIntTuple("(2,6)");
  EXPECT_EQ(linearToCute(ok, &odd).error().message,
            "leaf 1 of shape (2,6) has extent 6, not a power of two");
  IntTuple big = *cute::parseIntTuple("(2,8)");
  EXPECT_EQ(linearToCute(ok, &big).error().message,
            "shape (2,8) has more bits than the 3 input bits of the layout");
}

TEST(LinearCute, LinearToCuteExamples) {
  LinearLayout l =
      linearOf("{register: [(1), (2)], lane: [(8), (4)]} -> {offset: 16}");
  Expected<cute::Layout> c = linearToCute(l);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->str(), "(4,(2,2)):(1,(8,4))");
  EXPECT_TRUE(agrees(*c, l));
  // Zero bases become stride-0 leaves; an empty in-dim a 1:0 mode.
  LinearLayout z =
      linearOf("{register: [(0), (0), (1)], lane: []} -> {offset: 2}");
  c = linearToCute(z);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->str(), "((4,2),1):((0,1),0)");
  CuteToLinearDims names{{dims::kRegister, dims::kLane}, {{dims::kOffset, 2}}};
  EXPECT_EQ(*cuteToLinear(*c, names), z);
  // Several out-dims: the flattened output (first out-dim lowest) is the
  // offset.
  LinearLayout two = linearOf("{lane: [(0,1), (1,0)]} -> {dim0: 2, dim1: 2}");
  c = linearToCute(two);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->str(), "(2,2):(2,1)");
}

//===----------------------------------------------------------------------===//
// Property tests
//===----------------------------------------------------------------------===//

/// A random nested cute layout with power-of-two extents. Representable
/// strides (pow2 walks on free offset bits, zero, or a disjoint multi-bit
/// stride on an extent-2 leaf) unless `wild`, which draws small strides
/// freely. Extent-1 leaves get stride 0.
cute::Layout randomCute(Gen &g, bool wild) {
  uint64_t used = 0;
  int budget = int(g.uniform(0, 10));
  std::function<void(int, IntTuple &, IntTuple &)> build =
      [&](int depth, IntTuple &shape, IntTuple &stride) {
        if (depth == 0 || g.chance(45)) {
          int k = budget > 0 ? int(g.uniform(0, std::min(budget, 4))) : 0;
          budget -= k;
          shape = IntTuple(int64_t(1) << k);
          int64_t s = 0;
          if (k > 0) {
            if (wild) {
              s = g.uniform(0, 9);
            } else if (!g.chance(15)) {
              for (int tries = 0; tries < 20; ++tries) {
                int p = int(g.uniform(0, 13));
                uint64_t mask = ((uint64_t(1) << k) - 1) << p;
                if (k == 1 && g.chance(30))
                  mask |= uint64_t(1) << g.uniform(0, 13); // a multi-bit stride
                if (!(mask & used)) {
                  used |= mask;
                  s = k == 1 ? int64_t(mask) : int64_t(1) << p;
                  break;
                }
              }
            }
          }
          stride = IntTuple(s);
          return;
        }
        shape = IntTuple();
        stride = IntTuple();
        for (int64_t i = 0, r = g.uniform(1, 3); i < r; ++i) {
          IntTuple a, b;
          build(depth - 1, a, b);
          shape.push_back(a);
          stride.push_back(b);
        }
      };
  IntTuple shape, stride;
  build(3, shape, stride);
  Expected<cute::Layout> l = cute::Layout::make(shape, stride);
  EXPECT_TRUE(l);
  return *l;
}

/// F2-linearity by brute force: L(i) == XOR of L(2^j) over the set bits j.
bool bruteLinear(const cute::Layout &l) {
  for (int64_t i = 0; i < l.size(); ++i) {
    int64_t x = 0;
    for (int j = 0; (int64_t(1) << j) < l.size(); ++j)
      if (i >> j & 1)
        x ^= cute::evaluate(l, int64_t(1) << j);
    if (x != cute::evaluate(l, i))
      return false;
  }
  return true;
}

TEST(LinearCuteProperty, RandomCuteLayoutsRoundTrip) {
  Gen g(0x11ea7c07e);
  int converted = 0;
  for (int n = 0; n < 1500; ++n) {
    bool wild = n % 3 == 2;
    cute::Layout c = randomCute(g, wild);
    Expected<LinearLayout> l = cuteToLinear(c);
    ASSERT_EQ(bool(l), bruteLinear(c))
        << c.str() << (l ? "" : ": " + l.error().message);
    if (!l)
      continue;
    ++converted;
    ASSERT_TRUE(agrees(c, *l));
    // Exact round trip along the original shape.
    IntTuple shape = c.shape();
    Expected<cute::Layout> back = linearToCute(*l, &shape);
    ASSERT_TRUE(back) << c.str() << ": " << back.error().message;
    ASSERT_EQ(*back, c) << l->str();
    // Without a shape: the same function, and back to the same linear layout.
    Expected<cute::Layout> merged = linearToCute(*l);
    ASSERT_TRUE(merged);
    ASSERT_TRUE(agrees(*merged, *l));
    ASSERT_EQ(*cuteToLinear(*merged, {{}, l->outDims()}), *l);
    // Per-mode in-dims: same columns, split differently.
    if (!c.shape().isLeaf() && c.rank() >= 2) {
      CuteToLinearDims names;
      for (size_t m = 0; m < c.rank(); ++m)
        names.inDims.push_back(dims::dim(int(m)));
      Expected<LinearLayout> lm = cuteToLinear(c, names);
      ASSERT_TRUE(lm);
      ASSERT_EQ(lm->flattenIns().columns().size(), l->columns().size());
      for (int j = 0; j < l->totalInBits(); ++j)
        ASSERT_EQ(lm->column(j), l->column(j));
      Expected<cute::Layout> modes = linearToCute(*lm);
      ASSERT_TRUE(modes);
      ASSERT_EQ(modes->rank(), c.rank());
      ASSERT_TRUE(agrees(*modes, *lm));
      ASSERT_EQ(*cuteToLinear(*modes, {names.inDims, lm->outDims()}), *lm);
    }
  }
  EXPECT_GT(converted, 900);
}

TEST(LinearCuteProperty, RandomSwizzledLayouts) {
  Gen g(0x5e1221e);
  for (int n = 0; n < 600; ++n) {
    cute::Layout c = randomCute(g, false);
    int64_t B = g.uniform(0, 3), M = g.uniform(0, 4), S = g.uniform(B, 5);
    cute::ComposedLayout s{*cute::Swizzle::make(B, M, S), 0, c};
    Expected<LinearLayout> l = cuteToLinear(s);
    ASSERT_TRUE(l) << s.str() << ": " << l.error().message;
    ASSERT_TRUE(agrees(s, *l));
    IntTuple shape = c.shape();
    Expected<cute::ComposedLayout> back = linearToCute(*l, s.swizzle, &shape);
    ASSERT_TRUE(back) << s.str();
    ASSERT_EQ(*back, s);
  }
}

/// A random linear layout (register / lane / warp -> one or two out-dims).
/// Representable: columns are distinct single bits of a random permutation,
/// zeros, and occasionally two bits merged into one column; else random.
LinearLayout randomLinear(Gen &g, bool representable) {
  int outBits = int(g.uniform(0, 10));
  std::vector<int> perm(static_cast<size_t>(outBits));
  for (int i = 0; i < outBits; ++i)
    perm[size_t(i)] = i;
  std::shuffle(perm.begin(), perm.end(), g.rng);
  std::vector<linear::DimSize> ins;
  std::vector<uint64_t> cols;
  size_t next = 0;
  const linear::DimId names[] = {dims::kRegister, dims::kLane, dims::kWarp};
  for (linear::DimId d : names) {
    int bits = int(g.uniform(0, 4));
    for (int b = 0; b < bits; ++b) {
      uint64_t c = 0;
      if (!representable) {
        c = uint64_t(g.uniform(0, (int64_t(1) << outBits) - 1));
      } else if (next < perm.size() && !g.chance(15)) {
        c = uint64_t(1) << perm[next++];
        if (next < perm.size() && g.chance(15))
          c |= uint64_t(1) << perm[next++];
      }
      cols.push_back(c);
    }
    ins.push_back({d, bits});
  }
  std::vector<linear::DimSize> outs;
  if (g.chance(50)) {
    outs.push_back({dims::kOffset, outBits});
  } else {
    int lo = int(g.uniform(0, outBits));
    outs.push_back({dims::dim(1), lo});
    outs.push_back({dims::dim(0), outBits - lo});
  }
  Expected<LinearLayout> l = LinearLayout::fromColumns(ins, outs, cols);
  EXPECT_TRUE(l) << l.error().message;
  return *l;
}

TEST(LinearCuteProperty, RandomLinearLayoutsRoundTrip) {
  Gen g(0x1ea2);
  int converted = 0;
  for (int n = 0; n < 1500; ++n) {
    LinearLayout l = randomLinear(g, n % 2 == 0);
    uint64_t used = 0;
    bool disjoint = true;
    for (uint64_t c : l.columns()) {
      disjoint &= !(c & used);
      used |= c;
    }
    Expected<cute::Layout> c = linearToCute(l);
    ASSERT_EQ(bool(c), disjoint) << l.str();
    if (!c)
      continue;
    ++converted;
    ASSERT_TRUE(agrees(*c, l)) << l.str();
    std::vector<linear::DimId> names;
    for (int i = 0; i < l.numInDims(); ++i)
      names.push_back(l.inDim(i).id);
    Expected<LinearLayout> back = cuteToLinear(*c, {names, l.outDims()});
    ASSERT_TRUE(back) << c->str() << ": " << back.error().message;
    ASSERT_EQ(*back, l) << c->str();
  }
  EXPECT_GT(converted, 700);
}

// 63 zero columns would merge into one leaf of extent 2^63: refused before
// the extents are formed (a cute size is an int64; 2^62 at most).
TEST(LinearCute, SixtyThreeInputBitsAreRefused) {
  // Two input dims (one dim has at most 62 bits), flattened by the bridge.
  std::vector<uint64_t> cols(63, 0);
  linear::DimSize ins[] = {{dims::kRegister, 32}, {dims::kLane, 31}};
  linear::DimSize out{dims::kOffset, 1};
  LinearLayout l = *LinearLayout::fromColumns(ins, std::span(&out, 1), cols);
  linear::DimSize in{dims::kRegister, 62};
  auto c = linearToCute(l);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "a cute layout has at most 2^62 elements; the "
                               "layout has 63 input bits");
  // 62 zero columns: one broadcast leaf 2^62:0.
  cols.pop_back();
  LinearLayout l62 =
      *LinearLayout::fromColumns(std::span(&in, 1), std::span(&out, 1), cols);
  auto c62 = linearToCute(l62);
  ASSERT_TRUE(c62) << c62.error().message;
  EXPECT_EQ(c62->str(), "4611686018427387904:0");
}

} // namespace
