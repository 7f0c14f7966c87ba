//===- SwizzleLayoutTest.cpp - SwizzleLayout and SwizzledTileLayout ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/SwizzleLayout.h"

#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

#include <random>

namespace lk::tile {
namespace {

SwizzleLayout swz(int64_t m, int64_t b, int64_t s) {
  auto r = SwizzleLayout::make(m, b, s);
  EXPECT_TRUE(r) << r.error().message;
  return *r;
}

/// The definition (docs/design.md §6.4), written bit by bit:
/// addr(m) = f(m >> M) * 2^M + (m mod 2^M) with
/// f(x) = x ^ ((x & ((2^B - 1) << S)) >> S).
int64_t specAddr(int64_t m, int M, int B, int S) {
  int64_t x = m >> M;
  int64_t f = x ^ ((x & (((int64_t(1) << B) - 1) << S)) >> S);
  return f * (int64_t(1) << M) + (m % (int64_t(1) << M));
}

TEST(SwizzleLayout, MatchesTheSpecFormula) {
  // Every well-formed (M, B, S) with small parameters, every address below
  // 2^(M+S+B+1): the definition and ours agree (cute's Swizzle<B,M,S>
  // too: tests/bridge/TileCuteTest.cpp).
  for (int M = 0; M <= 4; ++M)
    for (int B = 0; B <= 3; ++B)
      for (int S = B; S <= 5; ++S) {
        SwizzleLayout s = swz(M, B, S);
        for (int64_t m = 0; m < (int64_t(1) << (M + S + B + 1)); ++m) {
          ASSERT_EQ(s(m), specAddr(m, M, B, S)) << s.str() << " m=" << m;
          ASSERT_EQ(s(s(m)), m) << "not self-inverse";
        }
      }
}

TEST(SwizzleLayout, WorkedExampleOf128BFloat16) {
  // Swizzle(3,3,3) over m = 64i + j gives 64i + 8((j/8) xor i) + j mod 8.
  SwizzleLayout s = swz(3, 3, 3);
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 64; ++j)
      EXPECT_EQ(s(64 * i + j), 64 * i + 8 * ((j / 8) ^ i) + j % 8);
}

TEST(SwizzleLayout, ParametersFromDtypeAndMode) {
  // M = bitlen(128 / bits) - 1; B = 0/1/2/3; S = 3.
  struct Row {
    int64_t bits;
    SwizzleMode mode;
    int M, B;
  } rows[] = {
      {16, SwizzleMode::B128, 3, 3},  {16, SwizzleMode::B64, 3, 2},
      {16, SwizzleMode::B32, 3, 1},   {16, SwizzleMode::None, 3, 0},
      {8, SwizzleMode::B128, 4, 3},   {32, SwizzleMode::B128, 2, 3},
      {64, SwizzleMode::B64, 1, 2},   {4, SwizzleMode::B32, 5, 1},
      {128, SwizzleMode::B128, 0, 3},
  };
  for (const Row &r : rows) {
    auto s = SwizzleLayout::forDtype(r.bits, r.mode);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->perElement(), r.M) << r.bits;
    EXPECT_EQ(s->swizzleLen(), r.B);
    EXPECT_EQ(s->atomLen(), 3);
  }
  EXPECT_TRUE(SwizzleLayout::forDtype(16, SwizzleMode::None)->isIdentity());
  for (int64_t bad : {0, 3, 12, 256, -8}) {
    auto s = SwizzleLayout::forDtype(bad, SwizzleMode::B128);
    ASSERT_FALSE(s) << bad;
    EXPECT_NE(s.error().message.find("power of two"), std::string::npos);
  }
}

TEST(SwizzleLayout, ModesByName) {
  for (SwizzleMode m : {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64,
                        SwizzleMode::B128})
    EXPECT_EQ(*swizzleModeByName(swizzleModeName(m)), m);
  EXPECT_EQ(swizzleModeBytes(SwizzleMode::B64), 64);
  auto bad = swizzleModeByName("256B");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("unknown swizzle mode '256B'"),
            std::string::npos);
}

TEST(SwizzleLayout, WellFormednessIsChecked) {
  auto overlap = SwizzleLayout::make(3, 3, 2);
  ASSERT_FALSE(overlap);
  EXPECT_NE(overlap.error().message.find(
                "atom_len S = 2 must be >= swizzle_len B = 3"),
            std::string::npos);
  EXPECT_FALSE(SwizzleLayout::make(-1, 1, 3));
  EXPECT_FALSE(SwizzleLayout::make(1, -1, 3));
  EXPECT_FALSE(SwizzleLayout::make(30, 10, 30)); // 70 address bits
  EXPECT_TRUE(SwizzleLayout::make(20, 10, 32));  // exactly 62
}

TEST(SwizzleLayout, TextRoundTrips) {
  EXPECT_EQ(swz(3, 3, 3).str(), "Swizzle(M=3,B=3,S=3)");
  EXPECT_EQ(*parseSwizzleLayout("Swizzle(M=3,B=3,S=3)"), swz(3, 3, 3));
  // Positional order (docs/design.md §6.4): per_element, swizzle_len,
  // atom_len.
  EXPECT_EQ(*parseSwizzleLayout("Swizzle(4, 2, 3)"), swz(4, 2, 3));
  EXPECT_EQ(*parseSwizzleLayout(" Swizzle( S = 5 , M = 1 , B = 2 ) "),
            swz(1, 2, 5));
  for (int M = 0; M < 5; ++M)
    for (int B = 0; B < 4; ++B) {
      SwizzleLayout s = swz(M, B, B + 1);
      EXPECT_EQ(*parseSwizzleLayout(s.str()), s);
    }
}

/// The rendered diagnostic of a parse failure.
template <class T> std::string failure(const Expected<T> &r) {
  EXPECT_FALSE(r);
  return r ? std::string() : r.error().render();
}

TEST(SwizzleLayout, DiagnosticsPointAtTheProblem) {
  EXPECT_EQ(failure(parseSwizzleLayout("Swizzle(M=3,B=3,S=2)")),
            "error: swizzle atom_len S = 2 must be >= swizzle_len B = 3 "
            "(otherwise the XOR-ed bit groups overlap and the swizzle is not "
            "its own inverse) at column 19\n"
            "  Swizzle(M=3,B=3,S=2)\n"
            "                    ^\n");
  EXPECT_NE(failure(parseSwizzleLayout("Swizzle(M=3,X=3,S=3)"))
                .find("unknown swizzle parameter 'X'"),
            std::string::npos);
  EXPECT_NE(failure(parseSwizzleLayout("Swizzle(M=3,M=3,S=3)"))
                .find("swizzle parameter M is given twice at column 13"),
            std::string::npos);
  EXPECT_NE(failure(parseSwizzleLayout("Swizzle(3,3)")).find("expected ','"),
            std::string::npos);
  EXPECT_NE(failure(parseSwizzleLayout("Sw<3,3,3>")).find("expected 'Swizzle'"),
            std::string::npos);
  EXPECT_NE(failure(parseSwizzleLayout("Swizzle(3,3,3) x"))
                .find("unexpected trailing text"),
            std::string::npos);
}

TEST(SwizzledTileLayout, AppliesTheSwizzleToTheMemoryAxisOnly) {
  auto tile = parseTileLayout("S[(8,8,2):(8,1,1@laneid)]");
  ASSERT_TRUE(tile) << tile.error().message;
  SwizzledTileLayout c(swz(0, 3, 3), *tile);
  int mSlot = tile->axisSlot(Axis::m());
  int laneSlot = tile->axisSlot(Axis::laneid());
  ASSERT_GE(mSlot, 0);
  ASSERT_GE(laneSlot, 0);
  for (int64_t flat = 0; flat < c.size(); ++flat) {
    CoordSet plain = tile->eval(flat), swizzled = c.eval(flat);
    ASSERT_EQ(plain.size(), swizzled.size());
    EXPECT_EQ(swizzled[0][size_t(mSlot)], c.swizzle()(plain[0][size_t(mSlot)]));
    EXPECT_EQ(swizzled[0][size_t(laneSlot)], plain[0][size_t(laneSlot)]);
    EXPECT_EQ(c.addressAt(flat), swizzled[0][size_t(mSlot)]);
  }
}

TEST(SwizzledTileLayout, TextRoundTripsAndLocatesTileErrors) {
  const char *text = "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]";
  auto c = parseSwizzledTileLayout(text);
  ASSERT_TRUE(c) << c.error().render();
  EXPECT_EQ(c->str(), text);
  EXPECT_EQ(*parseSwizzledTileLayout(c->str()), *c);
  EXPECT_EQ(c->addressAt(64 * 5 + 0), 5 * 72); // addr(i, 0) = 72 i
  // An error inside the tile part points into the whole text.
  std::string d = failure(
      parseSwizzledTileLayout("Swizzle(3,3,3) o S[(8,64):(64,1@nope)]"));
  EXPECT_NE(d.find("nope"), std::string::npos) << d;
  EXPECT_NE(d.find("  Swizzle(3,3,3) o S[(8,64):(64,1@nope)]\n"),
            std::string::npos)
      << d;
  size_t caret = d.rfind('^');
  size_t lineStart = d.rfind('\n', caret) + 1;
  EXPECT_GE(caret - lineStart,
            std::string("  Swizzle(3,3,3) o S[(8,64):(64,1").size())
      << d;
  EXPECT_NE(failure(parseSwizzledTileLayout("Swizzle(3,3,3) S[(8,64):(64,1)]"))
                .find("expected 'o' (composition) after the swizzle"),
            std::string::npos);
  EXPECT_FALSE(parseSwizzledTileLayout("Swizzle(3,3,3) of S[(8,64):(64,1)]"));
}

TEST(SwizzledTileLayout, RandomRoundTrips) {
  std::mt19937_64 rng(7);
  for (int n = 0; n < 300; ++n) {
    int M = int(rng() % 5), B = int(rng() % 4), S = B + int(rng() % 3);
    int64_t rows = 1 + int64_t(rng() % 9), cols = 1 + int64_t(rng() % 70);
    std::string text = swz(M, B, S).str() + " o S[(" + std::to_string(rows) +
                       "," + std::to_string(cols) + "):(" +
                       std::to_string(cols) + ",1)]";
    auto c = parseSwizzledTileLayout(text);
    ASSERT_TRUE(c) << text << ": " << c.error().message;
    EXPECT_EQ(*parseSwizzledTileLayout(c->str()), *c) << text;
  }
}

} // namespace
} // namespace lk::tile
