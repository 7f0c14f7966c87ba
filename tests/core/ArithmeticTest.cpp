//===- ArithmeticTest.cpp - Checked integers and rationals ----------------===//

#include "layoutkit/core/Checked.h"
#include "layoutkit/core/Rational.h"

#include <gtest/gtest.h>

#include <limits>

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(Checked, DetectsOverflow) {
  EXPECT_EQ(*lk::checkedAdd(2, 3, "x"), 5);
  EXPECT_FALSE(lk::checkedAdd(kMax, 1, "size"));
  EXPECT_FALSE(lk::checkedSub(kMin, 1, "size"));
  EXPECT_FALSE(lk::checkedMul(int64_t(1) << 32, int64_t(1) << 31, "size"));
  auto e = lk::checkedMul(kMax, 2, "cosize");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "integer overflow in cosize");
}

// The largest int64 power of two is 2^62; every n in (2^62, 2^63) rounds up
// to 2^63, which is not an int64, so the rounding reports the overflow
// instead of wrapping (a doubling loop would wrap to 0 and never end).
TEST(Checked, NextPow2) {
  EXPECT_EQ(*lk::checkedNextPow2(1, "x"), 1);
  EXPECT_EQ(*lk::checkedNextPow2(5, "x"), 8);
  EXPECT_EQ(*lk::checkedNextPow2(int64_t(1) << 62, "x"), int64_t(1) << 62);
  EXPECT_EQ(*lk::checkedNextPow2((int64_t(1) << 61) + 1, "x"), int64_t(1)
                                                                   << 62);
  for (int64_t n : {(int64_t(1) << 62) + 1, int64_t(3) << 61, kMax}) {
    auto e = lk::checkedNextPow2(n, "the padded extent");
    ASSERT_FALSE(e) << n;
    EXPECT_EQ(e.error().message,
              "integer overflow in the padded extent: the power of two >= " +
                  std::to_string(n) + " is 2^63, beyond int64");
  }
  auto z = lk::checkedNextPow2(0, "the padded extent");
  ASSERT_FALSE(z);
  EXPECT_EQ(z.error().message, "the padded extent must be >= 1, got 0");
  EXPECT_FALSE(lk::checkedNextPow2(kMin, "x"));
  EXPECT_EQ(*lk::checkedPow2(62, "x"), int64_t(1) << 62);
  EXPECT_EQ(lk::checkedPow2(63, "size").error().message,
            "integer overflow in size: 2^63 is beyond int64");
  EXPECT_FALSE(lk::checkedPow2(-1, "size"));
}

TEST(Checked, StickyAccumulator) {
  lk::Arith ar;
  int64_t x = ar.mul(3, 4);
  EXPECT_TRUE(ar.ok());
  EXPECT_EQ(x, 12);
  ar.add(kMax, x);
  EXPECT_FALSE(ar.ok());
  ar.add(1, 1); // stays failed
  EXPECT_FALSE(ar.ok());
}

TEST(Checked, Division) {
  EXPECT_EQ(lk::ceilDiv(7, 2), 4);
  EXPECT_EQ(lk::ceilDiv(8, 2), 4);
  EXPECT_EQ(lk::ceilDiv(0, 5), 0);
  EXPECT_EQ(lk::ceilDiv(-7, 2), -3);
  EXPECT_EQ(lk::floorDiv(-7, 2), -4);
  EXPECT_EQ(lk::floorDiv(7, 2), 3);
  EXPECT_EQ(lk::gcd(12, 18), 6);
  EXPECT_EQ(lk::gcd(0, 5), 5);
  EXPECT_EQ(lk::gcd(-4, 6), 2);
}

TEST(Rational, NormalizesAndRejectsZeroDenominator) {
  auto half = lk::Rational::make(2, 4);
  ASSERT_TRUE(half);
  EXPECT_EQ(half->num(), 1);
  EXPECT_EQ(half->den(), 2);
  EXPECT_FALSE(half->isIntegral());
  EXPECT_EQ(half->str(), "1/2");
  auto neg = lk::Rational::make(3, -6);
  EXPECT_EQ(neg->str(), "-1/2");
  auto two = lk::Rational::make(4, 2);
  EXPECT_TRUE(two->isIntegral());
  EXPECT_EQ(two->asInteger(), 2);
  auto bad = lk::Rational::make(1, 0);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("zero denominator"), std::string::npos);
  EXPECT_FALSE(lk::Rational::make(kMin, 1));
}

TEST(Rational, Arithmetic) {
  auto a = *lk::Rational::make(1, 2);
  auto b = *lk::Rational::make(1, 3);
  EXPECT_EQ(a.add(b)->str(), "5/6");
  EXPECT_EQ(a.mul(b)->str(), "1/6");
  EXPECT_FALSE(lk::Rational(kMax).mul(lk::Rational(2)));
}

} // namespace
