//===- F2BasisTest.cpp - Gaussian elimination over F2 ---------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/F2Basis.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace lk::linear {
namespace {

// The header's example: 0b101 = 0b011 ^ 0b110, so the third vector is
// dependent and its solve uses the tags 1 and 2.
TEST(F2Basis, HeaderExample) {
  F2Basis b;
  EXPECT_TRUE(b.add(0b011, 1));
  EXPECT_TRUE(b.add(0b110, 2));
  EXPECT_FALSE(b.add(0b101, 4));
  EXPECT_EQ(b.rank(), 2);
  uint64_t v = 0b101;
  EXPECT_EQ(b.reduce(v), 3u);
  EXPECT_EQ(v, 0u);
  uint64_t tags = 0;
  EXPECT_TRUE(b.solve(0b101, tags));
  EXPECT_EQ(tags, 3u);
}

// 0 is in every span and never added. Rows 0b110 (leading bit 2) and 0b011
// (leading bit 1); reducing 0b111: bit 2 is a lead, ^0b110 gives 0b001 (tag
// 1); bit 0 is no lead, so the remainder is 0b001 and 0b111 is outside.
TEST(F2Basis, RemainderOutsideTheSpan) {
  F2Basis b;
  EXPECT_FALSE(b.add(0, 7));
  EXPECT_EQ(b.rank(), 0);
  EXPECT_TRUE(b.add(0b110, 1));
  EXPECT_TRUE(b.add(0b011, 2));
  uint64_t v = 0b111;
  EXPECT_EQ(b.reduce(v), 1u);
  EXPECT_EQ(v, 0b001u);
  EXPECT_FALSE(b.contains(0b111));
  EXPECT_TRUE(b.contains(0b101));
  uint64_t tags = 0;
  EXPECT_FALSE(b.solve(0b001, tags));
}

// Earlier vectors are preferred: with e0, e0^e1 added first, e1 is
// dependent, and e1 = e0 ^ (e0 ^ e1) solves to tags 1 ^ 2.
TEST(F2Basis, EarlierVectorsArePreferred) {
  F2Basis b;
  EXPECT_TRUE(b.add(0b01, 1));
  EXPECT_TRUE(b.add(0b11, 2));
  EXPECT_FALSE(b.add(0b10, 4));
  uint64_t tags = 0;
  ASSERT_TRUE(b.solve(0b10, tags));
  EXPECT_EQ(tags, 3u);
}

// The top bit and a full basis: the 64 vectors e_j ^ e_{j+1} (j < 63) and
// e_63 are independent; e_0 is the XOR of all of them.
TEST(F2Basis, SixtyFourBits) {
  F2Basis b;
  for (int j = 0; j < 63; ++j)
    ASSERT_TRUE(b.add((uint64_t(3) << j), uint64_t(1) << j));
  ASSERT_TRUE(b.add(uint64_t(1) << 63, uint64_t(1) << 63));
  EXPECT_EQ(b.rank(), 64);
  uint64_t tags = 0;
  ASSERT_TRUE(b.solve(1, tags));
  EXPECT_EQ(tags, ~uint64_t(0));
  // e_5 = (e_5 ^ e_6) ^ ... ^ (e_62 ^ e_63) ^ e_63: tags 5 .. 63.
  ASSERT_TRUE(b.solve(uint64_t(1) << 5, tags));
  EXPECT_EQ(tags, ~uint64_t(0) << 5);
}

TEST(F2Basis, RankF2) {
  std::vector<uint64_t> none;
  EXPECT_EQ(rankF2(none), 0);
  std::vector<uint64_t> three = {0b011, 0b110, 0b101};
  EXPECT_EQ(rankF2(three), 2);
  std::vector<uint64_t> units = {1, 2, 4, 8, 0, 8};
  EXPECT_EQ(rankF2(units), 4);
}

// Copies are independent: a probe copy can be extended without changing
// the original (the planner's shared-memory search relies on it).
TEST(F2Basis, CopyIsIndependent) {
  F2Basis b;
  b.add(0b100, 1);
  F2Basis probe = b;
  EXPECT_TRUE(probe.add(0b010, 2));
  EXPECT_EQ(probe.rank(), 2);
  EXPECT_EQ(b.rank(), 1);
  EXPECT_FALSE(b.contains(0b010));
}

} // namespace
} // namespace lk::linear
