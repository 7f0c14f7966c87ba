//===- CliAlgebraTest.cpp - One test per algebra subcommand ---------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every expected value is derived by hand in the comment above it, from
/// the definitions in Algebra.h (colexicographic coordinates, composition
/// R(c) = A(B(c))).
///
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

using lk::cli::testing::resultOf;
using lk::cli::testing::runCli;

namespace {

TEST(CliAlgebra, SizeCosizeRankDepth) {
  // ((2,4),8):((1,16),2): size 2*4*8 = 64;
  // cosize 1 + (2-1)*1 + (4-1)*16 + (8-1)*2 = 1 + 1 + 48 + 14 = 64.
  const std::string l = "((2,4),8):((1,16),2)";
  EXPECT_EQ(resultOf({"size", l}), "64");
  EXPECT_EQ(resultOf({"cosize", l}), "64");
  // Two top-level modes; the first is a tuple of leaves -> depth 2.
  EXPECT_EQ(resultOf({"rank", l}), "2");
  EXPECT_EQ(resultOf({"depth", l}), "2");
  // An integer shape has rank 1 and depth 0.
  EXPECT_EQ(resultOf({"rank", "8:1"}), "1");
  EXPECT_EQ(resultOf({"depth", "8:1"}), "0");
  EXPECT_EQ(resultOf({"rank", "(2,3,4):(1,2,6)"}), "3");
  // (4,3):(1,0): 1 + 3*1 + 2*0 = 4 although size is 12.
  EXPECT_EQ(resultOf({"cosize", "(4,3):(1,0)"}), "4");
  EXPECT_EQ(resultOf({"size", "(4,3):(1,0)"}), "12");
}

TEST(CliAlgebra, Coalesce) {
  // (2,4):(1,2): the second stride 2 equals 2*1, so the modes merge: 8:1.
  EXPECT_EQ(resultOf({"coalesce", "(2,4):(1,2)"}), "8:1");
  // (2,4):(8,1): 1 != 2*8, nothing merges.
  EXPECT_EQ(resultOf({"coalesce", "(2,4):(8,1)"}), "(2,4):(8,1)");
  // Size-1 modes are dropped first: ((2,1),(1,4)) -> (2,4):(1,2) -> 8:1.
  EXPECT_EQ(resultOf({"coalesce", "((2,1),(1,4)):((1,7),(9,2))"}), "8:1");
  // With profile (1,1) each top-level mode is coalesced alone:
  // 2:1 stays, (1,4):(6,2) -> 4:2; result (2,4):(1,2) (not merged to 8:1).
  EXPECT_EQ(resultOf({"coalesce", "(2,(1,4)):(1,(6,2))", "--profile", "(1,1)"}),
            "(2,4):(1,2)");
}

TEST(CliAlgebra, FilterAndFilterZeros) {
  // (4,3):(1,0): the stride-0 mode gets shape 1 -> (4,1):(1,0) ...
  EXPECT_EQ(resultOf({"filter_zeros", "(4,3):(1,0)"}), "(4,1):(1,0)");
  // ... and coalescing drops it: 4:1.
  EXPECT_EQ(resultOf({"filter", "(4,3):(1,0)"}), "4:1");
  // Profile (1,1): mode 0 4:1 stays; mode 1 (3,2):(0,4) -> (1,2):(0,4) -> 2:4.
  EXPECT_EQ(resultOf({"filter", "(4,(3,2)):(1,(0,4))", "--profile", "(1,1)"}),
            "(4,2):(1,4)");
}

TEST(CliAlgebra, FlattenAndGroupModes) {
  EXPECT_EQ(resultOf({"flatten", "((2,4),8):((1,16),2)"}), "(2,4,8):(1,16,2)");
  // Modes [0,2) become one mode; mode 2 stays.
  EXPECT_EQ(resultOf({"group_modes", "(2,4,8):(1,2,8)", "0", "2"}),
            "((2,4),8):((1,2),8)");
  EXPECT_EQ(resultOf({"group_modes", "(2,4,8):(1,2,8)", "1", "3"}),
            "(2,(4,8)):(1,(2,8))");
}

TEST(CliAlgebra, Composition) {
  // B = (2,2):(1,2) maps (c0,c1) -> c0 + 2*c1 in [0,4); A = (4,2):(1,4) is
  // the identity on [0,4), so R = B's shape with B's strides: (2,2):(1,2).
  EXPECT_EQ(resultOf({"composition", "(4,2):(1,4)", "(2,2):(1,2)"}),
            "(2,2):(1,2)");
  // A(B(i)) = 2 * (1 * i) -> 4:2.
  EXPECT_EQ(resultOf({"composition", "8:2", "4:1"}), "4:2");
  // By-mode: mode 0 is 8:1 o 2:2 = 2:2; `_` keeps mode 1 = 8:8.
  EXPECT_EQ(resultOf({"composition", "(8,8):(1,8)", "(2:2,_)"}), "(2,8):(2,8)");
  // A bare integer tiler n composes as n:1, also for n == 1 (CuTe):
  // 12:8 o 1:1 = 1:8, while the layout 1:0 gives 1:0.
  EXPECT_EQ(resultOf({"composition", "12:8", "1"}), "1:8");
  EXPECT_EQ(resultOf({"composition", "12:8", "1:0"}), "1:0");
  EXPECT_EQ(resultOf({"composition", "12:8", "4"}), "4:8");
}

TEST(CliAlgebra, Complement) {
  // 4:32 covers {0,32,64,96}; the gaps 0..31 give 32:1 and the rest of 256
  // repeats the 128-span twice: (32,2):(1,128).
  EXPECT_EQ(resultOf({"complement", "4:32", "256"}), "(32,2):(1,128)");
  // Cotarget 128 is reached by the 32:1 part alone.
  EXPECT_EQ(resultOf({"complement", "4:32", "128"}), "32:1");
  // 4:2 covers {0,2,4,6}; the default cotarget cosize = 7 is filled by the
  // odd step: 2:1.
  EXPECT_EQ(resultOf({"complement", "4:2"}), "2:1");
}

TEST(CliAlgebra, Inverses) {
  // L = (4,2):(2,1): L(a,b) = 2a + b is a bijection onto [0,8). Its inverse
  // reads offset o = b + 2a (b fastest, extent 2) and returns a + 4b:
  // (2,4):(4,1). Being a bijection, left and right inverses coincide.
  EXPECT_EQ(resultOf({"right_inverse", "(4,2):(2,1)"}), "(2,4):(4,1)");
  EXPECT_EQ(resultOf({"left_inverse", "(4,2):(2,1)"}), "(2,4):(4,1)");
  // The inverse of the identity is the identity.
  EXPECT_EQ(resultOf({"right_inverse", "8:1"}), "8:1");
}

TEST(CliAlgebra, MaxCommon) {
  // (4,2):(1,4) is the identity of [0,8) like 8:1: all 8 elements shared.
  EXPECT_EQ(resultOf({"max_common_layout", "(4,2):(1,4)", "8:1"}), "8:1");
  // (4,2):(1,8): A(i) = i for i < 4 but A(4) = 8 != 4: 4 elements.
  EXPECT_EQ(resultOf({"max_common_vector", "(4,2):(1,8)", "8:1"}), "4");
  // (2,4):(4,1): A(1) = 4 != 1: only element 0 is shared.
  EXPECT_EQ(resultOf({"max_common_vector", "(2,4):(4,1)", "8:1"}), "1");
}

TEST(CliAlgebra, Divides) {
  // 128:1 / 32:1: tile 32:1, rest = complement(32:1, 128) = 4:32.
  EXPECT_EQ(resultOf({"logical_divide", "128:1", "32:1"}), "(32,4):(1,32)");
  // (8,8):(1,8) by (2:1,4:1), mode by mode:
  //   mode 0: 8:1 / 2:1 = (2,4):(1,2)   (tile 2:1, rest 4:2)
  //   mode 1: 8:8 / 4:1 = (4,2):(8,32)  (tile 8:8 o 4:1 = 4:8, rest 2:32)
  const std::string a = "(8,8):(1,8)", t = "(2:1,4:1)";
  EXPECT_EQ(resultOf({"logical_divide", a, t}), "((2,4),(4,2)):((1,2),(8,32))");
  // zipped: ((tile0,tile1),(rest0,rest1)).
  EXPECT_EQ(resultOf({"zipped_divide", a, t}), "((2,4),(4,2)):((1,8),(2,32))");
  // tiled: ((tile0,tile1),rest0,rest1).
  EXPECT_EQ(resultOf({"tiled_divide", a, t}), "((2,4),4,2):((1,8),2,32)");
  // flat: (tile0,tile1,rest0,rest1).
  EXPECT_EQ(resultOf({"flat_divide", a, t}), "(2,4,4,2):(1,8,2,32)");
}

TEST(CliAlgebra, Products) {
  // A = (2,2):(1,2) covers [0,4); complement(A, 4*3) = 3:4; 3:4 o 3:1 = 3:4.
  EXPECT_EQ(resultOf({"logical_product", "(2,2):(1,2)", "3:1"}),
            "((2,2),3):((1,2),4)");
  // complement(128:1, 128*cosize(4:32) = 128*97) = 97:128; 97:128 o 4:32
  // = 4:4096 (docs/design.md §4).
  EXPECT_EQ(resultOf({"logical_product", "128:1", "4:32"}), "(128,4):(1,4096)");
  // By mode with (3:1,4:1):
  //   mode 0: 2:1 x 3:1: complement(2:1, 6) = 3:2 -> (2,3):(1,2)
  //   mode 1: 2:2 x 4:1: complement(2:2, 8) = (2,2):(1,4) ->
  //   (2,(2,2)):(2,(1,4))
  const std::string a = "(2,2):(1,2)", t = "(3:1,4:1)";
  EXPECT_EQ(resultOf({"zipped_product", a, t}),
            "((2,2),(3,(2,2))):((1,2),(2,(1,4)))");
  EXPECT_EQ(resultOf({"tiled_product", a, t}),
            "((2,2),3,(2,2)):((1,2),2,(1,4))");
  EXPECT_EQ(resultOf({"flat_product", a, t}), "(2,2,3,(2,2)):(1,2,2,(1,4))");
}

TEST(CliAlgebra, BlockedAndRakedProducts) {
  // logical_product((2,2):(1,2), (2,3):(1,2)): cosize(B) = 1+1+2*2 = 6,
  // complement(A, 4*6) = 6:4, 6:4 o (2,3):(1,2) = (2,3):(4,8).
  // So X = (2,3):(4,8).
  //   blocked: mode i = (A_i, X_i) -> ((2,2),(2,3)):((1,4),(2,8))
  //   raked:   mode i = (X_i, A_i) -> ((2,2),(3,2)):((4,1),(8,2))
  EXPECT_EQ(resultOf({"blocked_product", "(2,2):(1,2)", "(2,3):(1,2)"}),
            "((2,2),(2,3)):((1,4),(2,8))");
  EXPECT_EQ(resultOf({"raked_product", "(2,2):(1,2)", "(2,3):(1,2)"}),
            "((2,2),(3,2)):((4,1),(8,2))");
}

TEST(CliAlgebra, ShapeArithmetic) {
  // (4,6) / 8 exact: 8 % 4 == 0 -> mode 0 becomes 1, divisor 8/4 = 2;
  // 6 / 2 = 3.
  EXPECT_EQ(resultOf({"shape_div", "(4,6)", "8"}), "(1,3)");
  // (6,4) / 4 ceil: ceil(6/4) = 2, remaining ceil(4/6) = 1; 4/1 = 4.
  EXPECT_EQ(resultOf({"shape_div", "(6,4)", "4", "--rounding", "ceil"}),
            "(2,4)");
  // floor: floor(6/4) = 1, remaining 1; 4.
  EXPECT_EQ(resultOf({"shape_div", "(6,4)", "4", "--rounding", "floor"}),
            "(1,4)");
  // 6 / 4 exact: neither divides the other.
  EXPECT_EQ(runCli({"shape_div", "6", "4"}).status, 1);
  EXPECT_EQ(resultOf({"ceil_div", "(6,4)", "4"}), "(2,4)");
  // ceil(10/4) = 3.
  EXPECT_EQ(resultOf({"ceil_div", "10", "4"}), "3");
}

TEST(CliAlgebra, Equivalent) {
  // (2,4):(1,2) is i -> i on [0,8), as is 8:1.
  EXPECT_EQ(resultOf({"equivalent", "(2,4):(1,2)", "8:1"}), "true");
  // (2,4):(4,1) sends 1 -> 4.
  // Like cmp, "not equivalent" is exit status 1 (with the answer printed).
  lk::cli::testing::CliRun r = runCli({"equivalent", "(2,4):(4,1)", "8:1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.line(), "false");
  EXPECT_EQ(r.err, "");
}

} // namespace
