//===- Table4Test.cpp - Mixed-precision dot operands --------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Expected values: the paper's Table 4 (per-pair case counts, 784 in all,
// and Triton-Linear's pass rate, every case) and hand derivations.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/paper/Table4.h"

#include <gtest/gtest.h>

namespace {

using namespace lk::paper;

// i8/f8, K = 16, mma only (1 configuration): 16 (M, N) shapes, each with
// an A and a B conversion, kWidth = 32 / 8 = 4.
TEST(PaperTable4, OneConfigurationIsSixteenShapes) {
  auto r = table4Row(8, 8, 1);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->pair, "i8/f8");
  EXPECT_EQ(r->total, 16);
  EXPECT_EQ(r->passed, 16) << r->firstFailure;
  EXPECT_EQ(r->noOp + r->registerPermutation + r->warpShuffle + r->sharedMemory,
            32);
}

TEST(PaperTable4, RejectsBadArguments) {
  EXPECT_FALSE(table4Row(12, 8, 1));
  auto r = table4Row(8, 8, 10);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("1 to 9 configurations, got 10"),
            std::string::npos);
}

struct PaperPair {
  const char *pair;
  int64_t total;
};
constexpr PaperPair kPaperPairs[] = {
    {"i16/f16", 64}, {"i16/f32", 32}, {"i16/f64", 32}, {"i16/f8", 96},
    {"i32/f16", 32}, {"i32/f64", 32}, {"i32/f8", 48},  {"i64/f16", 32},
    {"i64/f32", 32}, {"i64/f8", 48},  {"i8/f16", 96},  {"i8/f32", 48},
    {"i8/f64", 48},  {"i8/f8", 144}};

TEST(PaperTable4, AllSevenHundredEightyFourCasesPass) {
  auto t = table4();
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->total, 784);
  ASSERT_EQ(t->rows.size(), std::size(kPaperPairs));
  for (size_t i = 0; i < t->rows.size(); ++i) {
    const Table4Row &r = t->rows[i];
    SCOPED_TRACE(r.pair);
    EXPECT_EQ(r.pair, kPaperPairs[i].pair);
    EXPECT_EQ(r.total, kPaperPairs[i].total);
    EXPECT_EQ(r.passed, r.total) << r.firstFailure;
  }
  EXPECT_EQ(t->passed, 784);
}

} // namespace
