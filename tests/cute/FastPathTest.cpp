//===- FastPathTest.cpp - Fast paths equal the general constructions -----===//
//
// Every operation of Algebra.h runs a fast path first and falls back to the
// general construction of AlgebraGeneral.h. On thousands of random operands
// (fixed seeds) -- rank 1 and nested, broadcast (stride-0) modes, holes,
// negative strides, shapes that do not divide, more leaves than the fast
// paths take, empty-tuple modes () -- both must give the same layout, or
// both the same diagnostic.
//
//===----------------------------------------------------------------------===//

#include "support/AlgebraTestSupport.h"

#include "layoutkit/cute/AlgebraGeneral.h"

#include <functional>
#include <string>

namespace lk::cute {
namespace {

using testing::L;
using testing::LayoutGen;
using testing::T;

constexpr int kTrials = 4000;

/// The same pre-order nodes, every field: Layout's == compares the trees
/// (ranks and leaves), and a wrong span or tuple value that it would miss
/// misplaces every mode after it.
bool sameNodes(const IntTuple &x, const IntTuple &y) {
  if (x.nodeCount() != y.nodeCount())
    return false;
  for (size_t k = 0; k < x.nodeCount(); ++k) {
    const IntTuple::Node &a = x.nodes()[k], &b = y.nodes()[k];
    if (a.value != b.value || a.rank != b.rank || a.span != b.span ||
        a.basis != b.basis)
      return false;
  }
  return true;
}

/// Same layout, node for node, or both errors with the same message.
::testing::AssertionResult same(const Expected<Layout> &fast,
                                const Expected<Layout> &general) {
  if (fast && general) {
    if (*fast == *general && sameNodes(fast->shape(), general->shape()) &&
        sameNodes(fast->stride(), general->stride()))
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

// A leaf that leafOf declines (a basis stride) goes from right_inverse
// straight to the general construction: its error, recorded as General.
TEST(FastPaths, RightInverseOfABasisLeafIsGeneral) {
  const Layout l = L("4:1@0");
  auto r = right_inverse(l);
  EXPECT_EQ(int(general::lastPath()), int(general::Path::General));
  EXPECT_FALSE(r);
  EXPECT_TRUE(same(r, general::right_inverse(l)));
}

/// Counts results against trials over a sweep whose operands are chosen
/// so that both outcomes, a layout and a diagnostic, occur.
struct Outcomes {
  int ok = 0, trials = 0;
  /// same(fast, general), counting fast's outcome.
  ::testing::AssertionResult operator()(const Expected<Layout> &fast,
                                        const Expected<Layout> &general) {
    ok += bool(fast);
    ++trials;
    return same(fast, general);
  }
  bool both() const { return ok > 0 && ok < trials; }
};

/// logical_product(a, t), blocked_product(a, b) and raked_product(a, b)
/// equal the general construction's, result or diagnostic; `count`, when
/// given, counts logical_product's outcome.
::testing::AssertionResult productsSame(const Layout &a, const Layout &b,
                                        const Tiler &t,
                                        Outcomes *count = nullptr) {
  auto p = logical_product(a, t), g = general::logical_product(a, t);
  for (auto r : {count ? (*count)(p, g) : same(p, g),
                 same(blocked_product(a, b), general::blocked_product(a, b)),
                 same(raked_product(a, b), general::raked_product(a, b))})
    if (!r)
      return r << "\nfor " << a.str() << " and " << b.str() << ", tiler "
               << t.str();
  return ::testing::AssertionSuccess();
}

/// A random operand: rank 1 (a single mode), nested, with broadcast modes
/// and holes, sometimes negative strides, sometimes more than the 8 leaves
/// a fast path takes, sometimes with an empty-tuple mode ().
Layout operand(LayoutGen &gen) {
  switch (gen.pick(0, 6)) {
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
  case 5:
    return gen.any(6, 8, 48);
  default: { // () first or last: no leaf, but a mode
    Layout x = gen.any(4, 6, 24), e = L("():()");
    return gen.pick(0, 1) ? *makeLayout({e, x}) : *makeLayout({x, e});
  }
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
    ASSERT_TRUE(same(r, general::composition(a, b)))
        << a.str() << " o " << b.str();
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

// Nested injective operands (TV layouts are such): compact ones, which
// left_inverse serves by the chain of strides (LeftInverseChain), and with
// gaps, a size-1 leaf or two leaves of one stride (LeftInverseModes or the
// general path). On the compact ones the left inverse is the right inverse
// and the complement in c is ceil(c/size):size (complementOfModes's chain).
TEST(FastPaths, NestedInjectiveOperandsEqualGeneral) {
  using general::Path;
  LayoutGen gen(117);
  int chain = 0, modes = 0;
  for (int t = 0; t < kTrials; ++t) {
    const int kind = int(gen.pick(0, 3));
    Layout l = gen.injective(8, 6, /*gaps=*/kind == 1);
    if (kind == 2) // a size-1 leaf (coalesce drops it) before the first
      l = *makeLayout({Layout::unchecked(IntTuple(1), IntTuple(7)), l});
    if (kind == 3) // a second leaf of the smallest stride: not injective
      l = *makeLayout({l, Layout::unchecked(IntTuple(2), IntTuple(1))});
    auto li = left_inverse(l);
    const Path p = general::lastPath();
    chain += p == Path::LeftInverseChain;
    modes += p == Path::LeftInverseModes;
    ASSERT_TRUE(same(li, general::left_inverse(l))) << l.str();
    // A leaf has its own form; no mode (size 1) and more than 15 nodes
    // are the general path's.
    if (kind == 0 && l.size() > 1 && l.shape().nodeCount() <= 15) {
      EXPECT_TRUE(p == Path::LeftInverseChain || p == Path::LeftInverseLeaf)
          << l.str();
      ASSERT_TRUE(same(li, right_inverse(l))) << l.str();
    }
    ASSERT_TRUE(same(right_inverse(l), general::right_inverse(l))) << l.str();
    const int64_t n = l.size();
    for (int64_t c : {int64_t(1), n, 2 * n + 1, int64_t(1000)}) {
      auto k = complement(l, IntTuple(c));
      ASSERT_TRUE(same(k, general::complement(l, IntTuple(c))))
          << l.str() << " in " << c;
      if (kind == 0 && k && c == 2 * n + 1 && n > 1 &&
          l.shape().nodeCount() <= 15) { // 3:n
        EXPECT_EQ(*k, Layout::unchecked(IntTuple(3), IntTuple(n))) << l.str();
      }
    }
  }
  EXPECT_GT(chain, kTrials / 4);
  EXPECT_GT(modes, kTrials / 20);
}

TEST(FastPaths, DividesEqualGeneral) {
  LayoutGen gen(105);
  int ok = 0;
  for (int t = 0; t < kTrials * 2; ++t) {
    Layout a = operand(gen);
    Tiler tl = tilerFor(gen, a);
    auto r = logical_divide(a, tl);
    ok += bool(r);
    ASSERT_TRUE(same(r, general::logical_divide(a, tl)))
        << a.str() << " / " << tl.str();
  }
  EXPECT_GT(ok, kTrials / 4);
  EXPECT_LT(ok, kTrials * 2);
}

TEST(FastPaths, ProductsEqualGeneral) {
  LayoutGen gen(106);
  for (int t = 0; t < kTrials * 2; ++t) {
    Layout a = operand(gen), b = operand(gen);
    ASSERT_TRUE(productsSame(a, b, tilerFor(gen, a)));
  }
}

// The closed forms for rank-1 operands (FastPaths.cpp), on every leaf
// A = s:d with s in [1, 16], d in [-8, 16] against every leaf t:e with t in
// [1, 12], e in [-4, 12]: stride 0, size 1, negative strides, tiles that do
// not divide A, and non-compact A (which the closed forms hand on).
template <class F>
void forLeaves(int64_t maxS, int64_t minD, int64_t maxD, F f) {
  for (int64_t s = 1; s <= maxS; ++s)
    for (int64_t d = minD; d <= maxD; ++d)
      f(Layout::unchecked(IntTuple(s), IntTuple(d)));
}

TEST(FastPaths, RankOneUnaryEqualsGeneral) {
  int ok = 0;
  forLeaves(16, -8, 16, [&](const Layout &a) {
    ASSERT_EQ(coalesce(a), general::coalesce(a)) << a.str();
    ASSERT_TRUE(same(right_inverse(a), general::right_inverse(a))) << a.str();
    auto li = left_inverse(a);
    ok += bool(li);
    ASSERT_TRUE(same(li, general::left_inverse(a))) << a.str();
    for (int64_t c = 1; c <= 64; ++c)
      ASSERT_TRUE(
          same(complement(a, IntTuple(c)), general::complement(a, IntTuple(c))))
          << a.str() << " in " << c;
  });
  EXPECT_GT(ok, 0); // negative strides fail, the others do not
  EXPECT_LT(ok, 16 * 25);
  // The largest s:0 the general path verifies point by point, and past it.
  for (int64_t s : {int64_t(1) << 22, (int64_t(1) << 22) + 1}) {
    Layout a = Layout::unchecked(IntTuple(s), IntTuple(0));
    ASSERT_TRUE(same(left_inverse(a), general::left_inverse(a))) << a.str();
  }
}

// The closed forms on coalesced modes (FastInverse.h) on every flat layout
// of two modes s:d with s in [1, 4], d in [-2, 8] and of three with s in
// [1, 3], d in [0, 6]: equal strides (right_inverse's chain declines,
// left_inverse's test fails), size-1 and stride-0 modes, modes that merge,
// overlap or leave gaps, negative strides.
TEST(FastPaths, FlatModesEqualGeneral) {
  auto check = [](const Layout &a) {
    ASSERT_EQ(coalesce(a), general::coalesce(a)) << a.str();
    ASSERT_TRUE(same(right_inverse(a), general::right_inverse(a))) << a.str();
    ASSERT_TRUE(same(left_inverse(a), general::left_inverse(a))) << a.str();
    for (int64_t c : {1, 7, 16, 100})
      ASSERT_TRUE(
          same(complement(a, IntTuple(c)), general::complement(a, IntTuple(c))))
          << a.str() << " in " << c;
  };
  for (int64_t s0 = 1; s0 <= 4; ++s0)
    for (int64_t s1 = 1; s1 <= 4; ++s1)
      for (int64_t d0 = -2; d0 <= 8; ++d0)
        for (int64_t d1 = -2; d1 <= 8; ++d1) {
          check(L("(" + std::to_string(s0) + "," + std::to_string(s1) + "):(" +
                  std::to_string(d0) + "," + std::to_string(d1) + ")"));
        }
  for (int64_t s = 0; s < 27; ++s)
    for (int64_t d = 0; d < 343; ++d)
      check(L("(" + std::to_string(1 + s % 3) + "," +
              std::to_string(1 + s / 3 % 3) + "," + std::to_string(1 + s / 9) +
              "):(" + std::to_string(d % 7) + "," + std::to_string(d / 7 % 7) +
              "," + std::to_string(d / 49) + ")"));
}

TEST(FastPaths, RankOneBinaryEqualsGeneral) {
  int divided = 0, multiplied = 0;
  forLeaves(16, -8, 16, [&](const Layout &a) {
    forLeaves(12, -4, 12, [&](const Layout &b) {
      Tiler t = Tiler::of(b);
      ASSERT_TRUE(same(composition(a, b), general::composition(a, b)))
          << a.str() << " o " << b.str();
      auto dv = logical_divide(a, t);
      divided += bool(dv);
      ASSERT_TRUE(same(dv, general::logical_divide(a, t)))
          << a.str() << " / " << b.str();
      auto pr = logical_product(a, t);
      multiplied += bool(pr);
      ASSERT_TRUE(same(pr, general::logical_product(a, t)))
          << a.str() << " * " << b.str();
      ASSERT_TRUE(same(blocked_product(a, b), general::blocked_product(a, b)))
          << a.str() << " blocked " << b.str();
      ASSERT_TRUE(same(raked_product(a, b), general::raked_product(a, b)))
          << a.str() << " raked " << b.str();
    });
  });
  // Both outcomes occur (negative tile strides fail to divide).
  EXPECT_GT(divided, 0);
  EXPECT_LT(divided, 16 * 25 * 12 * 17);
  EXPECT_GT(multiplied, 0);
  EXPECT_LT(multiplied, 16 * 25 * 12 * 17);
  // Integer tilers n (compact(n), 1:0 for n == 1).
  forLeaves(16, -8, 16, [&](const Layout &a) {
    for (int64_t n = 1; n <= 20; ++n) {
      Tiler t = *Tiler::ofSize(n);
      ASSERT_TRUE(same(logical_divide(a, t), general::logical_divide(a, t)))
          << a.str() << " / " << n;
      ASSERT_TRUE(same(logical_product(a, t), general::logical_product(a, t)))
          << a.str() << " * " << n;
    }
  });
}

// A by-mode tiler whose modes are leaves divides each leaf mode of A in
// closed form (divideLeaves). Every leaf mode s:d (s <= 12, -6 <= d <= 12)
// divided by every leaf tile t:e (t <= 9, -3 <= e <= 9), placed as the
// second mode of (3,s):(1,d) with `_` on the first, equals the general
// construction, result or diagnostic; both outcomes occur (a negative tile
// stride fails).
TEST(FastPaths, ByModeLeafDivideEqualsGeneral) {
  int divided = 0, trials = 0;
  forLeaves(12, -6, 12, [&](const Layout &mode) {
    Layout a = *makeLayout({Layout::unchecked(IntTuple(3), IntTuple(1)), mode});
    forLeaves(9, -3, 9, [&](const Layout &tile) {
      Tiler t = Tiler::tuple({Tiler::keep(), Tiler::of(tile)});
      auto dv = logical_divide(a, t);
      divided += bool(dv);
      ++trials;
      ASSERT_TRUE(same(dv, general::logical_divide(a, t)))
          << a.str() << " / (_," << tile.str() << ")";
    });
  });
  EXPECT_GT(divided, 0);
  EXPECT_LT(divided, trials);
}

// coalesce and right_inverse store their modes without a range check
// (their size and cosize are bounded by the operand's): on operands whose
// size or cosize is near 2^63 the results equal the general ones and pass
// Layout::make's checks.
TEST(FastPaths, CoalesceAndRightInverseStayInTheOperandsRange) {
  const char *near[] = {
      "(2147483648,1073741824,2):(1,2147483648,4611686018427387904)",
      "(2,4611686018427387903):(4611686018427387903,1)",
      "(3,3074457345618258602):(1,3)",
      "(2,2,1073741824,1073741824):(-1,-2,-4,-4294967296)",
      "((2,2),(1152921504606846976,1)):((1,0),(0,7))",
  };
  for (const char *x : near) {
    Layout l = L(x);
    Layout c = coalesce(l);
    ASSERT_TRUE(same(c, general::coalesce(l))) << x;
    EXPECT_TRUE(Layout::make(c.shape(), c.stride())) << x;
    auto r = right_inverse(l);
    ASSERT_TRUE(same(r, general::right_inverse(l))) << x;
    ASSERT_TRUE(r) << x;
    EXPECT_TRUE(Layout::make(r->shape(), r->stride())) << x;
  }
}

// compositions by a flat or nested B bound their cosize by A's terms and
// the terms along A's last mode (Composer::fits), in place of a pass over
// the result: past A's domain the last mode's stride 2^61 gives offsets
// just under and just past 2^63 (the general path's error), along A's
// only mode too, and with a negative stride. Each equals the general
// construction; both outcomes occur.
TEST(FastPaths, WholeCompositionsBoundTheirRange) {
  const char *as[] = {"(2,2):(1,2305843009213693952)",
                      "(2,2):(1,-2305843009213693952)", "2:2305843009213693952",
                      "(2,4):(1,1152921504606846976)"};
  const char *bs[] = {"(2,4):(1,2)",         "(2,3):(1,2)",
                      "((2),(4)):((1),(2))", "((2),(3)):((1),(2))",
                      "(2,2,2):(1,2,4)",     "(4,2):(2,1)"};
  Outcomes out;
  int served = 0; // results near 2^63 written by the two fast forms
  for (const char *a : as)
    for (const char *b : bs) {
      auto r = composition(L(a), L(b));
      served += r && (general::lastPath() == general::Path::ComposeFlat ||
                      general::lastPath() == general::Path::ComposeNested);
      ASSERT_TRUE(out(r, general::composition(L(a), L(b)))) << a << " o " << b;
      if (r) {
        EXPECT_TRUE(Layout::make(r->shape(), r->stride())) << a << " o " << b;
      }
    }
  EXPECT_TRUE(out.both());
  EXPECT_GT(served, 4);
}

// complement stores its modes unchecked when restShape*cur fits (a bound
// of its size and cosize, complementModes): operands and cotargets near
// 2^62 give the general path's result or diagnostic, and results pass
// Layout::make's checks.
// complementOfModes takes the kept leaves as modes, unmerged: leaves that
// coalesce would merge (y == a*x, z == b*y) tile the merged mode's span,
// each quotient between them 1. Every ((a,b),c):((x,y),z) with shapes in
// [1, 3] and strides in [0, 8] (merging, overlapping, equal and zero
// strides), in the cotargets 1, 24 and 200: equal to the general
// construction, the fast path serving merging operands too.
TEST(FastPaths, ComplementOfMergingLeavesEqualsGeneral) {
  int served = 0, merging = 0;
  for (int a = 1; a <= 3; ++a)
    for (int b = 1; b <= 3; ++b)
      for (int c = 1; c <= 3; ++c)
        for (int x = 0; x <= 8; ++x)
          for (int y = 0; y <= 8; ++y)
            for (int z = 0; z <= 8; ++z) {
              auto tuple = [](int u, int v, int w) {
                return "((" + std::to_string(u) + "," + std::to_string(v) +
                       ")," + std::to_string(w) + ")";
              };
              const Layout l = L(tuple(a, b, c) + ":" + tuple(x, y, z));
              for (int64_t cot : {1, 24, 200}) {
                auto r = complement(l, IntTuple(cot));
                const bool fast =
                    general::lastPath() == general::Path::ComplementModes;
                served += fast;
                merging += fast && a > 1 && b > 1 && x > 0 && y == a * x;
                ASSERT_TRUE(same(r, general::complement(l, IntTuple(cot))))
                    << l.str() << " in " << cot;
              }
            }
  EXPECT_GT(served, 0);
  EXPECT_GT(merging, 0);
}

TEST(FastPaths, ComplementStaysInRange) {
  const char *near[] = {"(2,2):(1,2)", "2:2305843009213693952",
                        "(2,3):(1,2305843009213693951)",
                        "(4,2):(1,1152921504606846976)", "(3,2):(2,6)"};
  const int64_t cots[] = {4611686018427387904, 4611686018427387903,
                          9223372036854775807, 3074457345618258603};
  int ok = 0;
  for (const char *x : near)
    for (int64_t cot : cots) {
      Layout l = L(x);
      auto c = complement(l, IntTuple(cot));
      ASSERT_TRUE(same(c, general::complement(l, IntTuple(cot))))
          << x << " in " << cot;
      if (c) {
        ++ok;
        EXPECT_TRUE(Layout::make(c->shape(), c->stride()))
            << x << " in " << cot;
      }
    }
  EXPECT_GT(ok, 0);
}

// composition by leaf tiles (composeModes), a leaf mode A_i = s:d in
// closed form (t:e*d): A = (m, (2,3):(1,4)) with every leaf m = s:d
// (s <= 12, -6 <= d <= 12) by (t:e, 6), (t:e) and (_, t:e) for every leaf
// t:e (t <= 9, -3 <= e <= 9), and by the integer tiles (1, 1) (n:1 even
// for n = 1). Each served by composeModes and equal to the general
// construction (tilers of leaf tiles alone by composeLeafModes).
TEST(FastPaths, ByModeLeafCompositionEqualsGeneral) {
  int served = 0, trials = 0;
  forLeaves(12, -6, 12, [&](const Layout &mode) {
    Layout a = *makeLayout({mode, L("(2,3):(1,4)")});
    auto check = [&](const Tiler &t) {
      auto r = composition(a, t);
      served += general::lastPath() == general::Path::ComposeModes ||
                general::lastPath() == general::Path::ComposeLeafModes ||
                general::lastPath() == general::Path::ComposeTwoLeafModes;
      ++trials;
      ASSERT_TRUE(same(r, general::composition(a, t)))
          << a.str() << " o " << t.str();
    };
    check(Tiler::tuple({*Tiler::ofSize(1), *Tiler::ofSize(1)}));
    forLeaves(9, -3, 9, [&](const Layout &tile) {
      check(Tiler::tuple({Tiler::of(tile), *Tiler::ofSize(6)}));
      check(Tiler::tuple({Tiler::of(tile)}));
      check(Tiler::tuple({Tiler::keep(), Tiler::of(tile)}));
    });
  });
  EXPECT_GT(served, trials / 2);
}

// composition of two leaf modes by two leaf tiles (composeTwoLeafModes,
// (t0:e0*d0, t1:e1*d1)): A = (s:d, m1[, 2:100]) for every leaf s:d (s <= 8,
// -4 <= d <= 8) and m1 among 5:3, 1:0, 4:-7, by (t:e, x) for every leaf
// t:e (t <= 5, -2 <= e <= 5) and x among 3:2, the integer 4 (4:1) and 1:0.
// Every result is composeTwoLeafModes' and equals the general one. Near
// 2^63 the range check past 2^31 (fitsInt64) decides: a stride 2^62 by
// 2:1 fits, by 3:1 does not, nor does a size 2^32 * 2^32 (stride 0).
TEST(FastPaths, TwoLeafModeCompositionEqualsGeneral) {
  int served = 0, trials = 0;
  auto check = [&](const Layout &a, const Tiler &t) {
    auto r = composition(a, t);
    served += general::lastPath() == general::Path::ComposeTwoLeafModes;
    ++trials;
    EXPECT_TRUE(same(r, general::composition(a, t)))
        << a.str() << " o " << t.str();
    return bool(r);
  };
  forLeaves(8, -4, 8, [&](const Layout &mode) {
    for (const char *m1 : {"5:3", "1:0", "4:-7"})
      for (bool third : {false, true}) {
        Layout a = third ? *makeLayout({mode, L(m1), L("2:100")})
                         : *makeLayout({mode, L(m1)});
        forLeaves(5, -2, 5, [&](const Layout &tile) {
          for (const Tiler &x :
               {Tiler::of(L("3:2")), *Tiler::ofSize(4), Tiler::of(L("1:0"))})
            check(a, Tiler::tuple({Tiler::of(tile), x}));
        });
      }
  });
  EXPECT_EQ(served, trials);
  const Layout big = L("(2,2):(4611686018427387904,1)");
  EXPECT_TRUE(check(big, T("(2:1,2:1)")));
  EXPECT_FALSE(check(big, T("(3:1,2:1)")));
  EXPECT_FALSE(check(L("(8,8):(1,8)"), T("(4294967296:0,4294967296:0)")));
  EXPECT_TRUE(check(L("(8,8):(1,8)"), T("(4294967296:0,2:0)")));
}

// The complement of a pair of leaves (complementPair, inside the divides'
// and products' complementModes): every tile T = (x,y):(u,v) with x, y <=
// 5 and -1 <= u, v <= 12 (size-1 leaves, stride 0 and negative strides,
// pairs that merge, equal strides and holes among them) divides A = 96:1,
// (8,12):(1,8) (one mode, divideWhole) and (12,8):(8,1) by modes, and
// multiplies 3:2 (whose rest is complement(T, 3*size(T))). Each result
// or diagnostic equals the general construction; most divides of the
// one-mode A's are divideWhole's.
TEST(FastPaths, PairComplementsEqualGeneral) {
  Outcomes divided;
  int whole = 0, trials = 0;
  for (int64_t x = 1; x <= 5; ++x)
    for (int64_t y = 1; y <= 5; ++y)
      for (int64_t u = -1; u <= 12; ++u)
        for (int64_t v = -1; v <= 12; ++v) {
          const Layout tile =
              *makeLayout({Layout::unchecked(IntTuple(x), IntTuple(u)),
                           Layout::unchecked(IntTuple(y), IntTuple(v))});
          const Tiler t = Tiler::of(tile);
          for (const char *a : {"96:1", "(8,12):(1,8)", "(12,8):(8,1)"}) {
            auto r = logical_divide(L(a), t);
            whole += general::lastPath() == general::Path::DivideWhole;
            trials += std::string(a) != "(12,8):(8,1)";
            ASSERT_TRUE(divided(r, general::logical_divide(L(a), t)))
                << a << " / " << tile.str();
          }
          ASSERT_TRUE(productsSame(tile, L("3:2"), Tiler::of(L("3:2"))));
        }
  EXPECT_TRUE(divided.both()) << divided.ok << " of " << divided.trials;
  EXPECT_GT(whole, trials / 4) << whole << " of " << trials;
}

// The by-mode divide of leaf modes by pair tiles (divideLeafTiles): A =
// (s:x, 64:128) and (s:x, 64:128, 3:7) for s among 1, 2, 3, 6, 8, 12, 16
// and x among -2, 0, 1, 3, by ((p,q):(u,v), t) for p, q <= 4 and u, v
// among -1, 0, 1, 2, 4, 8 (pairs complementPair takes, merging ones
// among them, and pairs it leaves to the walk: size 1, stride 0,
// negative), t the leaf
// 16:1 or the pair (2,2):(1,4). Each result or diagnostic equals the
// general construction; every result whose first tile complementPair
// takes is served by divideLeafModes (dividePairLeaf where A has rank 2
// and the second tile is a leaf).
TEST(FastPaths, PairTileDividesEqualGeneral) {
  Outcomes divided;
  int served = 0, eligible = 0;
  for (int64_t sv : {1, 2, 3, 6, 8, 12, 16})
    for (int64_t x : {-2, 0, 1, 3})
      for (int64_t p = 1; p <= 4; ++p)
        for (int64_t q = 1; q <= 4; ++q)
          for (int64_t u : {-1, 0, 1, 2, 4, 8})
            for (int64_t v : {-1, 0, 1, 2, 4, 8}) {
              const Layout mode = Layout::unchecked(IntTuple(sv), IntTuple(x));
              const Layout a = (p + q + u) % 2
                                   ? *makeLayout({mode, L("64:128")})
                                   : *makeLayout({mode, L("64:128"), L("3:7")});
              const Layout pair =
                  *makeLayout({Layout::unchecked(IntTuple(p), IntTuple(u)),
                               Layout::unchecked(IntTuple(q), IntTuple(v))});
              const Tiler t = Tiler::tuple(
                  {Tiler::of(pair),
                   Tiler::of(L((u + v) % 2 ? "16:1" : "(2,2):(1,4)"))});
              auto r = logical_divide(a, t);
              const general::Path path = general::lastPath();
              served += r && (path == general::Path::DivideLeafModes ||
                              path == general::Path::DividePairLeaf);
              // complementPair's pairs (sizes >= 2, strides >= 1) over
              // a mode of size >= 2
              eligible += r && sv >= 2 && p >= 2 && q >= 2 && u >= 1 && v >= 1;
              ASSERT_TRUE(divided(r, general::logical_divide(a, t)))
                  << a.str() << " / " << t.str();
            }
  EXPECT_TRUE(divided.both()) << divided.ok << " of " << divided.trials;
  EXPECT_EQ(served, eligible);
}

// The divide of two leaf modes by (pair tile, leaf tile) in one
// straight-line step (dividePairLeaf): A = (s0:x0, s1:x1) for s0 among 2,
// 5, 12, 32, 2^20 + 1, 2^20 + 2 and x0 among -2^20 - 1, -2^20, -3, 0, 7,
// 2^20 - 1, 2^20, s1:x1 among 1:0, 6:1, 64:128, 3:-2^20 - 1, by
// ((p,q):(u,v), t:e) for p, q among 2, 3, 4 and u, v among 1, 2, 3, 8,
// 12, t:e among 1:1, 4:1, 2:3, 16:1, 1:2^20. Each result or diagnostic
// equals the general construction. The path serves every operand of its
// class: s0 - 2, e below 2^20, x0, x1 in [-2^20, 2^20), the complement's
// walk taking the pair (the larger stride at least the smaller's span;
// pairs that merge, p*u == v, among them).
TEST(FastPaths, PairLeafDividesEqualGeneral) {
  constexpr int64_t kBig = int64_t(1) << 20;
  Outcomes divided;
  int served = 0, eligible = 0;
  for (int64_t s0 :
       {int64_t(2), int64_t(5), int64_t(12), int64_t(32), kBig + 1, kBig + 2})
    for (int64_t x0 : {-kBig - 1, -kBig, int64_t(-3), int64_t(0), int64_t(7),
                       kBig - 1, kBig})
      for (const char *m1 : {"1:0", "6:1", "64:128", "3:-1048577"})
        for (int64_t p : {2, 3, 4})
          for (int64_t q : {2, 3, 4})
            for (int64_t u : {1, 2, 3, 8, 12})
              for (int64_t v : {1, 2, 3, 8, 12})
                for (const char *t1 :
                     {"1:1", "4:1", "2:3", "16:1", "1:1048576"}) {
                  const Layout a = *makeLayout(
                      {Layout::unchecked(IntTuple(s0), IntTuple(x0)), L(m1)});
                  const Layout pair = *makeLayout(
                      {Layout::unchecked(IntTuple(p), IntTuple(u)),
                       Layout::unchecked(IntTuple(q), IntTuple(v))});
                  const Tiler t =
                      Tiler::tuple({Tiler::of(pair), Tiler::of(L(t1))});
                  auto r = logical_divide(a, t);
                  served +=
                      general::lastPath() == general::Path::DividePairLeaf;
                  const bool ordered = u <= v;
                  const int64_t sa = ordered ? p : q, da = ordered ? u : v,
                                db = ordered ? v : u;
                  eligible += s0 - 2 < kBig && x0 >= -kBig && x0 < kBig &&
                              std::string(m1) != "3:-1048577" &&
                              std::string(t1) != "1:1048576" && db >= sa * da;
                  ASSERT_TRUE(divided(r, general::logical_divide(a, t)))
                      << a.str() << " / " << t.str();
                }
  EXPECT_GT(divided.ok, 0);
  EXPECT_EQ(served, eligible);
  EXPECT_GT(served, 0);
}

// The by-mode divide written in place (divideModes) with leaf modes and
// leaf tiles, each divided in closed form. A = (m, 3:1, 2:-24) with every
// leaf m = s:d (s <= 10, -5 <= d <= 10) and every leaf tile t:e (t <= 6,
// -2 <= e <= 6) in the tilers (t:e), (t:e, _, 2:1), (_, 3:1, t:e), (4, t:e)
// and ((t:e)) (a tuple where the mode is a leaf: declined), also with a
// fourth mode 5:7, kept. Result or diagnostic equals the general
// construction; both outcomes occur.
TEST(FastPaths, FlatLeafDivideEqualsGeneral) {
  Outcomes divided;
  Layout one3 = L("3:1"), two = L("2:-24"), five = L("5:7");
  forLeaves(10, -5, 10, [&](const Layout &m) {
    for (const Layout &a :
         {*makeLayout({m, one3, two}), *makeLayout({m, one3, two, five})})
      forLeaves(6, -2, 6, [&](const Layout &tile) {
        for (const Tiler &t :
             {Tiler::tuple({Tiler::of(tile)}),
              Tiler::tuple(
                  {Tiler::of(tile), Tiler::keep(), Tiler::of(L("2:1"))}),
              Tiler::tuple(
                  {Tiler::keep(), Tiler::of(L("3:1")), Tiler::of(tile)}),
              Tiler::tuple({*Tiler::ofSize(4), Tiler::of(tile)}),
              Tiler::tuple({Tiler::tuple({Tiler::of(tile)})})}) {
          ASSERT_TRUE(
              divided(logical_divide(a, t), general::logical_divide(a, t)))
              << a.str() << " / " << t.str();
        }
      });
  });
  EXPECT_TRUE(divided.both()) << divided.ok << " of " << divided.trials;
}

// divideModes with nested modes of A and flat tiles, which it divides
// with A's composer (divideModeInto): modes with a hole, unsorted strides,
// a broadcast, a negative stride and a size-1 leaf last (the rest then
// comes from A coalesced again), by every leaf tile t:e (t <= 6,
// -2 <= e <= 6) and flat tiles (t:e, 2:k), k in {0, 1, 4, 8} (the tile
// (2:2, 2:8) leaves gaps on both sides: three rest modes), alone, beside
// `_` or a second tile, and with a third nested mode kept. Tiles with a ()
// child, of rank 0 or nested are declined to the by-mode walk. Results past the
// 16 inline nodes are declined to the walk's Writer, which grows: the third
// mode ((2,2),(2,2)) makes some results pass 16 nodes. Result or diagnostic
// equals the general construction; both outcomes occur.
TEST(FastPaths, NestedModesByFlatTilesEqualGeneral) {
  Outcomes divided;
  std::vector<Layout> firsts = {L("(8,8):(8,64)"), L("(4,(2,2)):(1,(8,4))"),
                                L("(2,3):(0,2)"),  L("(3,2):(-1,12)"),
                                L("(4,1):(2,5)"),  L("((2,2),3):((1,2),4)")};
  Layout second = L("(4,8):(1,512)"), third = L("((2,2),(2,2)):((1,2),(4,8))");
  std::vector<Tiler> odd = {Tiler::of(L("(2,()):(1,())")),
                            Tiler::of(L("():()")),
                            Tiler::of(L("((2,2),2):((1,2),4)"))};
  for (const Layout &f : firsts)
    for (const Layout &a :
         {*makeLayout({f, second}), *makeLayout({f, second, third})})
      forLeaves(6, -2, 6, [&](const Layout &leaf) {
        std::vector<Tiler> tiles = {Tiler::of(leaf)};
        for (int64_t k : {0, 1, 4, 8})
          tiles.push_back(Tiler::of(*makeLayout(
              {leaf, Layout::unchecked(IntTuple(2), IntTuple(k))})));
        for (const Tiler &tile : tiles)
          for (const Tiler &t :
               {Tiler::tuple({tile}), Tiler::tuple({tile, Tiler::keep()}),
                Tiler::tuple({Tiler::keep(), tile}),
                Tiler::tuple({tile, Tiler::of(L("(2,2):(1,2)"))})})
            ASSERT_TRUE(
                divided(logical_divide(a, t), general::logical_divide(a, t)))
                << a.str() << " / " << t.str();
      });
  for (const Layout &f : firsts)
    for (const Tiler &tile : odd) {
      Layout a = *makeLayout({f, second});
      Tiler t = Tiler::tuple({tile, Tiler::of(L("4:1"))});
      ASSERT_TRUE(divided(logical_divide(a, t), general::logical_divide(a, t)))
          << a.str() << " / " << t.str();
    }
  EXPECT_TRUE(divided.both()) << divided.ok << " of " << divided.trials;
  // Hand-derived: mode 0 is 64:8 coalesced; (4,2):(1,8) composes to
  // (4,2):(8,64), its complement in 64 is (2,4):(4,16), composed
  // (2,4):(32,128). Mode 1: 4:1 takes A_1's first mode 4:1, the rest 8:4
  // its second, 8:512.
  EXPECT_EQ(*logical_divide(L("((8,8),(4,8)):((8,64),(1,512))"),
                            Tiler::tuple({Tiler::of(L("(4,2):(1,8)")),
                                          Tiler::of(L("4:1"))})),
            L("(((4,2),(2,4)),(4,8)):(((8,64),(32,128)),(1,512))"));
}

// The closed form for a flat B (composeFlat): A = (4,s):(1,d) and (2,3,4)
// with strides (1,2,6) or (1,8,2) (a hole, unsorted), B = (x:y, 2:z) over
// small x, y, z including stride 0 and negative strides, and B with a
// third mode 2:2. A of 4 coalesced modes gives that B exactly 16 nodes
// (1 + 3 * 5, the inline storage); A of 5 needs 19 and takes the Writer
// path.
TEST(FastPaths, FlatCompositionEqualsGeneral) {
  Outcomes composed;
  std::vector<Layout> as = {L("(2,3,4):(1,2,6)"), L("(2,3,4):(1,8,2)"),
                            L("(2,3,5,7):(1,4,16,128)"),
                            L("(2,3,5,7,11):(1,4,16,128,2048)")};
  for (int64_t s = 1; s <= 6; ++s)
    for (int64_t d = -2; d <= 8; ++d)
      as.push_back(
          *makeLayout({L("4:1"), Layout::unchecked(IntTuple(s), IntTuple(d))}));
  for (const Layout &a : as)
    for (int64_t x = 1; x <= 6; ++x)
      for (int64_t y = -3; y <= 6; ++y)
        for (int64_t z : {0, 1, 3, 4}) {
          Layout b = *makeLayout({Layout::unchecked(IntTuple(x), IntTuple(y)),
                                  Layout::unchecked(IntTuple(2), IntTuple(z))});
          Layout b3 = *makeLayout({b.mode(0), b.mode(1), L("2:2")});
          for (const Layout &bb : {b, b3})
            ASSERT_TRUE(
                composed(composition(a, bb), general::composition(a, bb)))
                << a.str() << " o " << bb.str();
        }
  EXPECT_TRUE(composed.both()) << composed.ok << " of " << composed.trials;
}

// composition by a nested B (composeNested): B's modes are leaves, flat
// tuples of leaves (with a () among them) or deeper tuples, and A has two
// coalesced modes s0:d0, s1:d1 (the composer's leafOfTwo: a leaf of B
// skips mode 0, stays in it, or starts in it and carries into mode 1) or
// one. B = ((x:y, 2:z), 3:4), ((x:y, ()), (2:z)) and (((x:y)), 2:z) over
// small x, y (negative and 0 too) and z; each result or diagnostic equals
// the general construction, and every result is composeNested's (the
// diagnostics come from the general construction).
TEST(FastPaths, NestedCompositionEqualsGeneral) {
  Outcomes composed;
  int served = 0;
  const char *as[] = {"(4,8):(8,1)", "(6,5):(1,6)",  "(4,3):(2,16)",
                      "(3,4):(1,3)", "(2,5):(3,-1)", "(8,2):(1,0)",
                      "(5,4):(0,5)"};
  for (const char *a : as)
    for (int64_t x = 1; x <= 6; ++x)
      for (int64_t y = -2; y <= 9; ++y)
        for (int64_t z : {0, 1, 2, 3, 6, 8}) {
          const std::string sx = std::to_string(x), sy = std::to_string(y),
                            sz = std::to_string(z);
          for (const std::string &b :
               {"((" + sx + ",2),3):((" + sy + "," + sz + "),4)",
                "((" + sx + ",()),(2)):((" + sy + ",()),(" + sz + "))",
                "(((" + sx + ")),2):(((" + sy + "))," + sz + ")"}) {
            auto r = composition(L(a), L(b));
            served += general::lastPath() == general::Path::ComposeNested;
            ASSERT_TRUE(composed(r, general::composition(L(a), L(b))))
                << a << " o " << b;
          }
        }
  EXPECT_TRUE(composed.both()) << composed.ok << " of " << composed.trials;
  EXPECT_EQ(served, composed.ok);
}

// The products' closed forms (productWhole, rankedProduct) skip the
// result's fit pass, relying on productRest's @post; B's size-1 leaves
// may still scale past int64 (2 * 2^62) or onto INT64_MIN (2 * -2^62), and
// size(A)*size(B) may overflow while A*cosize(B) does not (a broadcast
// B). The bound itself is checked after the copy: n*cosize(B) past int64
// ((2,1) by (2,2):(2^61,2^61): cosize 1 + 2^62) and n*size(B) past it
// (2^32 by (2^31,2):(0,1), of cosize 2). Compact A's with size-1 leaves
// and nesting, against B's of 1-3 leaves: each result or diagnostic
// equals the general construction.
TEST(FastPaths, ProductClosedFormsEqualGeneral) {
  // Also A onto [0, n) in another mode order (the row-major atoms
  // (8,8):(8,1) and ((2,4),2):((8,1),4)) and A almost so ((4,4):(4,2):
  // strides 2, 4 after the sort, a hole; (2,2):(1,1): not injective).
  std::vector<Layout> as = {L("2:1"),
                            L("(4,8):(1,4)"),
                            L("((2,1),4):((1,99),2)"),
                            L("(1,(2,2)):(7,(1,2))"),
                            L("(3,(1,5)):(1,(4,3))"),
                            L("(4,8):(1,5)"),
                            L("(1,1):(3,0)"),
                            L("1073741824:1"),
                            L("(2,1):(1,0)"),
                            L("(4294967296,1):(1,0)"),
                            L("(8,8):(8,1)"),
                            L("((2,4),2):((8,1),4)"),
                            L("(4,4):(4,2)"),
                            L("(2,2):(1,1)")};
  std::vector<Layout> bs = {
      L("(2,2):(1,2)"),
      L("4:-3"),
      L("(3,1,2):(2,5,-1)"),
      L("((2,2),2):((1,2),4)"),
      L("(1,4):(4611686018427387904,1)"),
      L("(1,4):(-4611686018427387904,1)"),
      L("8589934592:0"),
      L("(2,3):(0,0)"),
      L("(4,2):(1,0)"),
      L("(1,2):(5,0)"),
      L("(2,2):(2305843009213693952,2305843009213693952)"),
      L("(2147483648,2):(0,1)")};
  Outcomes products;
  for (const Layout &a : as)
    for (const Layout &b : bs)
      ASSERT_TRUE(productsSame(a, b, Tiler::of(b), &products));
  EXPECT_TRUE(products.both()) << products.ok << " of " << products.trials;
  // Hand-derived: cosize((2,2):(1,2)) = 4, so B's strides scale by 32.
  EXPECT_EQ(*logical_product(L("(4,8):(1,4)"), Tiler::of(L("(2,2):(1,2)"))),
            L("((4,8),(2,2)):((1,4),(32,64))"));
  // The row-major 2x2 atom covers [0, 4) like the compact one: the rest is
  // B with its strides times 4, (2,3):(4,8), paired mode by mode with A.
  EXPECT_EQ(*blocked_product(L("(2,2):(2,1)"), L("(2,3):(1,2)")),
            L("((2,2),(2,3)):((2,4),(1,8))"));
  EXPECT_EQ(
      *logical_divide(L("(64,32):(32,1)"),
                      Tiler::tuple({Tiler::of(L("8:1")), Tiler::of(L("4:1"))})),
      L("((8,8),(4,8)):((32,256),(1,4))"));
}

// Empty-tuple modes `()` (rank 0, one node, no leaf) in either operand,
// which the random operands never have: a mode of B that is `()` is not a
// leaf of a flat B, `()` modes raise a rank past the leaf count, and a
// rank-0 B is padded before it is paired. Every operation, result or
// diagnostic, equals the general construction.
TEST(FastPaths, EmptyTupleModesEqualGeneral) {
  std::vector<Layout> ls = {
      L("():()"),
      L("(()):(())"),
      L("(8,()):(1,())"),
      L("((),2,()):((),1,())"),
      L("((),4):((),1)"),
      L("8:1"),
      L("(2,4):(1,2)"),
      L("((2,()),4):((1,()),2)"),
      L("((),(),(),(),(),(),(),(),(),4):((),(),(),(),(),(),(),(),(),1)")};
  for (const Layout &a : ls) {
    ASSERT_EQ(coalesce(a), general::coalesce(a)) << a.str();
    ASSERT_TRUE(same(right_inverse(a), general::right_inverse(a))) << a.str();
    ASSERT_TRUE(same(left_inverse(a), general::left_inverse(a))) << a.str();
    ASSERT_TRUE(
        same(complement(a, IntTuple(64)), general::complement(a, IntTuple(64))))
        << a.str();
    for (const Layout &b : ls) {
      ASSERT_TRUE(same(composition(a, b), general::composition(a, b)))
          << a.str() << " o " << b.str();
      ASSERT_TRUE(productsSame(a, b, Tiler::of(b)));
      for (const Tiler &t :
           {Tiler::of(b), Tiler::tuple({}), Tiler::tuple({Tiler::of(b)}),
            Tiler::tuple({Tiler::keep(), Tiler::of(b)})}) {
        ASSERT_TRUE(same(logical_divide(a, t), general::logical_divide(a, t)))
            << a.str() << " / " << t.str();
        ASSERT_TRUE(same(composition(a, t), general::composition(a, t)))
            << a.str() << " o " << t.str();
      }
    }
  }
}

// A result's cosize, 1 + sum (s-1)*|d|, must fit in int64, not only the
// sum (Layout::checkRange). A = 2:d divided by 8:1 has the tile 8:d, of
// cosize 1 + 7d: d = (2^63-1)/7 = 1317624576693539401 makes it 2^63, one
// past INT64_MAX, an error; d - 1 fits; d = 2^62 overflows the sum. The
// closed forms for a leaf (divideLeaf, composeLeaves), divideModes and
// the by-mode walk's Writer each meet it.
TEST(FastPaths, CosizeOnePastInt64IsTheGeneralError) {
  int ok = 0;
  for (int64_t d : {int64_t(1317624576693539400), int64_t(1317624576693539401),
                    int64_t(1) << 62}) {
    std::string ds = std::to_string(d);
    Layout leaf = L("2:" + ds), flat = L("(2,1):(" + ds + ",0)"),
           nested = L("((2,1),1):((" + ds + ",0),0)"), eight = L("8:1");
    Tiler byMode = Tiler::tuple({Tiler::of(eight), Tiler::keep()});
    Tiler nestedMode =
        Tiler::tuple({Tiler::tuple({Tiler::of(eight)}), Tiler::keep()});
    auto r = logical_divide(leaf, Tiler::of(eight));
    ok += bool(r);
    ASSERT_TRUE(same(r, general::logical_divide(leaf, Tiler::of(eight)))) << ds;
    ASSERT_TRUE(
        same(composition(leaf, eight), general::composition(leaf, eight)))
        << ds;
    ASSERT_TRUE(same(logical_divide(flat, byMode),
                     general::logical_divide(flat, byMode)))
        << ds;
    ASSERT_TRUE(same(logical_divide(nested, nestedMode),
                     general::logical_divide(nested, nestedMode)))
        << ds;
    EXPECT_EQ(bool(r), d == 1317624576693539400) << ds;
  }
  EXPECT_EQ(ok, 1);
}

// Composition reads A through coalesce with its trailing size-1 mode kept
// as the stand-in 2:d (CuTe's coalesce_x). A of size 2^62 whose last mode
// 1:2^62 merges into 2^62:1 would make that extent 2^63; it saturates in
// both constructions (composition never reads the last mode's extent), and
// the results are A's function: B = 4:1 stays 4:1, B = 2:2^62 goes past
// A's domain along the kept stride, A(2^62) = 2^62. A fuzz input
// (fuzz_bindings) found the overflow.
TEST(FastPaths, TrailingUnitModeOfASizeTwoToThe62Composes) {
  const std::string big = std::to_string(int64_t(1) << 62);
  for (const std::string &a : {"(" + big + ",1):(1," + big + ")",
                               "(2,2305843009213693952,1):(1,2," + big + ")"})
    for (const std::string &b : {std::string("4:1"), "2:" + big}) {
      auto r = composition(L(a), L(b));
      ASSERT_TRUE(same(r, general::composition(L(a), L(b)))) << a << " o " << b;
      ASSERT_TRUE(r) << r.error().render();
      EXPECT_EQ(r->str(), b) << a;
    }
}

// Results past a tuple's 65535 nodes are the general construction's error,
// also where the fast path would copy whole operands (logical_product).
// blocked/raked_product(s:1, t:e) skips the range pass: its terms are
// s*cosize(T) - 1, checked, and for e == 0 (cosize 1) only its size s*t
// can pass int64: 2^32 * 2^31 = 2^63 does, 2^32 * (2^31 - 1) does not.
TEST(FastPaths, RankedLeafSizePastInt64IsTheGeneralError) {
  Layout a = L("4294967296:1");
  for (const char *b : {"2147483648:0", "2147483647:0", "2147483648:1"})
    for (bool raked : {false, true}) {
      Layout lb = L(b);
      auto r = raked ? raked_product(a, lb) : blocked_product(a, lb);
      auto g = raked ? general::raked_product(a, lb)
                     : general::blocked_product(a, lb);
      EXPECT_TRUE(same(r, g)) << b << raked;
      EXPECT_EQ(bool(r), std::string(b) == "2147483647:0") << b << raked;
    }
}

// A by-mode divide through the composer skips the range pass only when
// the divided mode's size and terms stay within A_i's. (2,3):(1,d) by 4:1
// gives (2,2):(1,d) and the rest 2:2d (size 8 > 6): its terms
// 1 + d + 2d pass int64 for d = 3*2^60 (A's 1 + 2d does not), not for
// d = 2^61.
TEST(FastPaths, ComposedModePastItsOperandIsChecked) {
  for (int64_t d : {int64_t(3) << 60, int64_t(1) << 61}) {
    std::string ds = std::to_string(d);
    Layout a = L("((2,3),4):((1," + ds + "),0)");
    Tiler t = Tiler::tuple({Tiler::of(L("4:1")), Tiler::keep()});
    auto r = logical_divide(a, t);
    EXPECT_TRUE(same(r, general::logical_divide(a, t))) << ds;
    EXPECT_EQ(bool(r), d == int64_t(1) << 61) << ds;
  }
}

// A mode past the tiler with a basis stride: the leaf-mode forms copy it
// as the general construction keeps it (or decline where it reports).
TEST(FastPaths, LeafModeFormsKeepBasisModesPastTheTiler) {
  Layout a = L("(64,32,4):(32,1,1@0)");
  Tiler t = T("(8:1,4:1)");
  auto r = logical_divide(a, t);
  ASSERT_TRUE(r);
  EXPECT_EQ(int(general::lastPath()), int(general::Path::DivideLeafModes));
  EXPECT_EQ(r->str(), "((8,8),(4,8),4):((32,256),(1,4),1@0)");
  EXPECT_TRUE(same(r, general::logical_divide(a, t)));
  EXPECT_TRUE(same(zipped_divide(a, t), general::zipped_divide(a, t)));
  EXPECT_TRUE(same(tiled_divide(a, t), general::tiled_divide(a, t)));
  EXPECT_TRUE(same(flat_divide(a, t), general::flat_divide(a, t)));
}

TEST(FastPaths, ResultPastMaxNodesIsTheGeneralError) {
  std::string half = "(";
  for (int k = 0; k < 30000; ++k)
    half += k ? ",()" : "()";
  half += ")";
  Layout a =
      *makeLayout({L(half + ":" + half), L(half + ":" + half), L("4:1")});
  std::string bs = "(";
  for (int k = 0; k < 6000; ++k)
    bs += "(),";
  Layout b = L(bs + "2):" + bs + "1)");
  Tiler t = Tiler::of(b);
  auto fast = logical_product(a, t), slow = general::logical_product(a, t);
  ASSERT_FALSE(fast) << "a result of " << fast->shape().nodeCount() << " nodes";
  ASSERT_FALSE(slow);
  EXPECT_EQ(fast.error().render(), slow.error().render());
}

/// X = (2,...,2):(1,2,...,2^(n-1)) of n leaves, as shape and stride text.
std::pair<std::string, std::string> powersOfTwo(int n) {
  std::string xs, xd;
  for (int i = 0; i < n; ++i) {
    xs += (i ? ",2" : "2");
    xd += (i ? "," : "") + std::to_string(int64_t(1) << i);
  }
  return {"(" + xs + ")", "(" + xd + ")"};
}

/// logical_divide(a, t) is `want`, of `nodes` nodes, and the general
/// construction's result.
::testing::AssertionResult dividesTo(const Layout &a, const Tiler &t,
                                     const Layout &want, size_t nodes) {
  auto fast = logical_divide(a, t);
  if (!fast)
    return ::testing::AssertionFailure() << fast.error().render();
  if (fast->shape().nodeCount() != nodes || *fast != want)
    return ::testing::AssertionFailure()
           << fast->str() << " of " << fast->shape().nodeCount() << " nodes";
  return same(fast, general::logical_divide(a, t));
}

// Results are written in place into the returned layout: up to 16 nodes
// in its inline storage, up to 48 after one growth that must keep the
// nodes already written, and beyond that the general construction. That
// the fast path writes these results was checked by hand: making
// Writer::grow overwrite node 2 after growing fails this test (for the
// divides with n = 12 to 14, which grow after writing X, and for both
// products, which grow at their 17th node). In the first loop divideModes
// writes the results of n <= 9 in place (it keeps room for the closed
// form's 5 nodes, of which this one writes 3); from n = 10 it declines
// and the by-mode walk's Writer takes them, growing from n = 12.
TEST(FastPaths, ResultsPastInlineStorage) {
  // A = (X, 8) with X = (2,...,2):(1,2,...,2^(n-1)) of n leaves and the
  // mode 8:2^n; the tiler (_, 2:1) keeps X and splits 8:D into the tile
  // 2:D and the rest 4:2D. The result ((X),(2,4)) has n + 5 nodes (n = 11:
  // 16, n = 12: 17, n = 43: 48, n = 44: 49).
  for (int n = 1; n <= 50; ++n) {
    auto [xs, xd] = powersOfTwo(n);
    std::string d = std::to_string(int64_t(1) << n),
                d2 = std::to_string(int64_t(1) << (n + 1));
    Layout a = L("(" + xs + ",8):(" + xd + "," + d + ")");
    Layout want = L("(" + xs + ",(2,4)):(" + xd + ",(" + d + "," + d2 + "))");
    Tiler t = Tiler::tuple({Tiler::keep(), Tiler::of(L("2:1"))});
    ASSERT_TRUE(dividesTo(a, t, want, size_t(n + 5))) << n;
  }
  // The same A with the mode (8,8):(8D,64D) and the tiler (_,(4,2):(1,8)),
  // which divideModes writes in place while it fits: 64:8D coalesced, the
  // tile composes to (4,2):(8D,64D), its complement in 64, (2,4):(4,16),
  // to (2,4):(32D,128D). The result has n + 9 nodes (n = 7: 16, n = 8: 17,
  // declined before its 17th node is written).
  for (int n = 1; n <= 40; ++n) {
    auto [xs, xd] = powersOfTwo(n);
    auto times = [&](int k) { return std::to_string(int64_t(k) << n); };
    Layout a = L("(" + xs + ",(8,8)):(" + xd + ",(" + times(8) + "," +
                 times(64) + "))");
    Layout want =
        L("(" + xs + ",((4,2),(2,4))):(" + xd + ",((" + times(8) + "," +
          times(64) + "),(" + times(32) + "," + times(128) + ")))");
    Tiler t = Tiler::tuple({Tiler::keep(), Tiler::of(L("(4,2):(1,8)"))});
    ASSERT_TRUE(dividesTo(a, t, want, size_t(n + 9))) << n;
  }
  // The boundary of divideModes' room checks, for each way it writes a
  // mode: A = (X, M) with X of n = 1..14 leaves (kept, n + 1 nodes) and M
  // a leaf (the closed form: 3 or 5 nodes) or a mode of two leaves (A's
  // composer, one node or a tuple per composed leaf), divided by leaf and
  // flat tiles; the results cross 16 nodes as n grows. Each equals the
  // general construction node for node (too generous a room check writes
  // past the inline nodes, which the sanitizer build reports).
  for (int n = 1; n <= 14; ++n) {
    auto [xs, xd] = powersOfTwo(n);
    auto times = [&](int k) { return std::to_string(int64_t(k) << n); };
    for (const std::string &m :
         {"64:" + times(1), "(4,4):(" + times(1) + "," + times(16) + ")",
          "(8,8):(" + times(8) + "," + times(64) + ")"}) {
      Layout a = L("(" + xs + "," + m.substr(0, m.find(':')) + "):(" + xd +
                   "," + m.substr(m.find(':') + 1) + ")");
      for (const char *tile :
           {"2:2", "2:1", "8:1", "(1,8):(0,1)", "(4,2):(1,8)"}) {
        Tiler t = Tiler::tuple({Tiler::keep(), Tiler::of(L(tile))});
        ASSERT_TRUE(same(logical_divide(a, t), general::logical_divide(a, t)))
            << a.str() << " / " << t.str();
      }
    }
  }
  // blocked_product of A = ((2,2),(2,2),(2,2),(2,2)), compact, with the
  // compact B = (2,2,2,2): the rest is B's leaves s:d as s:d*256, and mode
  // i pairs A_i with X_i: 1 + 4 * (1 + 3 + 1) = 21 nodes.
  Layout a = L("((2,2),(2,2),(2,2),(2,2)):((1,2),(4,8),(16,32),(64,128))");
  Layout b = L("(2,2,2,2):(1,2,4,8)");
  EXPECT_EQ(*blocked_product(a, b),
            L("(((2,2),2),((2,2),2),((2,2),2),((2,2),2)):"
              "(((1,2),256),((4,8),512),((16,32),1024),((64,128),2048))"));
  EXPECT_EQ(*raked_product(a, b),
            L("((2,(2,2)),(2,(2,2)),(2,(2,2)),(2,(2,2))):"
              "((256,(1,2)),(512,(4,8)),(1024,(16,32)),(2048,(64,128)))"));
}

// max_common_vector(A, B) by its definition: with invB = right_inverse(B)
// (the general construction), the largest N <= size(invB) with
// A(invB(j)) = j for every j < N, at least 1; max_common_layout is
// invB o N:1, or 1:0 for N == 1 (a rank-1 invB composes with any N:1).
TEST(FastPaths, RankOneCommonLayoutByDefinition) {
  forLeaves(16, -8, 16, [&](const Layout &a) {
    forLeaves(16, -8, 16, [&](const Layout &b) {
      Layout inv = *general::right_inverse(b);
      int64_t n = 1;
      while (n < inv.size() && evaluate(a, evaluate(inv, n)) == n)
        ++n;
      Layout want = n == 1
                        ? Layout()
                        : *general::composition(
                              inv, Layout::unchecked(IntTuple(n), IntTuple(1)));
      ASSERT_EQ(*max_common_vector(a, b), n) << a.str() << " , " << b.str();
      ASSERT_EQ(*max_common_layout(a, b), want) << a.str() << " , " << b.str();
    });
  });
}

// max_common_layout's closed forms against the general construction on
// random pairs: B random, or A itself (a common prefix past 1 whenever A
// starts with a stride-1 run), both outcomes of N counted.
TEST(FastPaths, CommonLayoutEqualsGeneral) {
  LayoutGen gen(111);
  int modes = 0, wide = 0;
  for (int t = 0; t < kTrials; ++t) {
    Layout a = operand(gen), b = gen.pick(0, 1) ? operand(gen) : a;
    auto fast = max_common_layout(a, b);
    modes += general::lastPath() == general::Path::MaxCommonModes;
    wide += fast && fast->size() > 1;
    ASSERT_TRUE(same(fast, general::max_common_layout(a, b)))
        << a.str() << " , " << b.str();
  }
  EXPECT_GT(modes, kTrials / 4);
  EXPECT_GT(wide, kTrials / 10);
}

// max_common_layout of A coalescing to one mode a:1 (compact column-major,
// size-1 leaves among them, nested) with random B: invB's first mode s:1
// when B's stride-1 mode comes first, else 1:0 (MaxCommonContiguous),
// against the general construction and, by the definition (the largest N
// with A(invB(j)) = j below it), the size of the result.
TEST(FastPaths, ContiguousCommonLayoutEqualsGeneral) {
  LayoutGen gen(118);
  int contiguous = 0, wide = 0;
  for (int t = 0; t < kTrials; ++t) {
    Layout c = *Layout::compact(gen.any(4, 6, 1).shape());
    Layout a = gen.pick(0, 2) ? c : *makeLayout({Layout(), c});
    Layout b = gen.pick(0, 1) ? operand(gen) : gen.injective(6, 6, true);
    auto fast = max_common_layout(a, b);
    const bool served =
        general::lastPath() == general::Path::MaxCommonContiguous;
    contiguous += served;
    ASSERT_TRUE(same(fast, general::max_common_layout(a, b)))
        << a.str() << " , " << b.str();
    if (!served)
      continue;
    wide += fast->size() > 1;
    Layout inv = *general::right_inverse(b);
    int64_t n = 1;
    while (n < inv.size() && evaluate(a, evaluate(inv, n)) == n)
      ++n;
    EXPECT_EQ(fast->size(), n) << a.str() << " , " << b.str();
  }
  EXPECT_GT(contiguous, kTrials / 4);
  EXPECT_GT(wide, kTrials / 10);
}

// The cases the benchmarks time, with their results derived by hand
// (docs/cute.md), and non-divisible cases that must stay errors.
TEST(FastPaths, NamedCases) {
  // A = (4,8):(8,1): 8:4 skips A's first mode (4 | 4) to 8:1; 4:1 -> 4:8.
  EXPECT_EQ(*composition(L("(4,8):(8,1)"), L("(8,4):(4,1)")), L("(8,4):(1,8)"));
  // Image {0,32,64,96}: fill 32 below, then 256/128 = 2 copies above.
  EXPECT_EQ(*complement(L("4:32"), IntTuple(256)), L("(32,2):(1,128)"));
  EXPECT_EQ(*logical_divide(L("128:1"), Tiler::of(L("32:1"))),
            L("(32,4):(1,32)"));
  EXPECT_EQ(*logical_product(L("128:1"), Tiler::of(L("4:32"))),
            L("(128,4):(1,4096)"));
  // Rank 1: the tile 32:1 of 128:1 repeats 4 times at stride 32; 4:32 of
  // cosize 97 places 4 copies of 128:1 at 128*32; left_inverse(16:4) reads
  // offset 4k + r as k; 4:1 and 8:1 give one mode (A, 8:4).
  EXPECT_EQ(coalesce(L("64:2")), L("64:2"));
  EXPECT_EQ(coalesce(L("1:5")), L("1:0"));
  EXPECT_EQ(*right_inverse(L("64:1")), L("64:1"));
  EXPECT_EQ(*right_inverse(L("64:2")), L("1:0"));
  EXPECT_EQ(*left_inverse(L("16:4")), L("(4,16):(0,1)"));
  // Modes of rank > 1 (FastInverse.h). coalesce: 2:1, 2:2, 2:4, 4:8 merge.
  EXPECT_EQ(coalesce(L("((2,(2,2)),4):((1,(2,4)),8)")), L("32:1"));
  // The SM80 C layout: modes 4:32, 8:1, 2:16, 2:8 (prefixes 1, 4, 32, 64);
  // the strides 1, 8, 16, 32 chain: x = a + 8b + 16c + 32d -> 4a + 64b +
  // 32c + d, and L(4a + 64b + 32c + d) = a + 8b + 16c + 32d.
  EXPECT_EQ(*right_inverse(L("((4,8),(2,2)):((32,1),(16,8))")),
            L("(8,2,2,4):(4,64,32,1)"));
  // L(i,j,k) = i + 12j + 6k: sorted 2:1, 2:6, 3:12 give (1:0, 6:1, 2:6,
  // 3:2); 6:1 and 2:6 merge (their modes lie apart in L): R = (12,3):(1,2)
  // reads i + 6k + 12j as i + 6k + 2j, L's index of (i,j,k).
  EXPECT_EQ(*left_inverse(L("(2,3,2):(1,12,6)")), L("(12,3):(1,2)"));
  // Image {0,1,8,9,..,24,25}: (4:2) fills the gaps, 64/32 = 2 copies.
  EXPECT_EQ(*complement(L("(2,4):(1,8)"), IntTuple(64)), L("(4,2):(2,32)"));
  EXPECT_EQ(*logical_divide(L("128:2"), Tiler::of(L("32:2"))),
            L("(32,(2,2)):(4,(2,128))"));
  EXPECT_EQ(*blocked_product(L("4:1"), L("8:1")), L("((4,8)):((1,4))"));
  EXPECT_EQ(*raked_product(L("4:1"), L("8:1")), L("((8,4)):((4,1))"));
  EXPECT_EQ(*max_common_layout(L("64:1"), L("64:1")), L("64:1"));
  EXPECT_EQ(*max_common_vector(L("64:1"), L("32:2")), 1);
  EXPECT_EQ(*blocked_product(L("(2,2):(1,2)"), L("(4,8):(1,4)")),
            L("((2,4),(2,8)):((1,4),(2,16))"));
  // Steps of 3 (and 2) cross A's first mode, of extent 4 (3), at a point
  // that is not a multiple of the step; 3 elements left for a mode of 2.
  for (auto [a, b] : {std::pair{"(4,6):(1,5)", "6:3"},
                      {"(3,8):(1,4)", "4:2"},
                      {"(4,6):(1,5)", "(2,3):(1,2)"}}) {
    auto f = composition(L(a), L(b));
    EXPECT_FALSE(f) << a << " o " << b;
    EXPECT_TRUE(same(f, general::composition(L(a), L(b))));
  }
  // The rest complement(3:1, (4,6)) = 12:3 steps by 3 across A's mode 4.
  EXPECT_FALSE(logical_divide(L("(4,6):(1,5)"), Tiler::of(L("3:1"))));
  EXPECT_FALSE(complement(L("(2,2):(1,1)"), IntTuple(8)));
}

/// A by-mode tiler of 1 to rank(a) + 1 modes, each `_`, an integer or a
/// leaf tile t:e (stride 0 and negative strides included): the operand
/// class of composeModes, of the products' closed form for leaf modes and
/// of the regroupings.
Tiler leafTilerFor(LayoutGen &gen, const Layout &a) {
  std::vector<Tiler> modes;
  size_t r = size_t(gen.pick(1, int64_t(a.rank()) + (gen.pick(0, 9) == 0)));
  for (size_t i = 0; i < r; ++i) {
    int64_t k = gen.pick(0, 5);
    modes.push_back(
        k == 0   ? Tiler::keep()
        : k == 1 ? *Tiler::ofSize(gen.pick(1, 8))
                 : Tiler::of(Layout::unchecked(IntTuple(gen.pick(1, 8)),
                                               IntTuple(gen.pick(-2, 12)))));
  }
  return Tiler::tuple(std::move(modes));
}

// By-mode composition and the zipped, tiled and flat divides and products
// (regrouped in place) against the general constructions, on by-mode
// tilers of leaf tiles and on the random tilers above.
TEST(FastPaths, ByModeTilersAndRegroupsEqualGeneral) {
  LayoutGen gen(113);
  Outcomes compose, regroup;
  int leafForms = 0, leafProducts = 0; // zipped ones served by groupLeaves
  for (int t = 0; t < kTrials * 2; ++t) {
    Layout a = operand(gen);
    Tiler tl = t % 2 ? leafTilerFor(gen, a) : tilerFor(gen, a);
    ASSERT_TRUE(compose(composition(a, tl), general::composition(a, tl)))
        << a.str() << " o " << tl.str();
    auto z = zipped_divide(a, tl);
    leafForms += general::lastPath() == general::Path::RegroupLeaves;
    ASSERT_TRUE(regroup(z, general::zipped_divide(a, tl)))
        << a.str() << " / " << tl.str();
    auto zp = zipped_product(a, tl);
    leafProducts += general::lastPath() == general::Path::RegroupLeaves;
    ASSERT_TRUE(same(zp, general::zipped_product(a, tl)))
        << a.str() << " * " << tl.str();
    ASSERT_TRUE(same(tiled_divide(a, tl), general::tiled_divide(a, tl)))
        << a.str();
    ASSERT_TRUE(same(flat_divide(a, tl), general::flat_divide(a, tl)))
        << a.str();
    ASSERT_TRUE(same(tiled_product(a, tl), general::tiled_product(a, tl)))
        << a.str();
    ASSERT_TRUE(same(flat_product(a, tl), general::flat_product(a, tl)))
        << a.str();
    ASSERT_TRUE(same(logical_product(a, tl), general::logical_product(a, tl)))
        << a.str();
  }
  EXPECT_TRUE(compose.both());
  EXPECT_TRUE(regroup.both());
  EXPECT_GT(leafForms, kTrials / 20) << leafForms;
  EXPECT_GT(leafProducts, 0);
}

// The zipped, tiled and flat divides and products of A = (s:d, 4:u) by
// (t:e, 2:1) on a grid: gapped and compact modes, tiles that do not
// divide, stride 0, size 1; groupLeaves' closed forms and their declines
// against the general construction.
TEST(FastPaths, LeafModeGroupingsEqualGeneral) {
  int served = 0, declined = 0;
  for (int64_t s : {1, 2, 3, 4, 8})
    for (int64_t d : {0, 1, 2, 3, 8, 16})
      for (int64_t u : {1, 8, 64})
        for (int64_t t : {1, 2, 3, 4, 16})
          for (int64_t e : {0, 1, 2, 3, 5}) {
            Layout a =
                *makeLayout({Layout::unchecked(IntTuple(s), IntTuple(d)),
                             Layout::unchecked(IntTuple(4), IntTuple(u))});
            Tiler tl = Tiler::tuple(
                {Tiler::of(Layout::unchecked(IntTuple(t), IntTuple(e))),
                 T("2:1")});
            std::string what = a.str() + " by " + tl.str();
            ASSERT_TRUE(
                same(zipped_product(a, tl), general::zipped_product(a, tl)))
                << what;
            (general::lastPath() == general::Path::RegroupLeaves ? served
                                                                 : declined) +=
                1;
            ASSERT_TRUE(
                same(tiled_product(a, tl), general::tiled_product(a, tl)))
                << what;
            ASSERT_TRUE(same(flat_product(a, tl), general::flat_product(a, tl)))
                << what;
            ASSERT_TRUE(
                same(zipped_divide(a, tl), general::zipped_divide(a, tl)))
                << what;
            ASSERT_TRUE(same(tiled_divide(a, tl), general::tiled_divide(a, tl)))
                << what;
            ASSERT_TRUE(same(flat_divide(a, tl), general::flat_divide(a, tl)))
                << what;
          }
  EXPECT_GT(served, 100);
  EXPECT_GT(declined, 100);
}

// groupLeaves' two forms: results within IntTuple's inline nodes are
// written in one pass, larger ones (here 1 + 2 + 4 tiles + 4 rests + 6
// nodes of A's nested last mode, past the one-pass bound 1 + 2 + 3*4 +
// 9 - 1 > 16) by the wide form; both serve the call and equal the general
// construction. Tile 2:3 over 8:8 does not divide (rest (3,2):(8,48)).
TEST(FastPaths, LeafModeGroupingsWideEqualGeneral) {
  Layout a = L("(8,8,8,8,((2,2),2)):(1,8,64,512,((4096,8192),16384))");
  Tiler tl = T("(2:1,4:1,2:3,4:2)");
  for (int k = 0; k < 6; ++k) {
    auto fast = k == 0   ? zipped_divide(a, tl)
                : k == 1 ? tiled_divide(a, tl)
                : k == 2 ? flat_divide(a, tl)
                : k == 3 ? zipped_product(a, tl)
                : k == 4 ? tiled_product(a, tl)
                         : flat_product(a, tl);
    EXPECT_EQ(int(general::lastPath()), int(general::Path::RegroupLeaves)) << k;
    auto slow = k == 0   ? general::zipped_divide(a, tl)
                : k == 1 ? general::tiled_divide(a, tl)
                : k == 2 ? general::flat_divide(a, tl)
                : k == 3 ? general::zipped_product(a, tl)
                : k == 4 ? general::tiled_product(a, tl)
                         : general::flat_product(a, tl);
    EXPECT_TRUE(same(fast, slow)) << k;
  }
  // Two tiles over four leaf modes (1 + 2 + 3*2 + 5 - 1 <= 16): the
  // one-pass form.
  Layout b = L("(8,8,8,8):(1,8,64,512)");
  Tiler t2 = T("(2:3,4:2)");
  EXPECT_TRUE(same(zipped_divide(b, t2), general::zipped_divide(b, t2)));
  EXPECT_EQ(int(general::lastPath()), int(general::Path::RegroupLeaves));
  EXPECT_TRUE(same(flat_product(b, t2), general::flat_product(b, t2)));
  EXPECT_EQ(int(general::lastPath()), int(general::Path::RegroupLeaves));
  // Two tiles over an A whose nested third mode passes the one-pass bound
  // (1 + 2 + 3*2 + 11 - 1 > 16): the wide form.
  Layout c = L("(8,8,((2,2),(2,2),2)):(1,8,((64,128),(256,512),1024))");
  EXPECT_TRUE(same(tiled_divide(c, t2), general::tiled_divide(c, t2)));
  EXPECT_EQ(int(general::lastPath()), int(general::Path::RegroupLeaves));
  EXPECT_TRUE(same(zipped_product(c, t2), general::zipped_product(c, t2)));
  EXPECT_EQ(int(general::lastPath()), int(general::Path::RegroupLeaves));
}

// Each closed form of FastPaths.cpp serves the operand class it is for:
// every public operation records the path that served it
// (general::lastPath), so a closed form that always declined would show
// Path::General here, and this test would fail. The classes are those the
// dispatcher's table names; each result also equals the general one.
TEST(FastPaths, EachClosedFormServesItsClass) {
  using general::Path;
  struct Case {
    const char *what;
    std::function<Expected<Layout>()> fast, slow;
    Path path;
  };
  auto c = [](const char *a) {
    return [=] { return Expected<Layout>(coalesce(L(a))); };
  };
  auto gc = [](const char *a) {
    return [=] { return Expected<Layout>(general::coalesce(L(a))); };
  };
#define LK_BINARY(op, x, y)                                                    \
  [] { return op(x, y); }, [] { return general::op(x, y); }
  const Case cases[] = {
      {"coalesce of a leaf", c("64:2"), gc("64:2"), Path::CoalesceLeaf},
      {"coalesce of flat modes", c("(2,4):(1,2)"), gc("(2,4):(1,2)"),
       Path::CoalesceModes},
      {"composition of leaves", LK_BINARY(composition, L("128:2"), L("32:4")),
       Path::ComposeLeaves},
      {"composition by a flat B",
       LK_BINARY(composition, L("(4,8):(8,1)"), L("(8,4):(4,1)")),
       Path::ComposeFlat},
      {"composition by a nested B",
       LK_BINARY(composition, L("((4,2),(4,2)):((1,16),(4,32))"),
                 L("((2,2),(2,4)):((1,8),(2,16))")),
       Path::ComposeNested},
      {"composition of a tile by a TV layout",
       LK_BINARY(composition, L("(16,8):(8,1)"),
                 L("((4,8),(2,2)):((32,1),(16,8))")),
       Path::ComposeNested},
      {"composition of modes by a leaf",
       LK_BINARY(composition, L("(4,8):(8,1)"), L("32:1")), Path::ComposeTree},
      {"composition of two leaf modes by leaf tiles",
       LK_BINARY(composition, L("(128,64):(1,128)"), T("(32:1,16:1)")),
       Path::ComposeTwoLeafModes},
      {"composition of two leaf modes by tiles past them",
       LK_BINARY(composition, L("(8,8):(1,8)"), T("(16:1,3:4)")),
       Path::ComposeTwoLeafModes},
      {"composition of three leaf modes by leaf tiles",
       LK_BINARY(composition, L("(8,8,4):(1,8,64)"), T("(4:1,2:1,2:2)")),
       Path::ComposeLeafModes},
      {"composition of leaf modes by one leaf tile",
       LK_BINARY(composition, L("(8,8):(1,8)"), T("(4:2)")),
       Path::ComposeLeafModes},
      {"composition of a nested mode by leaf tiles",
       LK_BINARY(composition, L("((4,32),64):((1,4),128)"), T("(32:1,16:1)")),
       Path::ComposeModes},
      {"composition by a nested tile",
       LK_BINARY(composition, L("(128,64):(1,128)"), T("((4,8):(8,1),16:1)")),
       Path::ComposeByMode},
      {"complement of a leaf", LK_BINARY(complement, L("4:32"), IntTuple(256)),
       Path::ComplementLeaf},
      {"complement of modes",
       LK_BINARY(complement, L("(2,4):(1,8)"), IntTuple(64)),
       Path::ComplementModes},
      {"right_inverse of a leaf", [] { return right_inverse(L("64:1")); },
       [] { return general::right_inverse(L("64:1")); },
       Path::RightInverseLeaf},
      {"right_inverse by the stride chain",
       [] { return right_inverse(L("(4,2):(2,1)")); },
       [] { return general::right_inverse(L("(4,2):(2,1)")); },
       Path::RightInverseChain},
      {"right_inverse of modes sharing a stride",
       [] { return right_inverse(L("(2,2):(1,1)")); },
       [] { return general::right_inverse(L("(2,2):(1,1)")); },
       Path::RightInverseModes},
      {"left_inverse of a leaf", [] { return left_inverse(L("16:4")); },
       [] { return general::left_inverse(L("16:4")); }, Path::LeftInverseLeaf},
      {"left_inverse of a flat pair",
       [] { return left_inverse(L("(4,2):(2,1)")); },
       [] { return general::left_inverse(L("(4,2):(2,1)")); },
       Path::LeftInverseChain},
      {"left_inverse of nested modes onto [0, size)",
       [] { return left_inverse(L("((4,8),(2,2)):((32,1),(16,8))")); },
       [] { return general::left_inverse(L("((4,8),(2,2)):((32,1),(16,8))")); },
       Path::LeftInverseChain},
      {"left_inverse of modes lying apart",
       [] { return left_inverse(L("((2,2),(4,2)):((1,16),(2,64))")); },
       [] { return general::left_inverse(L("((2,2),(4,2)):((1,16),(2,64))")); },
       Path::LeftInverseModes},
      {"divide of a leaf by a leaf",
       LK_BINARY(logical_divide, L("128:1"), T("32:1")), Path::DivideLeaf},
      {"divide of leaf modes by leaf tiles",
       LK_BINARY(logical_divide, L("(64,32):(32,1)"), T("(8:1,4:1)")),
       Path::DivideLeafModes},
      {"divide of three leaf modes by leaf tiles",
       LK_BINARY(logical_divide, L("(64,32,4):(32,1,2048)"),
                 T("(8:1,4:1,2:2)")),
       Path::DivideLeafModes},
      {"divide of a nested mode by leaf tiles",
       LK_BINARY(logical_divide, L("((8,8),(4,8)):((8,64),(1,512))"),
                 T("((4,2):(1,8),4:1)")),
       Path::DivideModes},
      {"divide of two leaf modes by (pair tile, leaf tile)",
       LK_BINARY(logical_divide, L("(128,64):(1,128)"),
                 T("((4,8):(8,1),16:1)")),
       Path::DividePairLeaf},
      {"divide of leaf modes by a pair tile, A of rank 3",
       LK_BINARY(logical_divide, L("(128,64,2):(1,128,8192)"),
                 T("((4,8):(8,1),16:1)")),
       Path::DivideLeafModes},
      {"divide of leaf modes by a flat tile of three leaves",
       LK_BINARY(logical_divide, L("(128,64):(1,128)"),
                 T("((2,2,2):(1,4,16),16:1)")),
       Path::DivideModes},
      {"divide of modes by a layout tile",
       LK_BINARY(logical_divide, L("(128,64):(1,256)"), T("(2,4):(1,16)")),
       Path::DivideByMode},
      {"divide of a compact A by a layout tile",
       LK_BINARY(logical_divide, L("(128,64):(1,128)"), T("(2,4):(1,16)")),
       Path::DivideWhole},
      {"divide of A = 64:2 as (8,8):(2,16) by a nested layout tile",
       LK_BINARY(logical_divide, L("(8,8):(2,16)"), T("((2,2),2):((1,4),16)")),
       Path::DivideWhole},
      {"product of s:1 by a leaf",
       LK_BINARY(logical_product, L("128:1"), T("4:32")), Path::ProductLeaf},
      {"product of A onto [0, n)",
       LK_BINARY(logical_product, L("(4,8):(1,4)"), T("(2,2):(1,2)")),
       Path::ProductWhole},
      {"product by modes, A not onto [0, n)",
       LK_BINARY(logical_product, L("(8,8):(8,1)"), T("(4:1,2:1)")),
       Path::ProductByMode},
      {"blocked_product of leaves",
       LK_BINARY(blocked_product, L("4:1"), L("8:1")), Path::RankedLeaf},
      {"raked_product of the row-major atom",
       LK_BINARY(raked_product, L("(8,8):(8,1)"), L("(4,2):(1,4)")),
       Path::RankedFlat},
      {"blocked_product of a rank-2 A by a rank-3 B",
       LK_BINARY(blocked_product, L("(8,8):(1,8)"), L("(4,2,3):(1,4,8)")),
       Path::RankedFlat},
      {"blocked_product of nested modes",
       LK_BINARY(blocked_product, L("((2,2),2):((1,2),4)"),
                 L("((2,2),4):((1,2),4)")),
       Path::RankedProduct},
      {"zipped_divide of leaf modes by leaf tiles",
       LK_BINARY(zipped_divide, L("(128,64,4):(1,128,8192)"), T("(32:1,16:1)")),
       Path::RegroupLeaves},
      {"tiled_divide by a nested tile",
       LK_BINARY(tiled_divide, L("(128,64):(1,128)"), T("((4,8):(8,1),16:1)")),
       Path::Regroup},
      {"flat_product of leaf modes by leaf tiles",
       LK_BINARY(flat_product, L("(8,8):(8,1)"), T("(4:1,2:1)")),
       Path::RegroupLeaves},
      {"zipped_product by a nested tile",
       LK_BINARY(zipped_product, L("(8,8):(8,1)"), T("((2,2):(1,2),2:1)")),
       Path::Regroup},
      {"max_common_layout of leaves",
       LK_BINARY(max_common_layout, L("64:1"), L("64:1")), Path::MaxCommonLeaf},
      {"max_common_layout of A coalescing to a:1",
       LK_BINARY(max_common_layout, L("(8,4):(1,8)"), L("(8,4):(1,16)")),
       Path::MaxCommonContiguous},
      {"max_common_layout of modes",
       LK_BINARY(max_common_layout, L("(8,4):(1,16)"), L("(8,4):(1,8)")),
       Path::MaxCommonModes},
      {"coalesce past 16 nodes",
       c("(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):"
         "(1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768)"),
       gc("(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):"
          "(1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768)"),
       Path::General},
  };
#undef LK_BINARY
  for (const Case &k : cases) {
    auto r = k.fast();
    EXPECT_EQ(int(general::lastPath()), int(k.path)) << k.what;
    EXPECT_TRUE(r) << k.what;
    EXPECT_TRUE(same(r, k.slow())) << k.what;
  }
}

} // namespace
} // namespace lk::cute
