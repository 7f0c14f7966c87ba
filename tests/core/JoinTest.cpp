//===- JoinTest.cpp - joinIntegers ----------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
#include "layoutkit/core/Join.h"

#include <gtest/gtest.h>

#include <vector>

namespace lk {
namespace {

TEST(Join, SeparatorsOnlyBetweenItems) {
  const std::vector<int64_t> shape{8, 64};
  EXPECT_EQ(joinIntegers(shape, ","), "8,64");
  EXPECT_EQ(joinIntegers(shape, "x"), "8x64");
  EXPECT_EQ(joinIntegers(std::vector<int64_t>{-3}, ", "), "-3");
  EXPECT_EQ(joinIntegers(std::vector<int64_t>{}, ","), "");
  EXPECT_EQ(joinIntegers(std::vector<int64_t>{INT64_MIN, 0}, " "),
            "-9223372036854775808 0");
}

TEST(Join, CountedIsSingularForOne) {
  EXPECT_EQ(counted(1, "wavefront"), "1 wavefront");
  EXPECT_EQ(counted(0, "wavefront"), "0 wavefronts");
  EXPECT_EQ(counted(64, "iteration"), "64 iterations");
}

} // namespace
} // namespace lk
