//===- CliInspectTest.cpp - eval, idx2crd, swizzle ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

using lk::cli::testing::resultOf;
using lk::cli::testing::runCli;

namespace {

TEST(CliEval, CongruentCoordinate) {
  // ((2,4),8):((1,16),2) at ((1,2),3): 1*1 + 2*16 + 3*2 = 39.
  EXPECT_EQ(resultOf({"eval", "((2,4),8):((1,16),2)", "((1,2),3)"}), "39");
}

TEST(CliEval, OneDimensionalCoordinate) {
  // 5 splits colexicographically over ((2,4),8): 5 = 1 + 2*2 -> ((1,2),0):
  // 1 + 32 = 33.
  EXPECT_EQ(resultOf({"eval", "((2,4),8):((1,16),2)", "5"}), "33");
  // Per-mode integers: (7, 3) -> mode 0 splits 7 = 1 + 2*3 -> 1 + 48 + 6 = 55.
  EXPECT_EQ(resultOf({"eval", "((2,4),8):((1,16),2)", "(7,3)"}), "55");
}

TEST(CliEval, BasisStridesGiveCodomainTuple) {
  // (4,8):(1@0,1@1) is the identity of 4x8: (3,5) -> (3,5).
  EXPECT_EQ(resultOf({"eval", "(4,8):(1@0,1@1)", "(3,5)"}), "(3,5)");
  // 1-D 13 = 1 + 4*3 -> (1,3).
  EXPECT_EQ(resultOf({"eval", "(4,8):(1@0,1@1)", "13"}), "(1,3)");
}

TEST(CliEval, SwizzledLayout) {
  // Row 2 of (8,64):(64,1) starts at 128 = bit 7, XORed into bit 4: 144.
  EXPECT_EQ(resultOf({"eval", "Sw<3,4,3> o (8,64):(64,1)", "(2,0)"}), "144");
  // With an offset: Sw(32 + 96) = Sw(128) = 144.
  EXPECT_EQ(resultOf({"eval", "Sw<3,4,3> o 32 o (8,64):(64,1)", "(1,32)"}),
            "144");
}

TEST(CliIdx2crd, Colexicographic) {
  // 5 in ((2,4),8): 5 mod 2 = 1, (5 div 2) mod 4 = 2, 5 div 8 = 0.
  EXPECT_EQ(resultOf({"idx2crd", "5", "((2,4),8)"}), "((1,2),0)");
  // 7 in (3,4): 7 mod 3 = 1, 7 div 3 = 2.
  EXPECT_EQ(resultOf({"idx2crd", "7", "(3,4)"}), "(1,2)");
  // An integer shape returns the index.
  EXPECT_EQ(resultOf({"idx2crd", "6", "8"}), "6");
  // Out of range.
  EXPECT_EQ(runCli({"idx2crd", "12", "(3,4)"}).status, 1);
}

TEST(CliSwizzle, Formula) {
  // Sw<3,4,3>: bits [7,10) XOR into bits [4,7). 128 = bit 7 -> 128 ^ 16.
  EXPECT_EQ(resultOf({"swizzle", "3", "4", "3", "128"}), "144");
  // Self-inverse: 144 has bit 7, so 144 ^ 16 = 128.
  EXPECT_EQ(resultOf({"swizzle", "3", "4", "3", "144"}), "128");
  // 24 = bits 3,4: nothing in [7,10) -> unchanged.
  EXPECT_EQ(resultOf({"swizzle", "3", "4", "3", "24"}), "24");
  // B = 0 is the identity.
  EXPECT_EQ(resultOf({"swizzle", "0", "4", "3", "1000"}), "1000");
}

TEST(CliSwizzle, NegativeShift) {
  // B=3, M=5, S=-3: Y = 7 << 5 = 224; 3622 = 0b111000100110, 3622 & 224 = 32;
  // shifted left by 3 -> 256; 3622 ^ 256 = 3878 (bit 8 was clear).
  EXPECT_EQ(resultOf({"swizzle", "3", "5", "-3", "3622"}), "3878");
}

TEST(CliSwizzle, OutOfRangeParameters) {
  lk::cli::testing::CliRun r = runCli({"swizzle", "40", "30", "3", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("out of range"), std::string::npos) << r.err;
}

} // namespace
