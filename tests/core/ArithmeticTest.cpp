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
