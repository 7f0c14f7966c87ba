//===- InjectiveProductTest.cpp - Products of any injective A ------------===//
//
// The products take any injective A, not only compact column-major ones:
// the row-major 8x8 atom (8,8):(8,1), a strided (4,4):(8,1) with holes,
// and (2,3):(3,1). Each expected layout is pycute's answer (CUTLASS's
// Python CuTe, same construction as CuTe C++), computed as
//   logical_product(A, B)                       pycute.logical_product
//   blocked_product(A, B) = zip(P[0], P[1])     P = logical_product of A
//   raked_product(A, B)   = zip(P[1], P[0])     and B padded to one rank
//   zipped/tiled_product                        pycute.zipped/tiled_product
//   flat_product = zipped_product with both modes unpacked (CuTe's
//   result(repeat<R0>(_), repeat<R1>(_)); pycute has none)
// and the same from the public operation and the general construction.
// The by-mode compositions and products are served by their closed forms.
//
//===----------------------------------------------------------------------===//

#include "support/AlgebraTestSupport.h"

#include "layoutkit/cute/AlgebraGeneral.h"

namespace lk::cute {
namespace {

using testing::L;
using testing::T;

/// `got` is the layout `want` (text), as a result.
::testing::AssertionResult is(const Expected<Layout> &got, const char *want) {
  if (!got)
    return ::testing::AssertionFailure() << got.error().render();
  if (got->str() != want)
    return ::testing::AssertionFailure() << got->str() << " != " << want;
  return ::testing::AssertionSuccess();
}

struct RankedCase {
  const char *a, *b, *logical, *blocked, *raked;
};

// Worked example, A = (8,8):(8,1), B = (4,2):(1,4): size(A) * cosize(B) =
// 64 * 8 = 512; A covers [0, 64) exactly, so complement(A, 512) = 8:64 and
// rest = 8:64 o (4,2):(1,4) = (4,2):(64,256). blocked pairs mode i of A
// with mode i of rest: ((8,4),(8,2)):((8,64),(1,256)).
const RankedCase kRanked[] = {
    {"(8,8):(8,1)", "(4,2):(1,4)", "((8,8),(4,2)):((8,1),(64,256))",
     "((8,4),(8,2)):((8,64),(1,256))", "((4,8),(2,8)):((64,8),(256,1))"},
    {"(4,4):(8,1)", "(2,2):(1,2)", "((4,4),(2,2)):((8,1),(4,32))",
     "((4,2),(4,2)):((8,4),(1,32))", "((2,4),(2,4)):((4,8),(32,1))"},
    {"(4,4):(8,1)", "(2,2):(2,1)", "((4,4),(2,2)):((8,1),(32,4))",
     "((4,2),(4,2)):((8,32),(1,4))", "((2,4),(2,4)):((32,8),(4,1))"},
    {"(2,3):(3,1)", "(2,2):(2,1)", "((2,3),(2,2)):((3,1),(12,6))",
     "((2,2),(3,2)):((3,12),(1,6))", "((2,2),(2,3)):((12,3),(6,1))"},
    {"(2,3):(3,1)", "(4,2):(1,4)", "((2,3),(4,2)):((3,1),(6,24))",
     "((2,4),(3,2)):((3,6),(1,24))", "((4,2),(2,3)):((6,3),(24,1))"},
};

TEST(InjectiveProducts, LogicalBlockedRakedOfAnyInjectiveA) {
  for (const RankedCase &c : kRanked) {
    Layout a = L(c.a), b = L(c.b);
    SCOPED_TRACE(std::string(c.a) + " by " + c.b);
    EXPECT_TRUE(is(logical_product(a, Tiler::of(b)), c.logical));
    EXPECT_TRUE(is(general::logical_product(a, Tiler::of(b)), c.logical));
    EXPECT_TRUE(is(blocked_product(a, b), c.blocked));
    EXPECT_TRUE(is(general::blocked_product(a, b), c.blocked));
    EXPECT_TRUE(is(raked_product(a, b), c.raked));
    EXPECT_TRUE(is(general::raked_product(a, b), c.raked));
  }
}

struct ByModeCase {
  const char *a, *tiler, *logical, *zipped, *tiled, *flat;
};

// By mode, each mode of A is multiplied alone: for A = (8,8):(8,1) by
// (4:1,2:1), mode 8:8 gets complement(8:8, 32) = 8:1 o 4:1 = 4:1 and mode
// 8:1 gets complement(8:1, 16) = 2:8 o 2:1 = 2:8 (CuTe does not ask the
// modes' copies to stay apart from each other).
const ByModeCase kByMode[] = {
    {"(8,8):(8,1)", "(4:1,2:1)", "((8,4),(8,2)):((8,1),(1,8))",
     "((8,8),(4,2)):((8,1),(1,8))", "((8,8),4,2):((8,1),1,8)",
     "(8,8,4,2):(8,1,1,8)"},
    {"(4,4):(8,1)", "(2:1,2:1)", "((4,2),(4,2)):((8,1),(1,4))",
     "((4,4),(2,2)):((8,1),(1,4))", "((4,4),2,2):((8,1),1,4)",
     "(4,4,2,2):(8,1,1,4)"},
    {"(4,4):(8,1)", "(2:2,3:1)", "((4,2),(4,3)):((8,2),(1,4))",
     "((4,4),(2,3)):((8,1),(2,4))", "((4,4),2,3):((8,1),2,4)",
     "(4,4,2,3):(8,1,2,4)"},
    {"(2,3):(3,1)", "(2:1,2:1)", "((2,2),(3,2)):((3,1),(1,3))",
     "((2,3),(2,2)):((3,1),(1,3))", "((2,3),2,2):((3,1),1,3)",
     "(2,3,2,2):(3,1,1,3)"},
};

TEST(InjectiveProducts, ByModeProductsOfAnyInjectiveA) {
  for (const ByModeCase &c : kByMode) {
    Layout a = L(c.a);
    Tiler t = T(c.tiler);
    SCOPED_TRACE(std::string(c.a) + " by " + c.tiler);
    EXPECT_TRUE(is(logical_product(a, t), c.logical));
    EXPECT_TRUE(is(general::logical_product(a, t), c.logical));
    EXPECT_TRUE(is(zipped_product(a, t), c.zipped));
    EXPECT_TRUE(is(general::zipped_product(a, t), c.zipped));
    EXPECT_TRUE(is(tiled_product(a, t), c.tiled));
    EXPECT_TRUE(is(general::tiled_product(a, t), c.tiled));
    EXPECT_TRUE(is(flat_product(a, t), c.flat));
    EXPECT_TRUE(is(general::flat_product(a, t), c.flat));
  }
}

// A layout tiler over a row-major A: the products by (4,2):(1,4) as one
// tile, zipped = (A, rest) itself and tiled/flat unpack rest's modes.
TEST(InjectiveProducts, GroupingsByALayoutTileOfARowMajorA) {
  Layout a = L("(8,8):(8,1)");
  Tiler t = Tiler::of(L("(4,2):(1,4)"));
  for (bool general : {false, true}) {
    SCOPED_TRACE(general ? "general" : "public");
    EXPECT_TRUE(
        is(general ? general::zipped_product(a, t) : zipped_product(a, t),
           "((8,8),(4,2)):((8,1),(64,256))"));
    EXPECT_TRUE(is(general ? general::tiled_product(a, t) : tiled_product(a, t),
                   "((8,8),4,2):((8,1),64,256)"));
    EXPECT_TRUE(is(general ? general::flat_product(a, t) : flat_product(a, t),
                   "(8,8,4,2):(8,1,64,256)"));
  }
}

// By-mode composition and product have closed forms (FastPaths.cpp) for
// every tiler class: `_` modes, nested tiles, nested modes of A, A not
// onto [0, n). Each call must be served by its form (general::lastPath),
// give pycute's answer (pycute.composition / logical_product with None
// for `_`) and equal the general construction.
TEST(InjectiveProducts, ByModeCompositionAndProductHaveClosedForms) {
  using general::Path;
  struct Case {
    bool product;
    const char *a, *tiler, *want;
    Path path;
  };
  const Case cases[] = {
      {false, "(128,64):(1,128)", "(_,16:1)", "(128,16):(1,128)",
       Path::ComposeModes},
      {false, "(128,64):(1,128)", "((4,8):(8,1),16:1)",
       "((4,8),16):((8,1),128)", Path::ComposeByMode},
      {false, "((4,32),64):((1,4),128)", "((2,4):(1,8),_)",
       "((2,4),64):((1,8),128)", Path::ComposeByMode},
      {false, "(8,8):(8,1)", "(4:2,(2,2):(1,4))", "(4,(2,2)):(16,(1,4))",
       Path::ComposeByMode},
      {true, "(8,8):(8,1)", "((2,2):(1,2),2:1)",
       "((8,(2,2)),(8,2)):((8,(1,2)),(1,8))", Path::ProductByMode},
      {true, "((2,2),8):((1,2),4)", "(4:1,_)", "(((2,2),4),8):(((1,2),4),4)",
       Path::ProductByMode},
      {true, "(8,8):(1,8)", "(_,4:1)", "(8,(8,4)):(1,(8,1))",
       Path::ProductByMode},
      {true, "(4,4):(8,1)", "(2:2,3:1)", "((4,2),(4,3)):((8,2),(1,4))",
       Path::ProductByMode},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.a) + " by " + c.tiler);
    Layout a = L(c.a);
    Tiler t = T(c.tiler);
    auto r = c.product ? logical_product(a, t) : composition(a, t);
    EXPECT_EQ(int(general::lastPath()), int(c.path));
    EXPECT_TRUE(is(r, c.want));
    EXPECT_TRUE(is(c.product ? general::logical_product(a, t)
                             : general::composition(a, t),
                   c.want));
  }
}

} // namespace
} // namespace lk::cute
