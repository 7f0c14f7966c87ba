//===- ConvertTest.cpp - toCute / toTile / toLinear -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Convert.h"

#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

namespace lk::api {
namespace {

AnyLayout parsed(std::string_view text) {
  Expected<AnyLayout> l = parseLayout(text);
  EXPECT_TRUE(l.hasValue()) << text << ": " << l.error().message;
  return *l;
}

TEST(ApiConvert, CuteToLinearEvaluatesLikeTheCuteLayout) {
  // (4,2):(2,1): index bits 0,1 -> offsets 2, 4; bit 2 -> offset 1.
  Expected<linear::LinearLayout> l = toLinear(parsed("(4,2):(2,1)"));
  ASSERT_TRUE(l.hasValue()) << l.error().message;
  EXPECT_EQ(l->column(0), 2u);
  EXPECT_EQ(l->column(1), 4u);
  EXPECT_EQ(l->column(2), 1u);
  cute::Layout c = *cute::parseLayout("(4,2):(2,1)");
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(int64_t(l->applyFlat(uint64_t(i))), cute::evaluate(c, i)) << i;
}

TEST(ApiConvert, CuteSwizzleBecomesTheTileSwizzle) {
  // Cute's leftmost mode is the tile's last iter: (8,64):(64,1) is
  // S[(64,8):(1,64)] over m; Sw<3,3,3> is Swizzle(M=3,B=3,S=3).
  Expected<tile::SwizzledTileLayout> t =
      toTile(parsed("Sw<3,3,3> o (8,64):(64,1)"));
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  EXPECT_EQ(t->str(), "Swizzle(M=3,B=3,S=3) o S[(64,8):(1,64)]");
  // The tile's flat index x is cute's colex index x (the modes are
  // reversed): x = 1 is coordinate (1,0), offset 64, swizzled to 64 ^ 8 = 72
  // (bit 6 xored into bit 3; the README's example).
  EXPECT_EQ(t->addressAt(1), 72);
}

TEST(ApiConvert, LinearToCutePlainOrSwizzled) {
  AnyLayout plain =
      parsed("{register: [(1), (2)], lane: [(8), (4)]} -> {offset: 16}");
  Expected<cute::ComposedLayout> c = toCute(plain);
  ASSERT_TRUE(c.hasValue()) << c.error().message;
  EXPECT_TRUE(c->swizzle.isIdentity());
  EXPECT_EQ(c->layout.str(), "(4,(2,2)):(1,(8,4))");

  // Columns 1, 2, 4, 10 (Sw<1,1,2> o 16:1): Sw<1,0,s> for s = 1, 2, 3 and
  // Sw<1,1,1> leave two columns sharing a bit; Sw<1,1,2> maps 10 to 8.
  AnyLayout swizzled = parsed("{index: [(1), (2), (4), (10)]} -> {offset: 16}");
  Expected<cute::ComposedLayout> s = toCute(swizzled);
  ASSERT_TRUE(s.hasValue()) << s.error().message;
  EXPECT_EQ(s->str(), "Sw<1,1,2> o 16:1");

  // Columns 1 and 3 = 0b11: Sw<1,0,1> xors bit 1 into bit 0, 3 -> 2.
  Expected<cute::ComposedLayout> s13 =
      toCute(parsed("{index: [(1), (3)]} -> {offset: 4}"));
  ASSERT_TRUE(s13.hasValue()) << s13.error().message;
  EXPECT_EQ(s13->str(), "Sw<1,0,1> o 4:1");
  // Two equal columns stay equal under every swizzle: no cute form.
  EXPECT_FALSE(toCute(parsed("{index: [(1), (1)]} -> {offset: 2}")).hasValue());
}

TEST(ApiConvert, TileAndLinearRoundTrip) {
  // The m8n8 fragment (bridge/LinearTile.h): register -> index 1, lanes ->
  // 2, 4, 8, 16, 32.
  AnyLayout t = parsed("S[(8,4,2):(4@laneid,1@laneid,1)]");
  Expected<linear::LinearLayout> l = toLinear(t);
  ASSERT_TRUE(l.hasValue()) << l.error().message;
  EXPECT_EQ(*l, *linear::parseLinearLayout(
                    "{register: [(1)], lane: [(2), (4), (8), (16), (32)]} -> "
                    "{index: 64}"));
  Expected<AnyLayout> back =
      convert(AnyLayout{Syntax::LinearText, *l, {}}, Model::Tile);
  ASSERT_TRUE(back.hasValue()) << back.error().message;
  // The bridge merges consecutive lane bits (logical bits 1-5 are lane bits
  // 0-4): S[(32,2):(1@laneid,1)], which evaluates like the original.
  EXPECT_EQ(back->str(), "S[(32,2):(1@laneid,1)]");
  EXPECT_EQ(*toLinear(*back), *l);
}

TEST(ApiConvert, ParseTileReadsAnyGrammarOverAShape) {
  // blocked [1,1] [8,4] [1,1] order [1,0] over (8,4): lane bits 0-1 walk
  // dim1, bits 2-4 dim0, so element (r, c), flat index 4r + c, is on lane
  // 4r + c: one shard iter of 32 lanes.
  const char *blocked = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp "
                        "= [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>";
  Expected<tile::SwizzledTileLayout> t =
      parseTile(blocked, IntTuple::tuple({8, 4}), "SHAPE");
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  EXPECT_EQ(tileText(*t), "S[(32):(1@laneid)] + 0 + 0@warpid + 0@cta");
  // A tensor type brings its shape; another SHAPE is refused by name.
  std::string typed = std::string("tensor<8x4xf16, ") + blocked + ">";
  EXPECT_EQ(tileText(*parseTile(typed, std::nullopt)), tileText(*t));
  Expected<tile::SwizzledTileLayout> other =
      parseTile(typed, IntTuple::tuple({4, 8}), "SHAPE");
  ASSERT_FALSE(other.hasValue());
  EXPECT_NE(other.error().message.find("SHAPE"), std::string::npos)
      << other.error().message;
  // A cute layout is its tile form on m; a tile text reads as itself.
  EXPECT_EQ(tileText(*parseTile("8:2", std::nullopt)), "S[(8):(2)]");
  EXPECT_EQ(tileText(*parseTile("S[4:1@laneid]", IntTuple(4))),
            "S[(4):(1@laneid)]");
  // A swizzled attribute's tile form: over f16 elements the 128-byte
  // swizzle is M = 3; without elem= the width is unknown and it is refused.
  const IntTuple rows = IntTuple::tuple({8, 64});
  EXPECT_EQ(tileText(*parseTile("<(8,64),(64,1),swizzle<3,4,3>,elem=f16>", rows,
                                "SHAPE")),
            "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]");
  EXPECT_EQ(parseTile("<(8,64),(64,1),swizzle<3,4,3>>", rows, "SHAPE")
                .error()
                .message,
            "a layout attribute's swizzle acts on byte addresses; its tile "
            "form, over elements, needs their type: add elem=, e.g. "
            "<(8,64),(64,1),swizzle<3,4,3>,elem=f16>");
  EXPECT_TRUE(parseTile("<(8,64),(64,1)>", rows, "SHAPE")); // no swizzle
  // With no shape, a cute layout of rank 2 or more is refused (its modes
  // or its size, no default), naming its tile form over the modes.
  EXPECT_EQ(unshapedTile(*parseLayout("(8,64):(64,1)"), "").error().message,
            "a cute layout of rank 2 reads over its modes, (8,64), or over "
            "its size, 512 (CuTe's 1-D index), and nothing here says which; "
            "over its modes it is S[(8,64):(64,1)]");
  EXPECT_EQ(tileText(*unshapedTile(*parseLayout("64:2"), "")), "S[(64):(2)]");
}

TEST(ApiConvert, CuteOverItsModesReadsCuteCoordinates) {
  // ((4,8),(2,2)):((32,1),(16,8)) over (32,4): row r is mode 0's index
  // (colex: r = i0 + 4 i1, so its leaves reversed, 8:1 then 4:32), column
  // c mode 1's (2:8 then 2:16).
  Expected<tile::SwizzledTileLayout> t =
      parseTile("((4,8),(2,2)):((32,1),(16,8))", IntTuple::tuple({32, 4}));
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  EXPECT_EQ(tileText(*t), "S[(8,4,2,2):(1,32,8,16)]");
  // Over one dim: CuTe's 1-D index, every leaf reversed.
  EXPECT_EQ(
      tileText(*parseTile("((4,8),(2,2)):((32,1),(16,8))", IntTuple(128))),
      "S[(2,2,8,4):(8,16,1,32)]");
  Expected<tile::SwizzledTileLayout> other =
      parseTile("(4,8):(8,1)", IntTuple::tuple({8, 4}), "SHAPE");
  ASSERT_FALSE(other.hasValue());
  EXPECT_EQ(other.error().message,
            "mode 0 of (4,8):(8,1) has size 4 but dim 0 of SHAPE is 8 "
            "(the dims of SHAPE are the layout's top-level modes, (4,8))");
}

// A rank-1 cute layout over several dims reads element x = (r, c) at
// CuTe's 1-D index r + R c (colex): 64:1 over (8,8) puts (r, c) at offset
// r + 8c, the tile S[(8,8):(1,8)] (row-major iters: r strides 1, c 8). A
// nested mode that the shape splits across its leaves has no such form.
TEST(ApiConvert, RankOneCuteOverDimsReadsColex) {
  Expected<tile::SwizzledTileLayout> t =
      parseTile("64:1", IntTuple::tuple({8, 8}), "SHAPE");
  ASSERT_TRUE(t.hasValue()) << t.error().message;
  EXPECT_EQ(tileText(*t), "S[(8,8):(1,8)]");
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t c = 0; c < 8; ++c)
      EXPECT_EQ(t->eval(8 * r + c)[0][0], r + 8 * c);
  // 2:3 then 16:1 over (4,8): (r, c) -> index r + 4c, offset
  // 3 (i % 2) + (i / 2).
  Expected<tile::SwizzledTileLayout> n =
      parseTile("((2,16)):((3,1))", IntTuple::tuple({4, 8}), "SHAPE");
  ASSERT_TRUE(n.hasValue()) << n.error().message;
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 8; ++c) {
      int64_t i = r + 4 * c;
      EXPECT_EQ(n->eval(8 * r + c)[0][0], 3 * (i % 2) + i / 2);
    }
  Expected<tile::SwizzledTileLayout> split =
      parseTile("((3,5)):((1,4))", IntTuple::tuple({5, 3}), "SHAPE");
  ASSERT_FALSE(split.hasValue());
  EXPECT_EQ(split.error().message.rfind(
                "reading ((3,5)):((1,4)) over SHAPE (5,3) (element x at "
                "CuTe's 1-D index, colexicographic): composition: ",
                0),
            0u)
      << split.error().message;
  // The shape is checked first, its faults about "shape": a zero extent
  // would fail the composition with compact((0,8)) as the layout's fault.
  Expected<tile::SwizzledTileLayout> zero =
      tileForm(parsed("32:1"), IntTuple::tuple({0, 8}), "SHAPE");
  ASSERT_FALSE(zero.hasValue());
  EXPECT_EQ(zero.error().message,
            "shape (0,8): extent 0 of dimension 0 must be at least 1");
  EXPECT_EQ(zero.error().parameter, "shape");
  Expected<tile::SwizzledTileLayout> other =
      tileForm(parsed("64:1"), IntTuple::tuple({8, 4}), "SHAPE");
  ASSERT_FALSE(other.hasValue());
  EXPECT_EQ(other.error().parameter, "shape");
  // convert() to the tile model reads over the shape as tileForm does.
  const int64_t dims[] = {8, 8};
  Expected<AnyLayout> c = convert(parsed("(8,8):(8,1)"), Model::Tile, dims);
  ASSERT_TRUE(c.hasValue()) << c.error().message;
  EXPECT_EQ(c->str(), "S[(8,8):(8,1)]");
  EXPECT_FALSE(convert(parsed("(8,8):(8,1)"), Model::Tile).hasValue());
}

TEST(ApiConvert, SwizzledTileToLinearInvertsTheAddress) {
  // register a -> the logical index x whose swizzled address is a, for
  // every x of the 8x64 tile (Swizzle(M=3,B=3,S=3): bits 6-8 into 3-5).
  AnyLayout t = parsed("Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]");
  Expected<linear::LinearLayout> l = toLinear(t);
  ASSERT_TRUE(l.hasValue()) << l.error().message;
  for (int64_t x = 0; x < 512; ++x)
    EXPECT_EQ(l->applyFlat(uint64_t(t.tile()->addressAt(x))), uint64_t(x)) << x;
  // Hand check of one basis: register 2^6 = 64 holds what address
  // Sw(64) = 64 ^ 8 = 72 held before, index 72.
  EXPECT_EQ(l->basis(linear::dims::kRegister, 6, bridge::indexDim()), 72);
  // A 64-element tile has address bits 0-5; the swizzle reads bits 6-8
  // (all 0), so it moves nothing.
  EXPECT_EQ(*toLinear(parsed("Swizzle(M=3,B=3,S=3) o S[(8,8):(8,1)]")),
            *toLinear(parsed("S[(8,8):(8,1)]")));
}

TEST(ApiConvert, TileToCuteIsTheShardOverItsAxes) {
  // Axes (laneid, m) in order of appearance; cute's modes reversed
  // (bridge/TileCute.h): 2 registers on m (1@1), 4 lanes of stride 1 (1@0),
  // 8 lanes of stride 4 (4@0).
  Expected<cute::ComposedLayout> c =
      toCute(parsed("S[(8,4,2):(4@laneid,1@laneid,1)]"));
  ASSERT_TRUE(c.hasValue()) << c.error().message;
  EXPECT_EQ(c->layout.str(), "(2,4,8):(1@1,1@0,4@0)");
  // A replica has no cute counterpart.
  EXPECT_FALSE(toCute(parsed("S[(4):(1@laneid)] + R[2:4@laneid]")).hasValue());
}

TEST(ApiConvert, SwizzledFormFindsTheFirstSwizzle) {
  // Sw<3,3,3> o (8,64):(64,1) on element offsets, as a linear layout
  // index -> offset; the search recovers it (B = 3 is the first B whose
  // swizzle makes the columns strided; M, S follow).
  cute::ComposedLayout sw =
      *cute::parseComposedLayout("Sw<3,3,3> o (8,64):(64,1)");
  linear::LinearLayout l = *bridge::cuteToLinear(sw);
  std::optional<cute::ComposedLayout> f = swizzledForm(l);
  ASSERT_TRUE(f.has_value());
  for (int64_t i = 0; i < 512; ++i)
    EXPECT_EQ(f->swizzle(cute::evaluate(f->layout, i)),
              int64_t(l.applyFlat(uint64_t(i))))
        << i;
  EXPECT_EQ(f->str(), "Sw<3,3,3> o (8,64):(64,1)");
  // A plain strided layout comes back with the identity swizzle.
  std::optional<cute::ComposedLayout> plain =
      swizzledForm(*bridge::cuteToLinear(*cute::parseLayout("(4,8):(8,1)")));
  ASSERT_TRUE(plain.has_value());
  EXPECT_TRUE(plain->swizzle.isIdentity());
  EXPECT_EQ(plain->layout.str(), "(4,8):(8,1)");
}

TEST(ApiConvert, RefusalsNameTheReason) {
  Expected<linear::LinearLayout> odd = toLinear(parsed("(4,3):(1,4)"));
  ASSERT_FALSE(odd.hasValue());
  EXPECT_NE(odd.error().message.find("not a power of two"), std::string::npos);
  // A replica has no cute form.
  EXPECT_FALSE(toCute(parsed("S[(4):(1@laneid)] + R[2:4@laneid]")).hasValue());
}

} // namespace
} // namespace lk::api
