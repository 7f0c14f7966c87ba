//===- IntTupleTest.cpp ---------------------------------------------------===//

#include "layoutkit/core/IntTuple.h"

#include <gtest/gtest.h>

using lk::BasisPath;
using lk::IntTuple;

namespace {

IntTuple T(std::initializer_list<IntTuple> c) { return IntTuple::tuple(c); }

TEST(IntTuple, LeafAndTupleAreDistinct) {
  IntTuple leaf(8);
  IntTuple rank1 = T({8});
  EXPECT_TRUE(leaf.isLeaf());
  EXPECT_TRUE(rank1.isTuple());
  EXPECT_NE(leaf, rank1);
  EXPECT_EQ(leaf.str(), "8");
  EXPECT_EQ(rank1.str(), "(8)");
  EXPECT_EQ(IntTuple().str(), "()");
}

TEST(IntTuple, RankDepthModes) {
  IntTuple t = T({T({2, 4}), 8}); // ((2,4),8)
  EXPECT_EQ(t.rank(), 2u);
  EXPECT_EQ(t.depth(), 2);
  EXPECT_EQ(t[0], T({2, 4}));
  EXPECT_EQ(t[1], IntTuple(8));
  EXPECT_EQ(IntTuple(5).rank(), 1u);
  EXPECT_EQ(IntTuple(5).depth(), 0);
  EXPECT_EQ(IntTuple(5)[0], IntTuple(5)); // CuTe's get<0> of an integer
  EXPECT_EQ(IntTuple().rank(), 0u);
  EXPECT_EQ(IntTuple().depth(), 1);
  EXPECT_EQ(T({T({T({1})})}).depth(), 3);
}

TEST(IntTuple, ProductSumFlatten) {
  IntTuple t = T({T({2, 4}), 8, T({})});
  EXPECT_EQ(*t.product(), 64);
  EXPECT_EQ(*t.sum(), 14);
  EXPECT_EQ(*t.flatten(), T({2, 4, 8}));
  EXPECT_EQ(t.leafCount(), 3u);
  EXPECT_EQ(*IntTuple().product(), 1);
}

TEST(IntTuple, ProductOverflowIsAnError) {
  IntTuple t = T({int64_t(1) << 40, int64_t(1) << 40});
  auto p = t.product();
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("overflow"), std::string::npos);
}

TEST(IntTuple, Congruence) {
  IntTuple a = T({T({2, 4}), 8});
  IntTuple b = T({T({1, 16}), 2});
  EXPECT_TRUE(lk::congruent(a, b));
  EXPECT_FALSE(lk::congruent(a, T({8, 8})));
  // 8 is a coarsening of (2,4); the reverse is not.
  EXPECT_TRUE(lk::weaklyCongruent(IntTuple(8), T({2, 4})));
  EXPECT_FALSE(lk::weaklyCongruent(T({2, 4}), IntTuple(8)));
  EXPECT_TRUE(lk::weaklyCongruent(T({8, 3}), a));
  EXPECT_FALSE(lk::weaklyCongruent(T({8, 3, 1}), a));
}

TEST(IntTuple, PrefixProductIsColexicographic) {
  // (2,(3,4)) -> (1,(2,6)): the stride of each leaf in a compact
  // column-major layout.
  IntTuple s = T({2, T({3, 4})});
  EXPECT_EQ(*lk::prefixProduct(s), T({1, T({2, 6})}));
  EXPECT_EQ(*lk::prefixProduct(IntTuple(7)), IntTuple(1));
}

TEST(IntTuple, BasisLeaves) {
  IntTuple b = IntTuple::leaf(3, BasisPath::unit(1));
  EXPECT_EQ(b.str(), "3@1");
  auto nested = BasisPath::unit(0).pushed(1);
  ASSERT_TRUE(nested);
  EXPECT_EQ(IntTuple::leaf(1, *nested).str(), "1@0@1");
  EXPECT_EQ(nested->depth(), 2);
  EXPECT_EQ(nested->at(0), 0);
  EXPECT_EQ(nested->at(1), 1);
  EXPECT_TRUE(T({1, b}).hasBasis());
  EXPECT_FALSE(T({1, 3}).hasBasis());
  // Same value, different basis: not equal.
  EXPECT_NE(IntTuple::leaf(3, BasisPath::unit(0)),
            IntTuple::leaf(3, BasisPath::unit(1)));
}

TEST(IntTuple, BasisPathLimits) {
  BasisPath p;
  for (int k = 0; k < BasisPath::kMaxDepth; ++k) {
    auto q = p.pushed(k);
    ASSERT_TRUE(q);
    p = *q;
  }
  EXPECT_FALSE(p.pushed(0));
  EXPECT_FALSE(BasisPath().pushed(255));
  EXPECT_FALSE(BasisPath().pushed(-1));
}

TEST(IntTuple, LargeTuplesSpillToHeap) {
  IntTuple t;
  for (int i = 0; i < 100; ++i)
    t.push_back(T({i, i + 1}));
  EXPECT_EQ(t.rank(), 100u);
  EXPECT_EQ(t[57], T({57, 58}));
  IntTuple copy = t;
  EXPECT_EQ(copy, t);
  EXPECT_EQ(copy.hash(), t.hash());
}

TEST(IntTuple, BuilderRejectsOversizedResults) {
  // (1, 2, ..., 40000) has more modes than a tuple node can count.
  IntTuple::Builder wide;
  wide.open();
  for (int i = 0; i < 40000; ++i)
    wide.leaf(i);
  wide.close();
  auto t = wide.take();
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("too large"), std::string::npos);
  // 70000 nodes in nested pairs: more nodes than a tuple can hold.
  IntTuple::Builder deep;
  deep.open();
  for (int i = 0; i < 23334; ++i) {
    deep.open();
    deep.leaf(1);
    deep.leaf(2);
    deep.close();
  }
  deep.close();
  EXPECT_FALSE(deep.take());
  IntTuple::Builder ok;
  ok.open();
  ok.leaf(2);
  ok.open();
  ok.leaf(3);
  ok.leaf(4);
  ok.close();
  ok.close();
  EXPECT_EQ(*ok.take(), T({2, T({3, 4})}));
}

TEST(IntTuple, FlattenRefusesTooManyLeaves) {
  IntTuple a, b;
  for (int i = 0; i < 20000; ++i) {
    a.push_back(1);
    b.push_back(1);
  }
  EXPECT_FALSE(IntTuple::tuple({a, b}).flatten());
}

TEST(IntTuple, WithLeavesKeepsStructure) {
  IntTuple s = T({T({2, 4}), 8});
  int64_t v[] = {7, 8, 9};
  EXPECT_EQ(s.withLeaves(v), T({T({7, 8}), 9}));
}

} // namespace
