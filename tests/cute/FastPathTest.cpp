//===- FastPathTest.cpp - Fast paths equal the general constructions -----===//
//
// Every operation of Algebra.h runs a fast path first and falls back to the
// general construction of AlgebraGeneral.h. On thousands of random operands
// (fixed seeds) -- rank 1 and nested, broadcast (stride-0) modes, holes,
// negative strides, shapes that do not divide, more leaves than the fast
// paths take -- both must give the same layout, or both the same
// diagnostic.
//
//===----------------------------------------------------------------------===//

#include "support/AlgebraTestSupport.h"

#include "layoutkit/cute/AlgebraGeneral.h"

namespace lk::cute {
namespace {

using testing::L;
using testing::LayoutGen;
using testing::T;

constexpr int kTrials = 4000;

/// Same layout, or both errors with the same message.
::testing::AssertionResult same(const Expected<Layout> &fast,
                                const Expected<Layout> &general) {
  if (fast && general) {
    if (*fast == *general)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "fast " << fast->str() << " != general " << general->str();
  }
  if (!fast && !general) {
    if (fast.error().render() == general.error().render())
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "different diagnostics:\n"
           << fast.error().render() << general.error().render();
  }
  return ::testing::AssertionFailure()
         << "fast " << (fast ? fast->str() : fast.error().render())
         << " but general "
         << (general ? general->str() : general.error().render());
}

/// A random operand: rank 1 (a single mode), nested, with broadcast modes
/// and holes, sometimes negative strides, sometimes more than the 8 leaves
/// a fast path takes.
Layout operand(LayoutGen &gen) {
  switch (gen.pick(0, 5)) {
  case 0: { // a single mode, stride 0 included
    int64_t s = gen.pick(1, 64), d = gen.pick(0, 3) == 0 ? 0 : gen.pick(1, 64);
    return Layout::unchecked(IntTuple(s), IntTuple(d));
  }
  case 1:
    return gen.injective(5, 6, /*gaps=*/false); // compact, permuted
  case 2:
    return gen.injective(5, 6, /*gaps=*/true); // with holes
  case 3:
    return gen.negate(gen.any(4, 6, 24));
  case 4:
    return gen.any(12, 3, 64); // often past the fast paths' 8 leaves
  default:
    return gen.any(6, 8, 48);
  }
}

/// A random tiler for `a`: a layout, an integer, or by-mode with `_`.
Tiler tilerFor(LayoutGen &gen, const Layout &a) {
  int kind = int(gen.pick(0, 3));
  if (kind == 0)
    return Tiler::of(operand(gen));
  if (kind == 1)
    return *Tiler::ofSize(gen.pick(1, 16));
  std::vector<Tiler> modes;
  size_t r = size_t(gen.pick(1, int64_t(a.rank()) + (gen.pick(0, 9) == 0)));
  for (size_t i = 0; i < r; ++i) {
    int64_t k = gen.pick(0, 3);
    modes.push_back(k == 0   ? Tiler::keep()
                    : k == 1 ? *Tiler::ofSize(gen.pick(1, 8))
                             : Tiler::of(gen.injective(2, 4, gen.pick(0, 1))));
  }
  return Tiler::tuple(std::move(modes));
}

TEST(FastPaths, CoalesceEqualsGeneral) {
  LayoutGen gen(101);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = operand(gen);
    ASSERT_EQ(coalesce(l), general::coalesce(l)) << l.str();
  }
}

TEST(FastPaths, CompositionEqualsGeneral) {
  LayoutGen gen(102);
  int ok = 0;
  for (int t = 0; t < kTrials * 2; ++t) {
    Layout a = operand(gen), b = operand(gen);
    auto r = composition(a, b);
    ok += bool(r);
    ASSERT_TRUE(same(r, general::composition(a, b))) << a.str() << " o " << b.str();
    Tiler tl = tilerFor(gen, a);
    ASSERT_TRUE(same(composition(a, tl), general::composition(a, tl)))
        << a.str() << " o " << tl.str();
  }
  EXPECT_GT(ok, kTrials / 4); // both outcomes are exercised
  EXPECT_LT(ok, kTrials * 2);
}

TEST(FastPaths, ComplementEqualsGeneral) {
  LayoutGen gen(103);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = operand(gen);
    IntTuple cot = gen.pick(0, 2) ? IntTuple(gen.pick(1, 1024))
                                  : gen.shapeTree(int(gen.pick(1, 3)), 1, 16);
    ASSERT_TRUE(same(complement(l, cot), general::complement(l, cot)))
        << l.str() << " in " << cot.str();
  }
}

TEST(FastPaths, InversesEqualGeneral) {
  LayoutGen gen(104);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = operand(gen);
    ASSERT_TRUE(same(right_inverse(l), general::right_inverse(l))) << l.str();
    ASSERT_TRUE(same(left_inverse(l), general::left_inverse(l))) << l.str();
  }
}

TEST(FastPaths, DividesEqualGeneral) {
  LayoutGen gen(105);
  int ok = 0;
  for (int t = 0; t < kTrials * 2; ++t) {
    Layout a = operand(gen);
    Tiler tl = tilerFor(gen, a);
    auto r = logical_divide(a, tl);
    ok += bool(r);
    ASSERT_TRUE(same(r, general::logical_divide(a, tl))) << a.str() << " / " << tl.str();
  }
  EXPECT_GT(ok, kTrials / 4);
  EXPECT_LT(ok, kTrials * 2);
}

TEST(FastPaths, ProductsEqualGeneral) {
  LayoutGen gen(106);
  for (int t = 0; t < kTrials * 2; ++t) {
    Layout a = operand(gen), b = operand(gen);
    Tiler tl = tilerFor(gen, a);
    ASSERT_TRUE(same(logical_product(a, tl), general::logical_product(a, tl)))
        << a.str() << " * " << tl.str();
    ASSERT_TRUE(same(blocked_product(a, b), general::blocked_product(a, b)))
        << a.str() << " blocked " << b.str();
    ASSERT_TRUE(same(raked_product(a, b), general::raked_product(a, b)))
        << a.str() << " raked " << b.str();
  }
}

// The cases the benchmarks time, with their results derived by hand
// (docs/cute.md), and non-divisible cases that must stay errors.
TEST(FastPaths, NamedCases) {
  // A = (4,8):(8,1): 8:4 skips A's first mode (4 | 4) to 8:1; 4:1 -> 4:8.
  EXPECT_EQ(*composition(L("(4,8):(8,1)"), L("(8,4):(4,1)")), L("(8,4):(1,8)"));
  // Image {0,32,64,96}: fill 32 below, then 256/128 = 2 copies above.
  EXPECT_EQ(*complement(L("4:32"), IntTuple(256)), L("(32,2):(1,128)"));
  EXPECT_EQ(*logical_divide(L("128:1"), Tiler::of(L("32:1"))), L("(32,4):(1,32)"));
  EXPECT_EQ(*logical_product(L("128:1"), Tiler::of(L("4:32"))), L("(128,4):(1,4096)"));
  EXPECT_EQ(*blocked_product(L("(2,2):(1,2)"), L("(4,8):(1,4)")),
            L("((2,4),(2,8)):((1,4),(2,16))"));
  // Steps of 3 (and 2) cross A's first mode, of extent 4 (3), at a point
  // that is not a multiple of the step; 3 elements left for a mode of 2.
  for (auto [a, b] : {std::pair{"(4,6):(1,5)", "6:3"}, {"(3,8):(1,4)", "4:2"},
                      {"(4,6):(1,5)", "(2,3):(1,2)"}}) {
    auto f = composition(L(a), L(b));
    EXPECT_FALSE(f) << a << " o " << b;
    EXPECT_TRUE(same(f, general::composition(L(a), L(b))));
  }
  // The rest complement(3:1, (4,6)) = 12:3 steps by 3 across A's mode 4.
  EXPECT_FALSE(logical_divide(L("(4,6):(1,5)"), Tiler::of(L("3:1"))));
  EXPECT_FALSE(complement(L("(2,2):(1,1)"), IntTuple(8)));
}

} // namespace
} // namespace lk::cute
