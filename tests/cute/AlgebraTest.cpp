//===- AlgebraTest.cpp - Unit tests of the layout algebra -----------------===//
//
// Expected values are derived by hand in the comments; the worked examples
// of docs/design.md §6.5 appear as §4 there decides them.
//
//===----------------------------------------------------------------------===//

#include "support/AlgebraTestSupport.h"

#include "layoutkit/cute/Swizzle.h"

#include <algorithm>
#include <limits>

namespace lk::cute {
namespace {

using testing::L;
using testing::T;

std::string str(const Expected<Layout> &l) {
  return l ? l->str() : "error: " + l.error().message;
}

TEST(Layout, SizeCosizeRankDepth) {
  Layout l = L("((2,4),8):((1,16),2)");
  EXPECT_EQ(l.size(), 64);
  EXPECT_EQ(*l.cosize(), 1 + 1 * 1 + 3 * 16 + 7 * 2);
  EXPECT_EQ(l.rank(), 2u);
  EXPECT_EQ(l.depth(), 2);
  EXPECT_EQ(L("8:1").rank(), 1u);
  EXPECT_EQ(L("8:1").depth(), 0);
  // Basis strides: no one cosize; the one message every front end shows.
  Expected<int64_t> basis = L("(4,8):(1@0,1@1)").cosize();
  EXPECT_EQ(basis.error().message,
            "cosize is not defined for the basis-stride layout "
            "(4,8):(1@0,1@1)");
  ASSERT_EQ(basis.error().notes.size(), 1u);
}

TEST(Layout, MakeChecksCongruenceAndShape) {
  EXPECT_FALSE(Layout::make(IntTuple::tuple({2, 4}), IntTuple(1)));
  EXPECT_FALSE(Layout::make(IntTuple(0), IntTuple(1)));
  EXPECT_TRUE(Layout::make(IntTuple(3), IntTuple(-2)));
  EXPECT_EQ(Layout::compact(IntTuple::tuple({2, 1, 4}))->str(),
            "(2,1,4):(1,0,2)");
}

TEST(Evaluation, Crd2idxAllCoordinateForms) {
  Layout l = L("((2,4),8):((1,16),2)");
  // Congruent: 1*1 + 2*16 + 3*2 = 39.
  EXPECT_EQ(*crd2idx(*parseIntTuple("((1,2),3)"), l), 39);
  // An int per tuple mode: 5 in (2,4) is (1,2).
  EXPECT_EQ(*crd2idx(*parseIntTuple("(5,3)"), l), 39);
  // 1-D: 5 + 8*3 = 29 -> ((1,2),3).
  EXPECT_EQ(*crd2idx(IntTuple(29), l), 39);
  EXPECT_EQ(evaluate(l, 29), 39);
  // Past size: the last mode continues, 64 -> ((0,0),8) -> 16.
  EXPECT_EQ(*crd2idx(IntTuple(64), l), 16);
  EXPECT_FALSE(crd2idx(*parseIntTuple("(1,2,3)"), l));
}

TEST(Evaluation, Idx2crdIsColexicographic) {
  // 29 in ((2,4),8): 29 mod 2 = 1, 14 mod 4 = 2, 3 mod 8 = 3.
  EXPECT_EQ(idx2crd(29, *parseIntTuple("((2,4),8)"))->str(), "((1,2),3)");
  EXPECT_EQ(idx2crd(5, IntTuple(8))->str(), "5");
  EXPECT_FALSE(idx2crd(64, *parseIntTuple("((2,4),8)")));
  EXPECT_FALSE(idx2crd(-1, IntTuple(8)));
}

TEST(Evaluation, BasisStridesMapIntoATupleCodomain) {
  Layout id = L("(4,8):(1@0,1@1)");
  EXPECT_EQ(crd2offset(*parseIntTuple("(3,5)"), id)->str(), "(3,5)");
  EXPECT_EQ(crd2offset(IntTuple(7), id)->str(), "(3,1)"); // 7 -> (3,1)
  // crd2idx says why, in the terms of every front end (no C++ name).
  EXPECT_EQ(crd2idx(IntTuple(7), id).error().message,
            "crd2idx: layout (4,8):(1@0,1@1) has basis strides (or the "
            "coordinate has a basis leaf); its value is a tuple, not an index "
            "(evaluate the layout instead)");
  Expected<IntTuple> big =
      crd2offset(IntTuple(INT64_MAX), L("(4,8):(1@0,1000@1)"));
  ASSERT_FALSE(big);
  EXPECT_EQ(
      big.error().message.rfind("integer overflow in the layout's value", 0),
      0u)
      << big.error().message;
  // Nested basis 1@1@0 lands at codomain position (1,0).
  Layout nested = L("(2,3):(1@0,1@1@0)");
  EXPECT_EQ(crd2offset(*parseIntTuple("(1,2)"), nested)->str(), "(1,(2))");
}

TEST(Structure, CoalesceExamples) {
  EXPECT_EQ(coalesce(L("(2,4):(1,2)")).str(), "8:1");
  // The contiguity example (docs/design.md §6.5) in colexicographic order: the
  // first mode is the fastest, so (4,2):(1,4) fuses to 8:1 ...
  EXPECT_EQ(coalesce(L("(4,2):(1,4)")).str(), "8:1");
  // ... while (2,4):(4,1) and (2,4):(8,1) do not fuse (see docs/cute.md).
  EXPECT_EQ(coalesce(L("(2,4):(4,1)")).str(), "(2,4):(4,1)");
  EXPECT_EQ(coalesce(L("(2,4):(8,1)")).str(), "(2,4):(8,1)");
  EXPECT_EQ(coalesce(L("(2,(1,6)):(1,(6,2))")).str(), "12:1");
  EXPECT_EQ(coalesce(L("(1,1):(3,5)")).str(), "1:0");
  EXPECT_EQ(coalesce(L("(4,3):(0,0)")).str(), "12:0");
  // With a profile: only mode 0 is coalesced.
  EXPECT_EQ(
      coalesce(L("((2,4),(2,4)):((1,2),(8,16))"), *parseIntTuple("(1,(1,1))"))
          ->str(),
      "(8,(2,4)):(1,(8,16))");
}

TEST(Structure, FilterZerosAndFilter) {
  // The broadcast example (docs/design.md §6.5): filter_zeros keeps the
  // structure and sets
  // the broadcast extent to 1; filter also drops it.
  EXPECT_EQ(filter_zeros(L("(4,3):(1,0)")).str(), "(4,1):(1,0)");
  EXPECT_EQ(filter(L("(4,3):(1,0)")).str(), "4:1");
  EXPECT_EQ(filter(L("(2,3,4):(0,2,6)")).str(), "12:2");
}

TEST(Structure, FlattenAndGroupModes) {
  EXPECT_EQ(flatten(L("((2,4),(8,(3,5))):((1,2),(8,(64,192)))")).str(),
            "(2,4,8,3,5):(1,2,8,64,192)");
  EXPECT_EQ(group_modes(L("(4,8,16):(1,4,32)"), 0, 2)->str(),
            "((4,8),16):((1,4),32)");
  EXPECT_EQ(group_modes(L("(4,8,16):(1,4,32)"), 1, 3)->str(),
            "(4,(8,16)):(1,(4,32))");
  EXPECT_FALSE(group_modes(L("(4,8):(1,4)"), 1, 3));
}

TEST(Composition, SpecExamplesInCuTeOrder) {
  // composition(A,B)(i) = A(B(i)). The dense example of docs/design.md §6.5
  // in this order: A = 8:2, B = 4:1 gives i -> 2i on [0,4).
  EXPECT_EQ(str(composition(L("8:2"), L("4:1"))), "4:2");
  // Hierarchical example: B's image {0,1,2,3} stays inside A's first mode.
  EXPECT_EQ(str(composition(L("(4,2):(1,4)"), L("(2,2):(1,2)"))),
            "(2,2):(1,2)");
}

TEST(Composition, ReachesPastSizeAlongTheLastMode) {
  // A = (4,2):(1,8); B = 16:1 walks 4 along mode 0 then 4 along mode 1,
  // which continues past A's size 8.
  EXPECT_EQ(str(composition(L("(4,2):(1,8)"), L("16:1"))), "(4,4):(1,8)");
}

TEST(Composition, ByModeDropsTrailingModes) {
  // (8,4,2):(1,8,32) with tiler (2:2, _): mode 0 -> 2:2, mode 1 kept,
  // mode 2 dropped (CuTe C++ behaviour).
  EXPECT_EQ(str(composition(L("(8,4,2):(1,8,32)"), T("(2:2,_)"))),
            "(2,4):(2,8)");
  // A bare integer tiler composes as n:1, also for n == 1.
  EXPECT_EQ(str(composition(L("12:8"), T("1"))), "1:8");
}

TEST(Composition, DivisibilityFailuresNameTheModes) {
  auto stride = composition(L("(6,4,8):(32,8,1)"), L("6:8"));
  ASSERT_FALSE(stride);
  EXPECT_NE(stride.error().message.find("stride divisibility"),
            std::string::npos);
  EXPECT_NE(stride.error().message.find("mode 0 (6:32)"), std::string::npos);
  auto shape = composition(L("(16,2):(2,1)"), L("45:1"));
  ASSERT_FALSE(shape);
  EXPECT_NE(shape.error().message.find("shape divisibility"),
            std::string::npos);
}

TEST(Composition, IllPosedInputsAreErrorsNotWrongLayouts) {
  // CuTe accepts these, but its answer breaks R(c) = A(B(c)):
  // stride 3 steps across A's mode of extent 4 unevenly ...
  EXPECT_FALSE(composition(L("(4,16):(8,5)"), L("(4,6,8):(3,24,144)")));
  // ... and (32,2):(1,32) composed leaf by leaf carries across A's modes.
  EXPECT_FALSE(
      composition(L("((8,6,4,3),4):((288,48,12,4),1)"), L("(32,2):(1,32)")));
}

TEST(Composition, NegativeStridesAcrossModesAreRefused) {
  // B = (2,2):(2,-1) at (1,1) is 1, and A(1) = 1; CuTe's mode-by-mode
  // construction would give 10 - 1 = 9.
  auto r = composition(L("(2,2):(1,10)"), L("(2,2):(2,-1)"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("negative stride"), std::string::npos);
  // On a single-mode A a negative stride is exact: 8:3 o 4:-1 = 4:-3.
  EXPECT_EQ(str(composition(L("8:3"), L("4:-1"))), "4:-3");
}

TEST(Complement, DesignDecisions) {
  // docs/design.md §4: complement(4:32, 256) is (32,2):(1,128); 32:1 is the
  // complement for cotarget 128.
  EXPECT_EQ(str(complement(L("4:32"), IntTuple(256))), "(32,2):(1,128)");
  EXPECT_EQ(str(complement(L("4:32"), IntTuple(128))), "32:1");
  // Default cotarget cosize(filter(L)) = 7: gaps at 1 and the tail.
  EXPECT_EQ(str(complement(L("4:2"))), "2:1");
  EXPECT_EQ(str(complement(L("(2,2):(1,2)"), IntTuple(16))), "4:4");
  // All-broadcast layout: the complement is the whole cotarget.
  EXPECT_EQ(str(complement(L("4:0"), IntTuple(8))), "8:1");
}

TEST(Complement, ExtentPastInt64) {
  // 2:2^62 over its cosize 2^62 + 1: the gap below 2^62 is 2^62:1, and the
  // extent 2 * 2^62 = 2^63 (past int64) exceeds the cotarget: no rest.
  const int64_t big = int64_t(1) << 62;
  Layout l = Layout::unchecked(IntTuple(2), IntTuple(big));
  EXPECT_EQ(str(complement(l)), std::to_string(big) + ":1");
  // With a cotarget of two modes the fold needs that extent: refused.
  Expected<Layout> two =
      complement(l, IntTuple::tuple({IntTuple(big), IntTuple(4)}));
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().message.find("does not fit in int64"),
            std::string::npos)
      << two.error().message;
}

TEST(Complement, NonInjectiveIsAnError) {
  auto r = complement(L("(2,2):(1,1)"), IntTuple(8));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("non-injective"), std::string::npos);
}

TEST(Divide, SpecExample) {
  // logical_divide(128:1, 32:1) = ((32:1),(4:32)).
  EXPECT_EQ(str(logical_divide(L("128:1"), T("32:1"))), "(32,4):(1,32)");
  // zipped/tiled/flat regroup ((tile),(rest)).
  Layout a = L("(8,16):(16,1)");
  Tiler t = T("(2:1,4:1)");
  // Mode 0: 8:16 split into a tile of 2 and 4 tiles: (2,4):(16,32).
  // Mode 1: 16:1 split into 4 and 4: (4,4):(1,4).
  EXPECT_EQ(str(logical_divide(a, t)), "((2,4),(4,4)):((16,32),(1,4))");
  EXPECT_EQ(str(zipped_divide(a, t)), "((2,4),(4,4)):((16,1),(32,4))");
  EXPECT_EQ(str(tiled_divide(a, t)), "((2,4),4,4):((16,1),32,4)");
  EXPECT_EQ(str(flat_divide(a, t)), "(2,4,4,4):(16,1,32,4)");
}

// The regroupings follow the tiler's profile (CuTe's zip2_by). The
// logical divides: (4,6):(1,4) by (2:1) is ((2,2),6):((1,2),4) (mode 0
// split into tile 2:1 and rest 2:2, mode 1 past the tiler kept); by the
// nested ((2:1,2:1),3:1), ((4,2),6,3) gives (((2,2),(2,1)),(3,2),3) with
// strides (((1,2),(4,0)),(8,24),48). Zipped gathers the tiles, then the
// rests and the modes past the tiler; tiled unpacks the second part, flat
// both, except that a part of one mode stays whole ((2) below).
TEST(Divide, RegroupsFollowTheTilersProfile) {
  Layout a = L("(4,6):(1,4)");
  Tiler t = T("(2:1)");
  EXPECT_EQ(str(zipped_divide(a, t)), "((2),(2,6)):((1),(2,4))");
  EXPECT_EQ(str(tiled_divide(a, t)), "((2),2,6):((1),2,4)");
  EXPECT_EQ(str(flat_divide(a, t)), "((2),2,6):((1),2,4)");
  Layout b = L("((4,2),6,3):((1,4),8,48)");
  Tiler n = T("((2:1,2:1),3:1)");
  EXPECT_EQ(str(zipped_divide(b, n)),
            "(((2,2),3),((2,1),2,3)):(((1,4),8),((2,0),24,48))");
  EXPECT_EQ(str(tiled_divide(b, n)),
            "(((2,2),3),(2,1),2,3):(((1,4),8),(2,0),24,48)");
  EXPECT_EQ(str(flat_divide(b, n)),
            "((2,2),3,(2,1),2,3):((1,4),8,(2,0),24,48)");
  // A tiler that is one layout divides the whole layout: (tile, rest).
  EXPECT_EQ(str(zipped_divide(L("(8,8):(8,1)"), T("4:1"))),
            "(4,(2,8)):(8,(32,1))");
  EXPECT_EQ(str(flat_divide(L("(8,8):(8,1)"), T("4:1"))), "(4,2,8):(8,32,1)");
  // A kept mode (`_`) inside a nested tiler is no (tile, rest) pair.
  Expected<Layout> kept =
      zipped_divide(L("((4,2),6):((1,4),8)"), T("((2:1,_),3:1)"));
  ASSERT_FALSE(kept);
  EXPECT_EQ(kept.error().message,
            "zipped_divide: expected a rank-2 (tile, rest) mode but found 2:4 "
            "(the tiler's `_` keeps that mode whole: a grouping needs a tile "
            "there)");
  Expected<Layout> keptTiled =
      tiled_divide(L("((4,2),6):((1,4),8)"), T("((2:1,_),3:1)"));
  ASSERT_FALSE(keptTiled);
  EXPECT_EQ(keptTiled.error().message.rfind("tiled_divide: ", 0), 0u)
      << keptTiled.error().message;
}

TEST(Product, RestFaultNamesTheProduct) {
  // A = (8,1):(2,1), B = 3:1: size(A)*cosize(B) = 24, the complement of
  // 8:2 there is (2,2):(1,16), and 3:1 does not divide its first mode 2:1.
  Expected<Layout> p = logical_product(L("(8,1):(2,1)"), T("3:1"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message.rfind(
                "logical_product: rest = complement(A, size(A)*cosize(B) = "
                "24) o B = (2,2):(1,16) o 3:1 fails: composition: ",
                0),
            0u)
      << p.error().message;
  EXPECT_TRUE(p.error().notes.empty());
}

TEST(Product, SpecExampleAsDecided) {
  // docs/design.md §4: logical_product(128:1, 4:32) = (128,4):(1,4096): the
  // complement of 128:1 in 128*cosize(4:32) = 12416 is 97:128, and
  // composing it with 4:32 gives 4:4096.
  EXPECT_EQ(str(logical_product(L("128:1"), T("4:32"))), "(128,4):(1,4096)");
  EXPECT_EQ(str(logical_product(L("128:1"), T("4:1"))), "(128,4):(1,128)");
}

TEST(Product, OverlappingCopiesAreAnError) {
  // complement((3,5):(3,17), 60) is only 3:1 (17 is not a multiple of 9),
  // too small for B = 4:1: CuTe would return ((3,5),4):((3,17),1), where
  // ((1,0),0) and ((0,0),3) both map to 3.
  auto r = logical_product(L("(3,5):(3,17)"), T("4:1"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("overlap"), std::string::npos);
}

TEST(Product, BlockedAndRaked) {
  // A 2x2 block over a 2x3 grid. X = complement(A, 4*cosize(B) = 24) o B
  // = 6:4 o (2,3):(1,2) = (2,3):(4,8). blocked: mode i = (A_i, X_i);
  // raked: mode i = (X_i, A_i).
  Layout a = L("(2,2):(1,2)");
  Layout b = L("(2,3):(1,2)");
  EXPECT_EQ(str(blocked_product(a, b)), "((2,2),(2,3)):((1,4),(2,8))");
  EXPECT_EQ(str(raked_product(a, b)), "((2,2),(3,2)):((4,1),(8,2))");
}

TEST(Inverse, RightAndLeft) {
  // (4,2):(2,1) takes i = 2*c0 + c1; the inverse enumerates c1 then c0.
  EXPECT_EQ(str(right_inverse(L("(4,2):(2,1)"))), "(2,4):(4,1)");
  EXPECT_EQ(str(left_inverse(L("(4,2):(2,1)"))), "(2,4):(4,1)");
  // Equal strides: CuTe's exchange sort decides which mode is used.
  EXPECT_EQ(str(right_inverse(L("(8,12):(1,1)"))), "8:1");
  // A gap: the right inverse stops where the contiguous run ends.
  EXPECT_EQ(str(right_inverse(L("(4,2):(1,8)"))), "4:1");
}

TEST(Inverse, LeftInverseOfNonInjectiveLayoutIsAnError) {
  EXPECT_FALSE(left_inverse(L("(3,16,4):(0,24,12)")));
}

// A fault names the operation called; one found in a step of it names the
// step after it ("zipped_product: logical_product: ...").
TEST(Limits, FaultsNameTheOperationCalled) {
  const Layout basis = L("(4,8):(1@0,1@1)"), plain = L("(4,8):(1,4)");
  const Layout leafBasis = L("2:1@1");
  auto message = [](const auto &r) {
    return r ? std::string("no fault") : r.error().message;
  };
  const std::string needs = " has basis strides; this operation needs "
                            "integer strides";
  EXPECT_EQ(message(max_common_vector(plain, basis)),
            "max_common_vector: layout (4,8):(1@0,1@1)" + needs);
  EXPECT_EQ(message(max_common_layout(basis, plain)),
            "max_common_layout: layout (4,8):(1@0,1@1)" + needs);
  EXPECT_EQ(message(blocked_product(basis, L("2:1"))),
            "blocked_product: layout (4,8):(1@0,1@1)" + needs);
  EXPECT_EQ(message(raked_product(plain, leafBasis)),
            "raked_product: layout 2:1@1" + needs);
  const Tiler byLeaf = Tiler::of(leafBasis);
  const Tiler byModes = Tiler::tuple({byLeaf, Tiler::of(L("2:1"))});
  // Zipped by a layout tiler is the divide or product itself, and reports
  // as it.
  const std::pair<Expected<Layout>, std::string> steps[] = {
      {zipped_product(plain, byLeaf), "logical_product: "},
      {zipped_product(plain, byModes), "zipped_product: logical_product: "},
      {tiled_product(plain, byModes), "tiled_product: logical_product: "},
      {logical_divide(plain, byLeaf), "logical_divide: complement: "},
      {zipped_divide(plain, byLeaf), "logical_divide: complement: "},
      {flat_divide(plain, byModes),
       "flat_divide: logical_divide: complement: "}};
  for (const auto &[result, prefix] : steps)
    EXPECT_EQ(message(result), prefix + "layout 2:1@1" + needs);
}

TEST(Limits, ResultsThatDoNotFitAreErrors) {
  // size 2^40 * 2^40 overflows int64.
  Layout big = *Layout::make(IntTuple(int64_t(1) << 40), IntTuple(1));
  Layout bcast = *Layout::make(IntTuple(int64_t(1) << 40), IntTuple(0));
  auto d = logical_divide(big, Tiler::of(bcast));
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("does not fit"), std::string::npos);
  // Offsets beyond int64, and the stride INT64_MIN, are refused up front.
  int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_FALSE(
      Layout::make(IntTuple::tuple({2, 2}), IntTuple::tuple({max, max})));
  EXPECT_FALSE(
      Layout::make(IntTuple(2), IntTuple(std::numeric_limits<int64_t>::min())));
  EXPECT_FALSE(Swizzle::make(1, max, max));
}

TEST(Limits, EmptyLayoutsBehaveLikeTheTrivialLayout) {
  // (): the empty tuple has size 1 and maps its only point to 0, like 1:0.
  Layout e = L("():()");
  EXPECT_EQ(e.size(), 1);
  EXPECT_EQ(coalesce(e).str(), "1:0");
  EXPECT_EQ(str(composition(e, L("4:1"))), "4:0");
  EXPECT_EQ(str(complement(e, IntTuple(4))), "4:1");
  EXPECT_EQ(str(right_inverse(e)), "1:0");
  EXPECT_EQ(str(left_inverse(e)), "1:0");
  EXPECT_TRUE(logical_divide(e, T("2")));
  EXPECT_TRUE(logical_product(e, T("2:1")));
  EXPECT_TRUE(blocked_product(e, e));
  EXPECT_TRUE(max_common_vector(e, L("4:1")));
}

TEST(MaxCommon, VectorAndLayout) {
  // Both layouts are contiguous over their first 4 elements.
  EXPECT_EQ(*max_common_vector(L("(4,8):(1,4)"), L("(4,8):(1,16)")), 4);
  EXPECT_EQ(str(max_common_layout(L("(4,8):(1,4)"), L("(4,8):(1,16)"))), "4:1");
  EXPECT_EQ(*max_common_vector(L("(4,8):(8,1)"), L("(4,8):(1,4)")), 1);
}

TEST(ShapeDiv, RoundingModes) {
  IntTuple s = *parseIntTuple("(4,6)");
  EXPECT_EQ(shape_div(s, IntTuple(8), Rounding::Exact)->str(), "(1,3)");
  EXPECT_EQ(
      shape_div(*parseIntTuple("(6,4)"), IntTuple(4), Rounding::Ceil)->str(),
      "(2,4)");
  EXPECT_EQ(shape_div(IntTuple(7), IntTuple(2), Rounding::Floor)->str(), "3");
  EXPECT_EQ(ceil_div(IntTuple(7), IntTuple(2))->str(), "4");
  auto bad = shape_div(IntTuple(6), IntTuple(4), Rounding::Exact);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("does not divide"), std::string::npos);
  EXPECT_FALSE(shape_div(IntTuple(6), IntTuple(0), Rounding::Ceil));
  EXPECT_EQ(shape_div(*parseIntTuple("(4,6)"), *parseIntTuple("(2,3)"),
                      Rounding::Exact)
                ->str(),
            "(2,2)");
}

TEST(Equivalence, SameFunctionDifferentStructure) {
  EXPECT_TRUE(*equivalent(L("(2,4):(1,2)"), L("8:1")));
  EXPECT_TRUE(*equivalent(L("((2,2),2):((1,2),4)"), L("(2,4):(1,2)")));
  EXPECT_FALSE(*equivalent(L("(2,4):(4,1)"), L("8:1")));
  EXPECT_FALSE(*equivalent(L("4:1"), L("8:1")));
}

TEST(Swizzle, ComposedLayoutEvaluation) {
  ComposedLayout c = *parseComposedLayout("Sw<3,4,3> o (8,64):(64,1)");
  // (2,0) -> 128 = bit 7, which the swizzle XORs into bit 4: 144.
  EXPECT_EQ(*crd2idx(*parseIntTuple("(2,0)"), c), 144);
  // (1,16) -> 80: bits [7,10) are clear, unchanged.
  EXPECT_EQ(*crd2idx(*parseIntTuple("(1,16)"), c), 80);
  // With offset 16: 16 + 128 = 144 has bits 7 and 4 set; XOR clears bit 4.
  ComposedLayout off = *parseComposedLayout("Sw<3,4,3> o 16 o (8,64):(64,1)");
  EXPECT_EQ(*crd2idx(*parseIntTuple("(2,0)"), off), 128);
}

TEST(Equivalence, ComposedLayoutsCompareAsFunctions) {
  auto C = [](std::string_view t) { return *parseComposedLayout(t); };
  // The identity swizzle adds nothing.
  EXPECT_TRUE(*equivalent(C("Sw<0,4,3> o (8,8):(8,1)"), C("(8,8):(8,1)")));
  // Row 1 of the 128B swizzle is permuted: not the plain layout.
  EXPECT_FALSE(*equivalent(C("Sw<3,4,3> o (8,64):(64,1)"), C("(8,64):(64,1)")));
  // Same swizzle, equivalent inner layouts.
  EXPECT_TRUE(*equivalent(C("Sw<3,4,3> o (8,64):(64,1)"),
                          C("Sw<3,4,3> o ((8),(8,8)):((64),(1,8))")));
  // Sw<1,0,1>(x) = x ^ ((x & 2) >> 1) maps 0,1,2,3 to 0,1,3,2: not 4:1, and
  // with a different offset it is compared point by point.
  EXPECT_FALSE(*equivalent(C("Sw<1,0,1> o 4:1"), C("4:1")));
  EXPECT_TRUE(*equivalent(C("Sw<1,0,1> o 4:1"), C("Sw<1,0,1> o (2,2):(1,2)")));
  // Sw<1,0,1> o 4 o 4:1 maps to Sw(4..7) = 4,5,7,6 = Sw<1,0,1> o (4 + 4:1).
  EXPECT_FALSE(*equivalent(C("Sw<1,0,1> o 4 o 4:1"), C("Sw<0,0,0> o 4 o 4:1")));
}

TEST(Swizzle, SizeIsTheRangeItPermutes) {
  // Sw<3,4,3> changes bits [4,7) from bits [7,10): below bit 10, so it
  // permutes [0, 2^10) and every offset stays in its block of 1024.
  Swizzle s = *Swizzle::make(3, 4, 3);
  EXPECT_EQ(s.size(), 1024);
  std::vector<bool> hit(1024, false);
  for (int64_t x = 0; x < 1024; ++x) {
    ASSERT_LT(s(x), 1024);
    hit[size_t(s(x))] = true;
    EXPECT_EQ(s(x + 1024) - s(x), 1024);
  }
  EXPECT_EQ(std::count(hit.begin(), hit.end(), true), 1024);
  EXPECT_EQ(Swizzle::make(2, 4, -3)->size(), int64_t(1) << 9); // |S| counts
  EXPECT_EQ(Swizzle{}.size(), 1);                              // identity
  EXPECT_EQ(Swizzle::make(20, 22, 20)->size(), int64_t(1) << 62);
}

TEST(Swizzle, CuTeFormula) {
  // Bit 7 is XORed into bit 4.
  EXPECT_EQ(swizzleApply(3, 4, 3, 128), 144);
  // Bits [7,10) of 0x18 are zero: unchanged (the variant reading bits [3,6)
  // would give 0x28; docs/design.md §4 rejects it).
  EXPECT_EQ(swizzleApply(3, 4, 3, 0x18), 0x18);
  for (int64_t x = 0; x < 4096; ++x)
    EXPECT_EQ(swizzleApply(3, 4, 3, swizzleApply(3, 4, 3, x)), x);
  EXPECT_FALSE(Swizzle::make(3, 4, 2)); // S < B: not self-inverse
  EXPECT_TRUE(Swizzle::make(2, 5, 2));
  // A negative S (CuTe's Swizzle<2,4,-3>): bits [4,6) go into [7,9), so
  // 0x10 -> 0x10 ^ 0x80 = 0x90, and the map is still self-inverse.
  Expected<Swizzle> neg = Swizzle::make(2, 4, -3);
  ASSERT_TRUE(neg);
  EXPECT_EQ((*neg)(0x10), 0x90);
  for (int64_t x = 0; x < 4096; ++x)
    EXPECT_EQ((*neg)((*neg)(x)), x);
  EXPECT_FALSE(Swizzle::make(3, 4, -2));   // |S| < B
  EXPECT_FALSE(Swizzle::make(1, 30, -40)); // B + M + |S| > 62
}

} // namespace
} // namespace lk::cute
