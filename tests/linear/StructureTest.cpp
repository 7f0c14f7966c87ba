//===- StructureTest.cpp - Constructors, structural queries, dim surgery --===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Structure.h against hand derivations: strided bases are stride * 2^i, a
/// consecutive run is checked against its definition, triviality and the
/// quotient on a block-diagonal layout, F2 matrices with wrong row or column
/// counts and dim sizes whose power-of-two rounding would overflow.
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Structure.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::linear;
using lk::linear::testing::ok;
using lk::linear::testing::P;

namespace {

TEST(Structure, Strided1D) {
  // L(x) = 4x on 8 registers: bases 4, 8, 16; out size 32.
  LinearLayout s = ok(strided1D(8, 4, dims::kRegister, dims::kOffset));
  EXPECT_EQ(s, P("{register: [(4), (8), (16)]} -> {offset: 32}"));
  for (int64_t x = 0; x < 8; ++x)
    EXPECT_EQ(int64_t(s.applyFlat(uint64_t(x))), 4 * x);
  EXPECT_FALSE(strided1D(8, 3, dims::kRegister, dims::kOffset));
  EXPECT_FALSE(strided1D(int64_t(1) << 31, int64_t(1) << 32, dims::kRegister,
                         dims::kOffset));
  EXPECT_EQ(ok(zeros1D(4, dims::kLane, dims::dim(0), 8)),
            P("{lane: [(0), (0)]} -> {dim0: 8}"));
}

TEST(Structure, DimSizeRefusesOverflowingRounding) {
  EXPECT_EQ(ok(dimSizeOf(dims::dim(0), 16)).log2, 4);
  for (int64_t bad :
       {(int64_t(1) << 62) + 1, INT64_MAX, int64_t(0), int64_t(-8), int64_t(6)})
    EXPECT_FALSE(dimSizeOf(dims::dim(0), bad)) << bad;
}

TEST(Structure, FromF2MatrixChecksCounts) {
  DimSize in[] = {{dims::kRegister, 3}};
  DimSize out[] = {{dims::dim(0), 3}};
  int64_t eye[] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  EXPECT_EQ(ok(fromF2Matrix(in, out, eye, 3, 3)),
            ok(LinearLayout::identity1D(8, dims::kRegister, dims::dim(0))));
  std::vector<int64_t> z(65 * 3, 0);
  EXPECT_FALSE(fromF2Matrix(in, out, z, 65, 3));
  EXPECT_FALSE(fromF2Matrix(in, out, z, 2, 3));
  int64_t two[] = {2, 0, 0, 0, 1, 0, 0, 0, 1};
  EXPECT_FALSE(fromF2Matrix(in, out, two, 3, 3));
}

TEST(Structure, NumConsecutiveInOutMatchesDefinition) {
  // Bases 1, 2, 8: V = 4; a lane basis 2 cuts the run to 2.
  LinearLayout a = P("{register: [(1), (2), (8)]} -> {dim0: 16}");
  LinearLayout b = P("{register: [(1), (4)], lane: [(2)]} -> {dim0: 8}");
  EXPECT_EQ(numConsecutiveInOut(a), 4);
  EXPECT_EQ(numConsecutiveInOut(b), 2);
  // Definition: L(a*V + v) == L(a*V) + v for v < V over the first in-dim.
  for (uint64_t x = 0; x < 8; ++x)
    EXPECT_EQ(a.applyFlat(x), a.applyFlat(x & ~uint64_t(3)) + (x & 3));
  EXPECT_EQ(numConsecutiveInOut(LinearLayout::empty()), 1);
}

TEST(Structure, TrivialOverAndQuotient) {
  LinearLayout l =
      P("{register: [(1, 0)], block: [(0, 1), (0, 2)]} -> {dim0: 2, block: 4}");
  DimId block[] = {dims::kBlock}, reg[] = {dims::kRegister};
  EXPECT_TRUE(isTrivialOver(l, block));
  EXPECT_FALSE(isTrivialOver(l, reg));
  EXPECT_EQ(*quotient(l, block), P("{register: [(1)]} -> {dim0: 2}"));
  EXPECT_FALSE(quotient(l, reg).has_value());
  LinearLayout m =
      P("{register: [(1, 1)], block: [(0, 2)]} -> {dim0: 2, block: 4}");
  EXPECT_FALSE(isTrivialOver(m, block));
}

TEST(Structure, RemoveDims) {
  LinearLayout l = P("{register: [(1)], lane: [(0), (2), (0)]} -> {dim0: 4}");
  EXPECT_EQ(ok(removeZeroBases(l, dims::kLane)),
            P("{register: [(1)], lane: [(2)]} -> {dim0: 4}"));
  EXPECT_EQ(removeZeroBases(l, dims::kWarp).error().message,
            "remove_zero_bases: the layout has no in-dim 'warp' (its in-dims: "
            "register, lane)");
  LinearLayout u = P("{register: [(1, 0)], warp: []} -> {dim0: 2, dim1: 1}");
  EXPECT_EQ(ok(removeUnitInDim(u, dims::kWarp)),
            P("{register: [(1, 0)]} -> {dim0: 2, dim1: 1}"));
  EXPECT_EQ(ok(removeUnitOutDim(u, dims::dim(1))),
            P("{register: [(1)], warp: []} -> {dim0: 2}"));
  EXPECT_FALSE(removeUnitInDim(u, dims::kRegister));
  EXPECT_TRUE(equalIgnoringOutDimSizes(P("{register: [(1)]} -> {dim0: 8}"),
                                       P("{register: [(1)]} -> {dim0: 2}")));
}

} // namespace
