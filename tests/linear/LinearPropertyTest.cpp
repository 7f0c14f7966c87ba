//===- LinearPropertyTest.cpp - Algebraic laws on random layouts ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Fixed-seed random layouts; each law is checked on hundreds of them, with
/// the brute-force evaluator of LinearTestSupport.h as the reference.
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/LinearLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

using namespace lk;
using namespace lk::linear;
using lk::linear::testing::ok;
using lk::linear::testing::Random;
using lk::linear::testing::referenceApply;

namespace {

constexpr int kTrials = 300;

TEST(LinearProperty, ApplyMatchesDefinition) {
  Random r(1);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l =
        r.layout(int(r.uniform(0, 16)), 3, int(r.uniform(0, 16)), 2);
    for (int k = 0; k < 10; ++k) {
      uint64_t x = r.bits(l.totalInBits());
      std::vector<int64_t> in = l.unpackIn(x);
      EXPECT_EQ(ok(l.apply(in)), referenceApply(l, in));
      EXPECT_EQ(l.unpackOut(l.applyFlat(x)), referenceApply(l, in));
    }
  }
}

TEST(LinearProperty, InverseIsTwoSided) {
  Random r(2);
  for (int t = 0; t < kTrials; ++t) {
    int n = int(r.uniform(0, 20));
    LinearLayout l =
        r.invertible(n, int(r.uniform(1, 3)), int(r.uniform(1, 3)));
    ASSERT_TRUE(l.isInvertible()) << l.str();
    LinearLayout inv = ok(l.invert());
    for (int k = 0; k < 10; ++k) {
      uint64_t x = r.bits(n);
      EXPECT_EQ(inv.applyFlat(l.applyFlat(x)), x);
      EXPECT_EQ(l.applyFlat(inv.applyFlat(x)), x);
    }
    // invert o layout is the identity of the input space.
    LinearLayout id = ok(l.compose(inv));
    for (int j = 0; j < n; ++j)
      EXPECT_EQ(id.column(j), uint64_t(1) << j);
  }
}

TEST(LinearProperty, PseudoinverseIsMinimumNormRightInverse) {
  Random r(3);
  for (int t = 0; t < kTrials; ++t) {
    int outBits = int(r.uniform(0, 8)), extra = int(r.uniform(0, 4));
    LinearLayout l = r.surjective(outBits, extra, int(r.uniform(1, 3)),
                                  int(r.uniform(1, 2)));
    ASSERT_TRUE(l.isSurjective()) << l.str();
    LinearLayout p = ok(l.pseudoinvert());
    // Brute force: the smallest preimage of every y.
    std::vector<int64_t> smallest(size_t(1) << outBits, -1);
    for (uint64_t x = 0; x < (uint64_t(1) << l.totalInBits()); ++x) {
      uint64_t y = l.applyFlat(x);
      if (smallest[y] < 0)
        smallest[y] = int64_t(x);
    }
    for (uint64_t y = 0; y < (uint64_t(1) << outBits); ++y) {
      EXPECT_EQ(l.applyFlat(p.applyFlat(y)), y) << l.str();
      EXPECT_EQ(int64_t(p.applyFlat(y)), smallest[y]) << l.str() << " y=" << y;
    }
  }
}

TEST(LinearProperty, FreeVariablesMatchDependence) {
  Random r(4);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l =
        r.layout(int(r.uniform(0, 10)), 2, int(r.uniform(0, 6)), 2, 30);
    uint64_t free = l.freeVariableMaskFlat();
    // Column j is free iff it lies in the span of columns 0..j-1.
    for (int j = 0; j < l.totalInBits(); ++j) {
      bool inSpan = false;
      for (uint64_t c = 0; c < (uint64_t(1) << j) && !inSpan; ++c) {
        uint64_t v = 0;
        for (int i = 0; i < j; ++i)
          if (c >> i & 1)
            v ^= l.column(i);
        inSpan = v == l.column(j);
      }
      EXPECT_EQ(bool(free >> j & 1), inSpan) << l.str() << " j=" << j;
    }
    EXPECT_EQ(l.rank(), l.totalInBits() - __builtin_popcountll(free));
  }
}

TEST(LinearProperty, ComposeIsAssociativeAndMatchesApply) {
  Random r(5);
  for (int t = 0; t < kTrials; ++t) {
    int a = int(r.uniform(0, 12)), b = int(r.uniform(0, 12)),
        c = int(r.uniform(0, 12));
    LinearLayout A = r.layout(a, 2, b, 1);
    // B's input dims are A's output dims.
    std::vector<DimSize> bIns, cIns;
    for (int k = 0; k < A.numOutDims(); ++k)
      bIns.push_back(A.outDim(k));
    std::vector<uint64_t> bc, cc;
    for (int j = 0; j < b; ++j)
      bc.push_back(r.bits(c));
    DimSize mid[] = {{internDim("m0"), c}};
    LinearLayout B = ok(LinearLayout::fromColumns(bIns, mid, bc));
    for (int j = 0; j < c; ++j)
      cc.push_back(r.bits(6));
    DimSize last[] = {{internDim("z"), 6}};
    LinearLayout C = ok(LinearLayout::fromColumns(mid, last, cc));
    LinearLayout ab_c = ok(ok(A.compose(B)).compose(C));
    LinearLayout a_bc = ok(A.compose(ok(B.compose(C))));
    EXPECT_EQ(ab_c, a_bc);
    for (int k = 0; k < 5; ++k) {
      uint64_t x = r.bits(a);
      EXPECT_EQ(ab_c.applyFlat(x), C.applyFlat(B.applyFlat(A.applyFlat(x))));
    }
  }
}

TEST(LinearProperty, InvertAndComposeSatisfiesItsLaw) {
  Random r(6);
  for (int t = 0; t < kTrials; ++t) {
    int outBits = int(r.uniform(0, 10));
    LinearLayout B = r.surjective(outBits, int(r.uniform(0, 3)), 2, 1);
    LinearLayout A = r.surjective(outBits, int(r.uniform(0, 3)), 2, 1);
    // Same output dims as B.
    std::vector<DimSize> aIns, outs;
    for (int i = 0; i < A.numInDims(); ++i)
      aIns.push_back(A.inDim(i));
    for (int k = 0; k < B.numOutDims(); ++k)
      outs.push_back(B.outDim(k));
    std::vector<uint64_t> cols(A.columns().begin(), A.columns().end());
    A = ok(LinearLayout::fromColumns(aIns, outs, cols));
    LinearLayout C = ok(A.invertAndCompose(B));
    for (uint64_t x = 0; x < (uint64_t(1) << std::min(A.totalInBits(), 10));
         ++x)
      EXPECT_EQ(A.applyFlat(x), B.applyFlat(C.applyFlat(x)));
  }
}

TEST(LinearProperty, DivisionUndoesProduct) {
  Random r(7);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout B =
        r.layout(int(r.uniform(0, 10)), 2, int(r.uniform(0, 10)), 2);
    LinearLayout C =
        r.layout(int(r.uniform(0, 10)), 3, int(r.uniform(0, 10)), 2);
    Expected<LinearLayout> A = product(B, C);
    ASSERT_TRUE(A) << B.str() << " * " << C.str();
    LinearLayout Cq = ok(divideLeft(*A, B));
    EXPECT_EQ(ok(product(B, Cq)), *A) << B.str() << " * " << C.str();
    LinearLayout Bq = ok(divideRight(*A, C));
    EXPECT_EQ(ok(product(Bq, C)), *A) << B.str() << " * " << C.str();
    // A permutation of the registers of A is undone by the permuted division.
    int nreg = A->inDimLog2(dims::kRegister);
    if (nreg >= 2 && B.inDimLog2(dims::kRegister) >= 1) {
      std::vector<int> perm(static_cast<size_t>(nreg), 0);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), r.rng());
      LinearLayout shuffled = ok(A->permuteBases(dims::kRegister, perm));
      Expected<PermutedQuotient> pq = divideLeftWithPermutation(shuffled, B);
      ASSERT_TRUE(pq) << shuffled.str() << " / " << B.str();
      LinearLayout undone =
          ok(shuffled.permuteBases(dims::kRegister, pq->perm));
      EXPECT_EQ(ok(product(B, pq->quotient)), undone);
    }
  }
}

TEST(LinearProperty, TransposeAndReshapeKeepTheMap) {
  Random r(8);
  for (int t = 0; t < kTrials; ++t) {
    LinearLayout l =
        r.layout(int(r.uniform(1, 14)), 3, int(r.uniform(1, 14)), 3);
    std::vector<DimId> ins, outs;
    for (int i = l.numInDims() - 1; i >= 0; --i)
      ins.push_back(l.inDim(i).id);
    for (int k = l.numOutDims() - 1; k >= 0; --k)
      outs.push_back(l.outDim(k).id);
    LinearLayout tt = ok(ok(l.transposeIns(ins)).transposeOuts(outs));
    for (int k = 0; k < 5; ++k) {
      std::vector<int64_t> in = l.unpackIn(r.bits(l.totalInBits()));
      std::vector<int64_t> rin(in.rbegin(), in.rend());
      std::vector<int64_t> out = ok(l.apply(in));
      std::vector<int64_t> rout = ok(tt.apply(rin));
      EXPECT_EQ(std::vector<int64_t>(rout.rbegin(), rout.rend()), out);
    }
    EXPECT_EQ(l.flattenIns().flattenOuts().columns().size(),
              l.columns().size());
    for (int j = 0; j < l.totalInBits(); ++j)
      EXPECT_EQ(l.flattenIns().flattenOuts().column(j), l.column(j));
  }
}

} // namespace
