//===- TileTextTest.cpp - Text form of tile layouts -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TileText.h"

#include "support/TileTestSupport.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace lk;
using namespace lk::tile;
using lk::tile::testing::failsAt;
using lk::tile::testing::TileGenerator;

namespace {

std::string canonical(std::string_view text) {
  Expected<TileLayout> l = parseTileLayout(text);
  return l ? l->str() : "error: " + l.error().message;
}

TEST(TileText, ParsesTheSpecExample) {
  Expected<TileLayout> l = parseTileLayout(
      "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->shard().size(), 4u);
  EXPECT_EQ(l->shard()[1], (Iter{2, 1, Axis::warpid()}));
  EXPECT_EQ(l->shard()[3], (Iter{2, 1, Axis::m()}));
  EXPECT_EQ(l->replica()[0], (Iter{2, 4, Axis::warpid()}));
  EXPECT_EQ(l->offset().size(), 1u);
  EXPECT_EQ(l->offset()[0], (AxisValue{Axis::warpid(), 5}));
}

TEST(TileText, Forms) {
  // Replica and offset are optional; a single iter may drop the parentheses.
  EXPECT_EQ(canonical("S[8:1]"), "S[(8):(1)]");
  EXPECT_EQ(canonical("S[(8):(1)]"), "S[(8):(1)]");
  EXPECT_EQ(canonical("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"),
            "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]");
  // Blanks anywhere between tokens.
  EXPECT_EQ(
      canonical("  S [ ( 32 , 4 ) : ( 1 @ TLane , 1 @TCol ) ]+R[4:32@TLane]  "),
      "S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]");
  // Several replica iters, as one term or several.
  EXPECT_EQ(canonical("S[(4):(1)] + R[(2,3):(4@warpid,1)]"),
            "S[(4):(1)] + R[2:4@warpid] + R[3:1]");
  EXPECT_EQ(canonical("S[(4):(1)] + R[2:4@warpid] + R[3:1]"),
            "S[(4):(1)] + R[2:4@warpid] + R[3:1]");
  // Offsets on several axes, in the order written; @m is implicit.
  EXPECT_EQ(canonical("S[(4):(1)] + 5@warpid + 2@m"),
            "S[(4):(1)] + 5@warpid + 2");
  EXPECT_EQ(canonical("S[(4):(1)] + 2 + 5@warpid"),
            "S[(4):(1)] + 2 + 5@warpid");
  // Replica and offset terms in any order; replicas print first.
  EXPECT_EQ(canonical("S[(4):(1)] + 3@F + R[2:1@P]"),
            "S[(4):(1)] + R[2:1@P] + 3@F");
  // A stride-0 iter and a zero offset (which still names its axis).
  EXPECT_EQ(canonical("S[(4,3):(1,0@laneid)] + 0@pid"),
            "S[(4,3):(1,0@laneid)] + 0@pid");
  EXPECT_EQ(parseTileLayout("S[(4):(1)] + 0@pid")->axes().size(), 2u);
  // Explicit @m is the same layout as no axis.
  EXPECT_EQ(*parseTileLayout("S[(4,2):(2@m,1@m)]"),
            *parseTileLayout("S[(4,2):(2,1)]"));
}

TEST(TileText, OffsetOrderDoesNotChangeEquality) {
  EXPECT_EQ(*parseTileLayout("S[(4):(1)] + 1@F + 2@P"),
            *parseTileLayout("S[(4):(1)] + 2@P + 1@F"));
  EXPECT_NE(*parseTileLayout("S[(4):(1)] + 1@F"),
            *parseTileLayout("S[(4):(1)] + 2@F"));
  EXPECT_NE(*parseTileLayout("S[(4):(1)] + 0@F"),
            *parseTileLayout("S[(4):(1)]"));
}

TEST(TileText, Diagnostics) {
  EXPECT_TRUE(failsAt(parseTileLayout(""),
                      "expected 'S[' to open the shard but found end of input",
                      1));
  EXPECT_TRUE(failsAt(parseTileLayout("R[2:1]"),
                      "expected 'S[' to open the shard but found 'R'", 1));
  EXPECT_TRUE(failsAt(parseTileLayout("S(8):(1)"),
                      "expected '[' after 'S' but found '('", 2));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8,2):(1)]"),
                      "shard has 2 extents but 1 stride", 9));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1,2)]"),
                      "shard has 1 extent but more strides", 10));
  EXPECT_TRUE(
      failsAt(parseTileLayout("S[(0):(1)]"), "extent 0 must be at least 1", 4));
  EXPECT_TRUE(
      failsAt(parseTileLayout("S[(8):(-1)]"),
              "expected a stride (a non-negative integer) but found '-'", 8));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1@)]"),
                      "expected an axis name after '@' (a name) but found ')'",
                      10));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1@0)]"),
                      "expected an axis name after '@' (a name) but found '0'",
                      10));
  EXPECT_TRUE(failsAt(
      parseTileLayout("S[(8):(1)] + 2@warpid + 3@warpid"),
      "second offset on axis warpid (the offset has one integer per axis)",
      25));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1)] R[2:1]"),
                      "expected '+' or end of input after a term but found 'R'",
                      12));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1)] + X"),
                      "expected 'R[' (a replica) or an offset (an integer) "
                      "after '+' but found 'X'",
                      14));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1)] +"),
                      "after '+' but found end of input", 13));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1)"),
                      "expected ']' to close the shard but found end of input",
                      10));
  EXPECT_TRUE(
      failsAt(parseTileLayout("S[(8,):(1)]"),
              "expected an extent (a non-negative integer) but found ')'", 6));
  EXPECT_TRUE(
      failsAt(parseTileLayout("S[((8)):(1)]"),
              "expected an extent (a non-negative integer) but found '('", 4));
  EXPECT_TRUE(
      failsAt(parseTileLayout("S[8:(1)]"),
              "expected a stride (a non-negative integer) but found '('", 5));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):1]"),
                      "expected '(' to open the shard strides (the extents are "
                      "parenthesized) but found '1'",
                      7));
  EXPECT_TRUE(failsAt(
      parseTileLayout("S[(8)(1)]"),
      "expected ':' between the shard extents and strides but found '('", 6));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(99999999999999999999):(1)]"),
                      "does not fit in 64 bits", 4));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(4294967296,4294967296):(1,1)]"),
                      "integer overflow in the size of the shard", 1));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1)] + R[]"),
                      "expected an extent (a positive integer) or '(' in the "
                      "replica but found ']'",
                      16));
  EXPECT_TRUE(
      failsAt(parseTileLayout("S[(8):(1)] + R[(2):(0@tid]"),
              "expected ',' or ')' in the replica strides but found ']'", 26));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1)] + 3@nope"),
                      "unknown axis 'nope'", 16));
  EXPECT_TRUE(failsAt(parseTileLayout("S[(8):(1)] + -3"),
                      "expected 'R[' (a replica) or an offset (an integer) "
                      "after '+' but found '-'",
                      14));
}

TEST(TileText, UnknownAxisRendersWithCaretAndNote) {
  Expected<TileLayout> l = parseTileLayout("S[(8,2):(4@lane,1)]");
  ASSERT_FALSE(l);
  const Diagnostic &d = l.error();
  EXPECT_EQ(d.range->begin.column, 12u);
  EXPECT_EQ(d.range->end.column, 16u);
  std::string r = d.render();
  EXPECT_EQ(r.substr(0, r.find("note:")),
            "error: unknown axis 'lane' at column 12\n"
            "  S[(8,2):(4@lane,1)]\n"
            "             ^^^^\n");
  EXPECT_NE(r.find("note: known axes: m, laneid, warpid"), std::string::npos);
}

// An axis name with a non-ASCII letter is named whole: "l\xC3\xA4ne"
// ("läne", 5 bytes from column 7), not "l".
TEST(TileText, UnknownNonAsciiAxisIsNamedWhole) {
  Expected<TileLayout> l = parseTileLayout("S[4:1@l\xC3\xA4ne]");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message, "unknown axis 'l\xC3\xA4ne'");
  EXPECT_EQ(l.error().range->begin.column, 7u);
  EXPECT_EQ(l.error().range->end.column, 12u);
}

TEST(TileText, IterLimit) {
  std::string big = "S[(";
  for (size_t i = 0; i < TileLayout::kMaxIters + 1; ++i)
    big += i ? ",1" : "1";
  big += "):(0)]";
  Expected<TileLayout> l = parseTileLayout(big);
  ASSERT_FALSE(l);
  EXPECT_NE(l.error().message.find("at most 4096 iters"), std::string::npos);
}

/// Every text of the public oracle is canonical: it prints back byte for byte.
TEST(TileText, OracleTextsRoundTripExactly) {
  std::ifstream in(std::string(LK_TEST_DATA_DIR) + "/tile-public.jsonl");
  ASSERT_TRUE(in);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    const std::string key = "\"args\":[\"";
    size_t at = line.find(key);
    ASSERT_NE(at, std::string::npos);
    at += key.size();
    std::string text = line.substr(at, line.find('"', at) - at);
    Expected<TileLayout> l = parseTileLayout(text);
    ASSERT_TRUE(l) << text << "\n" << l.error().render();
    EXPECT_EQ(l->str(), text);
    ++n;
  }
  EXPECT_EQ(n, 316);
}

TEST(TileText, RandomLayoutsRoundTrip) {
  TileGenerator g(0x7e47);
  for (int n = 0; n < 2000; ++n) {
    TileLayout l = g.layout(int64_t(1) << 40, 8, 3, 4);
    std::string text = l.str();
    Expected<TileLayout> back = parseTileLayout(text);
    ASSERT_TRUE(back) << text << "\n" << back.error().render();
    EXPECT_EQ(*back, l) << text;
    EXPECT_EQ(back->str(), text);
  }
}

} // namespace
