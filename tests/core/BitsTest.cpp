//===- BitsTest.cpp - Powers of two and bit widths ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/Bits.h"

#include <gtest/gtest.h>

namespace lk {
namespace {

TEST(Bits, IsPow2) {
  EXPECT_TRUE(isPow2(1));
  EXPECT_TRUE(isPow2(64));
  EXPECT_TRUE(isPow2(int64_t(1) << 62));
  EXPECT_FALSE(isPow2(0));
  EXPECT_FALSE(isPow2(-4));
  EXPECT_FALSE(isPow2(12));
  EXPECT_FALSE(isPow2(INT64_MIN)); // a single bit, but negative
}

// The three roundings differ exactly off the powers of two: 12 lies between
// 2^3 = 8 and 2^4 = 16.
TEST(Bits, Log2Roundings) {
  EXPECT_EQ(log2Exact(8), 3);
  EXPECT_EQ(log2Floor(8), 3);
  EXPECT_EQ(log2Ceil(8), 3);
  EXPECT_EQ(log2Exact(12), -1);
  EXPECT_EQ(log2Floor(12), 3);
  EXPECT_EQ(log2Ceil(12), 4);
  EXPECT_EQ(log2Exact(1), 0);
  EXPECT_EQ(log2Floor(1), 0);
  EXPECT_EQ(log2Ceil(1), 0);
  EXPECT_EQ(log2Ceil(2), 1);
  EXPECT_EQ(log2Ceil(3), 2);
  EXPECT_EQ(log2Ceil(5), 3);
  // Non-positive inputs: not a power of two; both roundings give 0.
  EXPECT_EQ(log2Exact(0), -1);
  EXPECT_EQ(log2Exact(-8), -1);
  EXPECT_EQ(log2Floor(0), 0);
  EXPECT_EQ(log2Ceil(-3), 0);
  EXPECT_EQ(log2Floor(INT64_MAX), 62);
  EXPECT_EQ(log2Ceil(INT64_MAX), 63);
}

TEST(Bits, WidthAndMask) {
  EXPECT_EQ(bitWidth(0), 0);
  EXPECT_EQ(bitWidth(1), 1);
  EXPECT_EQ(bitWidth(8), 4);
  EXPECT_EQ(bitWidth(~uint64_t(0)), 64);
  EXPECT_EQ(lowMask(0), 0u);
  EXPECT_EQ(lowMask(3), 0b111u);
  EXPECT_EQ(lowMask(64), ~uint64_t(0));
  static_assert(log2Ceil(1000) == 10 && log2Floor(1000) == 9);
}

} // namespace
} // namespace lk
