//===- AlgebraPropertyTest.cpp - Algebraic laws on random layouts ---------===//
//
// Each test draws thousands of random layouts (fixed seeds, so failures
// reproduce) and checks an operation's postcondition by brute force.
//
//===----------------------------------------------------------------------===//

#include "support/AlgebraTestSupport.h"

#include "layoutkit/cute/AlgebraGeneral.h"

namespace lk::cute {
namespace {

using testing::LayoutGen;
using testing::values;

constexpr int kTrials = 3000;

TEST(AlgebraLaws, CoalesceAndFilterPreserveTheFunction) {
  LayoutGen gen(1);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = gen.any();
    Layout c = coalesce(l);
    ASSERT_EQ(c.size(), l.size()) << l.str();
    ASSERT_LE(c.depth(), 1) << l.str();
    ASSERT_EQ(values(c), values(l)) << l.str() << " -> " << c.str();
    ASSERT_TRUE(*equivalent(l, c));
    // filter keeps the image (as a set) and drops the broadcast extents.
    Layout f = filter(l);
    std::vector<int64_t> a = values(l), b = values(f);
    std::set<int64_t> sa(a.begin(), a.end()), sb(b.begin(), b.end());
    ASSERT_EQ(sa, sb) << l.str() << " -> " << f.str();
    // filter_zeros keeps the tree; its size counts the non-broadcast extents.
    Layout z = filter_zeros(l);
    ASSERT_TRUE(congruent(z.shape(), l.shape()));
    int64_t live = 1;
    auto s = l.shape().leaves(), d = l.stride().leaves();
    for (size_t k = 0; k < s.size(); ++k)
      live *= d[k].value == 0 ? 1 : s[k].value;
    ASSERT_EQ(z.size(), live) << l.str();
  }
}

TEST(AlgebraLaws, CompositionIsFunctionComposition) {
  LayoutGen gen(2);
  int composed = 0;
  for (int t = 0; t < kTrials * 3; ++t) {
    Layout a = gen.any(5, 6, 32);
    Layout b = gen.pick(0, 1) ? gen.injective(4, 6) : gen.any(4, 6, 24);
    if (gen.pick(0, 3) == 0) // some negative strides in B
      b = gen.negate(b);
    auto r = composition(a, b);
    if (!r)
      continue;
    ++composed;
    ASSERT_EQ(r->size(), b.size()) << a.str() << " o " << b.str();
    ASSERT_TRUE(weaklyCongruent(b.shape(), r->shape()) || b.shape().isLeaf())
        << a.str() << " o " << b.str() << " = " << r->str();
    for (int64_t i = 0; i < b.size(); ++i)
      ASSERT_EQ(evaluate(*r, i), evaluate(a, evaluate(b, i)))
          << a.str() << " o " << b.str() << " = " << r->str() << " at " << i;
  }
  EXPECT_GT(composed, kTrials / 2);
}

TEST(AlgebraLaws, CompositionWithCompactTilersAlwaysSucceeds) {
  // A tiler that walks A's coalesced modes in order (a compact layout whose
  // size divides A's) is always admissible.
  LayoutGen gen(3);
  for (int t = 0; t < kTrials; ++t) {
    Layout a = gen.injective(4, 4, true);
    Layout b = *Layout::compact(IntTuple(a.size()));
    auto r = composition(a, b);
    ASSERT_TRUE(r) << a.str() << ": " << r.error().message;
    ASSERT_EQ(values(*r), values(a));
  }
}

TEST(AlgebraLaws, ComplementIsDisjointAndCovering) {
  LayoutGen gen(4);
  for (int t = 0; t < kTrials; ++t) {
    // An injective layout without gaps' overlap: modes of a compact layout.
    Layout l = gen.injective(4, 5, /*gaps=*/false);
    int64_t m = *l.cosize() * gen.pick(1, 3);
    auto c = complement(l, IntTuple(m));
    ASSERT_TRUE(c) << l.str() << ": " << c.error().message;
    // Sorted: strictly increasing.
    std::vector<int64_t> cv = values(*c);
    for (size_t i = 1; i < cv.size(); ++i)
      ASSERT_LT(cv[i - 1], cv[i]) << l.str() << " -> " << c->str();
    // Disjoint and covering: (L, C) is a bijection onto [0, size(L)*size(C))
    // and that range reaches the cotarget.
    Layout both = *makeLayout({l, *c});
    std::vector<int64_t> bv = values(both);
    std::set<int64_t> seen(bv.begin(), bv.end());
    ASSERT_EQ(seen.size(), bv.size()) << l.str() << " , " << c->str();
    ASSERT_EQ(*seen.rbegin() + 1, int64_t(bv.size()))
        << l.str() << " , " << c->str();
    ASSERT_GE(int64_t(bv.size()), m);
  }
}

TEST(AlgebraLaws, ComplementWithGapsAvoidsTheImage) {
  LayoutGen gen(5);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = gen.injective(4, 4, /*gaps=*/true);
    auto c = complement(l);
    if (!c)
      continue; // CuTe's test rejects some gapped layouts
    std::vector<int64_t> lv = values(l), cv = values(*c);
    std::set<int64_t> image(lv.begin(), lv.end());
    for (size_t i = 1; i < cv.size(); ++i) {
      ASSERT_LT(cv[i - 1], cv[i]);
      ASSERT_EQ(image.count(cv[i]), 0u) << l.str() << " -> " << c->str();
    }
  }
}

TEST(AlgebraLaws, RightInverse) {
  LayoutGen gen(6);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = gen.pick(0, 1) ? gen.injective(5, 5, gen.pick(0, 1))
                              : gen.any(5, 5, 16);
    auto r = right_inverse(l);
    ASSERT_TRUE(r) << l.str();
    for (int64_t i = 0; i < r->size(); ++i)
      ASSERT_EQ(evaluate(l, evaluate(*r, i)), i)
          << l.str() << " -> " << r->str();
  }
}

TEST(AlgebraLaws, LeftInverse) {
  LayoutGen gen(7);
  for (int t = 0; t < kTrials; ++t) {
    Layout l = gen.injective(5, 5, gen.pick(0, 1));
    auto r = left_inverse(l);
    ASSERT_TRUE(r) << l.str() << ": " << r.error().message;
    for (int64_t i = 0; i < l.size(); ++i)
      ASSERT_EQ(evaluate(*r, evaluate(l, i)), i)
          << l.str() << " -> " << r->str();
  }
  // Any layout: when a left inverse is returned, L(R(L(i))) = L(i).
  for (int t = 0; t < kTrials; ++t) {
    Layout l = gen.any(4, 5, 24);
    auto r = left_inverse(l);
    if (!r)
      continue;
    for (int64_t i = 0; i < l.size(); ++i) {
      int64_t li = evaluate(l, i);
      ASSERT_EQ(evaluate(l, evaluate(*r, li)), li)
          << l.str() << " -> " << r->str();
    }
  }
}

TEST(AlgebraLaws, LogicalDivideTilesTheLayout) {
  LayoutGen gen(8);
  for (int t = 0; t < kTrials; ++t) {
    Layout a = gen.injective(4, 4, true);
    // A tile A can be divided by: whole leading coalesced modes times a
    // divisor of the next one.
    Layout ca = coalesce(a);
    auto leaves = ca.shape().leaves();
    size_t k = size_t(gen.pick(0, int64_t(leaves.size()) - 1));
    int64_t d = 1;
    for (size_t i = 0; i < k; ++i)
      d *= leaves[i].value;
    std::vector<int64_t> divisors;
    for (int64_t e = 1; e <= leaves[k].value; ++e)
      if (leaves[k].value % e == 0)
        divisors.push_back(e);
    d *= divisors[size_t(gen.pick(0, int64_t(divisors.size()) - 1))];
    Layout tile = *Layout::compact(IntTuple(d));
    auto r = logical_divide(a, Tiler::of(tile));
    ASSERT_TRUE(r) << a.str() << " / " << d << ": " << r.error().message;
    ASSERT_EQ(r->mode(0).size(), d);
    ASSERT_EQ(r->size(), a.size());
    // Same values as A, tile by tile.
    ASSERT_EQ(values(*r), values(a))
        << a.str() << " / " << d << " = " << r->str();
  }
}

TEST(AlgebraLaws, LogicalProductOfGappedBlocksNeverOverlaps) {
  // With gaps in A the complement can be inexact; the product must then be
  // refused rather than return overlapping copies.
  LayoutGen gen(12);
  int built = 0;
  for (int t = 0; t < kTrials; ++t) {
    Layout a = gen.injective(3, 5, true);
    Layout b = gen.injective(3, 4, gen.pick(0, 1));
    auto p = logical_product(a, Tiler::of(b));
    if (!p)
      continue;
    ++built;
    std::vector<int64_t> v = values(*p);
    std::set<int64_t> seen(v.begin(), v.end());
    ASSERT_EQ(seen.size(), v.size())
        << a.str() << " x " << b.str() << " = " << p->str();
  }
  EXPECT_GT(built, kTrials / 2);
}

TEST(AlgebraLaws, LogicalProductIsInjectiveForInjectiveBlocks) {
  LayoutGen gen(9);
  for (int t = 0; t < kTrials; ++t) {
    Layout a = gen.injective(3, 4, false);
    Layout b = gen.injective(3, 4, false);
    auto p = logical_product(a, Tiler::of(b));
    ASSERT_TRUE(p) << a.str() << " x " << b.str() << ": " << p.error().message;
    ASSERT_EQ(p->size(), a.size() * b.size());
    ASSERT_EQ(p->mode(0), a);
    std::vector<int64_t> v = values(*p);
    std::set<int64_t> seen(v.begin(), v.end());
    ASSERT_EQ(seen.size(), v.size())
        << a.str() << " x " << b.str() << " = " << p->str();
  }
}

TEST(AlgebraLaws, Idx2crdInvertsCompactCrd2idx) {
  LayoutGen gen(10);
  for (int t = 0; t < kTrials; ++t) {
    IntTuple s = gen.shapeTree(int(gen.pick(1, 6)), 2, 5);
    Layout compact = *Layout::compact(s);
    Layout colex = Layout::unchecked(s, *prefixProduct(s));
    for (int64_t i = 0; i < compact.size(); ++i) {
      IntTuple c = *idx2crd(i, s);
      ASSERT_TRUE(congruent(c, s));
      ASSERT_EQ(*crd2idx(c, colex), i) << s.str();
      ASSERT_EQ(*crd2idx(c, compact), evaluate(compact, i));
    }
  }
}

TEST(AlgebraLaws, MaxCommonVectorIsContiguousInBoth) {
  // Power-of-two layouts always satisfy the divisibility conditions, so the
  // common layout must be found for every pair.
  LayoutGen gen(11);
  gen.pow2 = true;
  int pairs = 0;
  for (int t = 0; t < kTrials * 4; ++t) {
    Layout a = gen.injective(4, 8, false);
    Layout b = gen.injective(4, 8, false);
    if (a.size() != b.size())
      continue;
    ++pairs;
    auto n = max_common_vector(a, b);
    auto m = max_common_layout(a, b);
    ASSERT_TRUE(n) << a.str() << " " << b.str() << ": " << n.error().message;
    ASSERT_TRUE(m) << a.str() << " " << b.str() << ": " << m.error().message;
    ASSERT_EQ(m->size(), *n);
    // For 0 <= i < N: a(R(i)) == i and b(R(i)) == i.
    for (int64_t i = 0; i < *n; ++i) {
      ASSERT_EQ(evaluate(a, evaluate(*m, i)), i) << a.str() << " " << b.str();
      ASSERT_EQ(evaluate(b, evaluate(*m, i)), i) << a.str() << " " << b.str();
    }
  }
  EXPECT_GT(pairs, 100);
}

// B of 9-12 leaves, past the closed forms' 8 (the general construction
// serves: general::lastPath()), by the definition: with invB =
// right_inverse(B), N is the largest n <= size(invB) with A(invB(j)) = j
// for every j < n, at least 1 (a scan, below its 2^22 bound here); the
// common layout M is invB o N:1 where that composes (1:0 for N == 1),
// else invB o n:1 for a smaller n, and A(M(i)) = B(M(i)) = i below
// size(M). A is B itself (N = size(B)), B's compact layout (a common
// prefix up to B's first permuted mode) or another injective one, of B's
// size (A past its domain would continue along its last mode).
TEST(AlgebraLaws, MaxCommonLayoutPastEightLeavesByDefinition) {
  LayoutGen gen(12);
  int pairs = 0, wide = 0, composed = 0;
  while (pairs < 400) {
    Layout b = gen.injective(12, 2, gen.pick(0, 1));
    const int64_t pick = gen.pick(0, 2);
    Layout a = pick == 0   ? b
               : pick == 1 ? *Layout::compact(b.shape())
                           : gen.injective(12, 2, gen.pick(0, 1));
    if (b.shape().leafCount() < 9 || a.size() != b.size())
      continue;
    ++pairs;
    Layout inv = *right_inverse(b);
    int64_t n = 1;
    while (n < inv.size() && evaluate(a, evaluate(inv, n)) == n)
      ++n;
    auto v = max_common_vector(a, b);
    auto m = max_common_layout(a, b);
    ASSERT_EQ(general::lastPath(), general::Path::General);
    ASSERT_TRUE(v && m) << a.str() << " , " << b.str();
    ASSERT_EQ(*v, n) << a.str() << " , " << b.str();
    for (int64_t i = 0; i < m->size(); ++i) {
      ASSERT_EQ(evaluate(a, evaluate(*m, i)), i) << a.str() << " " << b.str();
      ASSERT_EQ(evaluate(b, evaluate(*m, i)), i) << a.str() << " " << b.str();
    }
    wide += n > 1;
    if (n == 1) {
      ASSERT_EQ(*m, Layout()) << a.str() << " , " << b.str();
      continue;
    }
    auto want = composition(inv, Layout::unchecked(IntTuple(n), IntTuple(1)));
    composed += want.hasValue();
    if (!want) { // a smaller prefix of invB that composes
      ASSERT_LT(m->size(), n) << a.str() << " , " << b.str();
    }
    const int64_t k = want ? n : m->size();
    if (k > 1) {
      ASSERT_EQ(*m,
                *composition(inv, Layout::unchecked(IntTuple(k), IntTuple(1))))
          << a.str() << " , " << b.str();
    }
  }
  EXPECT_GT(wide, 120);
  EXPECT_GT(composed, 120);
}

} // namespace
} // namespace lk::cute
