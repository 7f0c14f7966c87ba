//===- CliTileTest.cpp - `layoutkit tile ...` -----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Expected outputs are derived from the tensor-core tile (8,16) of
// docs/design.md §6.1:
// laneid = 4i + (j/2) mod 4, warpid = j/8 + 5 + 4r, m = j mod 2, and from
// the (8,64) float16 bank example (§6.3).
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::failsWith;
using lk::cli::testing::resultOf;
using lk::cli::testing::runCli;

namespace {

const std::string kTc =
    "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid";

TEST(CliTile, EvalListsEveryReplica) {
  // (7,15): laneid = 28 + 3 = 31, warpid = 1 + 5 (+4), m = 1.
  EXPECT_EQ(resultOf({"tile", "eval", kTc, "(8,16)", "(7,15)"}),
            "laneid=31 warpid=6 m=1\nlaneid=31 warpid=10 m=1");
  // A single integer is the row-major index: 127 == (7,15).
  EXPECT_EQ(resultOf({"tile", "eval", kTc, "(8,16)", "127"}),
            "laneid=31 warpid=6 m=1\nlaneid=31 warpid=10 m=1");
  CliRun j = runCli({"tile", "eval", kTc, "(8,16)", "(2,3)", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  // (2,3): laneid = 8 + 1, warpid = 5 (+4), m = 1.
  EXPECT_EQ(j.json()["result"]["points"],
            nlohmann::json::parse(R"([{"laneid":9,"warpid":5,"m":1},
                                      {"laneid":9,"warpid":9,"m":1}])"));
  // x = 2 * 16 + 3 (row-major); two replicas.
  EXPECT_EQ(j.json()["result"]["x"], 35);
  EXPECT_EQ(j.json()["result"]["total"], 2);
}

TEST(CliTile, EvalOfASwizzledLayout) {
  // addr(i, 0) = 72 i under Swizzle(3,3,3).
  EXPECT_EQ(resultOf({"tile", "eval", "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]",
                      "(8,64)", "(5,0)"}),
            "m=360");
}

TEST(CliTile, OwnersSplitThreadsFromPlaces) {
  EXPECT_EQ(resultOf({"tile", "owners", kTc, "(8,16)", "(0,8)"}),
            "(0,8) has 2 owners:\n"
            "  laneid=0 warpid=6 holds it at m=0\n"
            "  laneid=0 warpid=10 holds it at m=0");
  EXPECT_EQ(resultOf({"tile", "owners", "S[(4,4):(4,1)]", "(4,4)", "(1,2)"}),
            "(1,2) has 1 owner:\n  (no thread axis) holds it at m=6");
}

TEST(CliTile, HoldsInvertsTheLayout) {
  // laneid 5 = 4i + (j/2) mod 4 -> i = 1, j/2 mod 4 = 1; warpid 6 -> j/8 = 1
  // with r = 0: j in {10, 11}.
  EXPECT_EQ(resultOf({"tile", "holds", kTc, "(8,16)", "laneid=5, warpid=6"}),
            "laneid=5 warpid=6 holds 2 elements: (1,10) (1,11)");
  // Warp 10 is warp 6's replica: the same elements.
  EXPECT_EQ(resultOf({"tile", "holds", kTc, "(8,16)", "laneid=5,warpid=10"}),
            "laneid=5 warpid=10 holds 2 elements: (1,10) (1,11)");
  // Warp 4 holds nothing: warpid >= 5 for every element.
  EXPECT_EQ(resultOf({"tile", "holds", kTc, "(8,16)", "laneid=5,warpid=4"}),
            "laneid=5 warpid=4 holds 0 elements");
  CliRun bad = runCli({"tile", "holds", kTc, "(8,16)", "lane=5"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("unknown axis 'lane'"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("  lane=5\n  ^^^^\n"), std::string::npos) << bad.err;
  CliRun twice = runCli({"tile", "holds", kTc, "(8,16)", "laneid=1,laneid=2"});
  EXPECT_NE(twice.err.find("axis laneid is given twice"), std::string::npos);
}

TEST(CliTile, ShowDrawsTheTileColouredByOwner) {
  CliRun r = runCli({"tile", "show", kTc, "(8,16)"});
  ASSERT_EQ(r.status, 0) << r.err;
  // A shape it cannot draw is SHAPE's fault.
  CliRun rank3 = runCli({"tile", "show", kTc, "(8,8,2)"});
  EXPECT_EQ(rank3.status, 1);
  EXPECT_NE(rank3.err.find("error: tile show draws shapes of rank 1 or 2; got "
                           "rank 3\nnote: in argument SHAPE of 'tile show'"),
            std::string::npos)
      << rank3.err;
  EXPECT_NE(
      r.out.find("cell (i,j): laneid,warpid,m  (replicas separated by |)"),
      std::string::npos);
  // Row 0 starts with (0,0): lane 0, warps 5 and 9, m 0 (columns are
  // padded to their widest cell, so blanks are collapsed first).
  std::string collapsed;
  for (char c : r.out)
    if (c != ' ' || collapsed.empty() || collapsed.back() != ' ')
      collapsed += c;
  EXPECT_NE(collapsed.find("\n0 0,5,0|0,9,0 0,5,1|0,9,1 1,5,0|1,9,0"),
            std::string::npos)
      << r.out;
  EXPECT_NE(collapsed.find("\n7 28,5,0|28,9,0 "), std::string::npos);
  CliRun svg = runCli({"tile", "show", kTc, "(8,16)", "--svg", "-"});
  ASSERT_EQ(svg.status, 0);
  EXPECT_EQ(svg.out.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.out.find(">31,6,1|31,10,1</text>"), std::string::npos);
  CliRun j = runCli({"tile", "show", kTc, "(8,16)", "--json"});
  EXPECT_EQ(j.json()["result"]["table"][7][15][1]["warpid"], 10);
  EXPECT_EQ(runCli({"tile", "show", "S[(2,2,2):(4,2,1)]", "(2,2,2)"}).status,
            1);
}

TEST(CliTile, BanksViewOfTheSpecExample) {
  CliRun plain = runCli({"tile", "banks", "S[(8,64):(64,1)]", "(8,64)"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  // Unswizzled: line i, bank 0 holds (i,0) and (i,1).
  EXPECT_NE(plain.out.find("\n3  (3,0) (3,1)  (3,2) (3,3)"), std::string::npos)
      << plain.out;
  // The header names the element type used: the default f16, else the
  // one the layout names (an attribute's elem=f32), as the JSON's bits.
  EXPECT_EQ(plain.out.rfind("S[(8,64):(64,1)] as f16\n", 0), 0u) << plain.out;
  CliRun f32 = runCli({"tile", "banks", "<(8,32),(32,1),elem=f32>", "(8,32)"});
  ASSERT_EQ(f32.status, 0) << f32.err;
  EXPECT_EQ(f32.out.rfind("S[(8,32):(32,1)] as f32\n", 0), 0u) << f32.out;
  CliRun j = runCli({"tile", "banks", "S[(8,64):(64,1)]", "(8,64)", "--swizzle",
                     "128B", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  // Swizzled: (i, 0) (flat 64i) at address 72i, bank word 36i: line i,
  // bank 4i.
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(j.json()["result"]["lines"][i][4 * i][0], 64 * i) << i;
  CliRun threads = runCli({"tile", "banks", kTc, "(8,16)"});
  EXPECT_EQ(threads.status, 1);
  EXPECT_NE(threads.err.find("bank analysis needs a memory layout"),
            std::string::npos);
}

TEST(CliTile, ConflictsOfAColumnRead) {
  CliRun plain = runCli({"tile", "conflicts", "S[(8,64):(64,1)]", "(8,64)",
                         "--column", "0", "--json"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.json()["result"]["ways"], 8);
  EXPECT_EQ(plain.json()["result"]["banks"][0]["words"].size(), 8u);
  EXPECT_EQ(resultOf({"tile", "conflicts", "S[(8,64):(64,1)]", "(8,64)",
                      "--swizzle", "128B"}),
            "lanes 0..7 read column 0 (1 element each) of "
            "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]\n"
            "conflict-free: every bank serves at most one word");
  // 16-byte vectors of f32 under 64B swizzle, rows of 64 bytes.
  CliRun v =
      runCli({"tile", "conflicts", "S[(16,16):(16,1)]", "(16,16)", "--dtype",
              "f32", "--swizzle", "64B", "--vector", "4", "--column", "3",
              "--lanes", "8", "--first-row", "5", "--json"});
  ASSERT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.json()["result"]["ways"], 1);
  CliRun twice =
      runCli({"tile", "conflicts", "Swizzle(3,3,3) o S[(8,64):(64,1)]",
              "(8,64)", "--swizzle", "128B"});
  EXPECT_EQ(twice.status, 1);
  EXPECT_NE(twice.err.find("already has a swizzle"), std::string::npos);
}

TEST(CliTile, BadInputIsDiagnosedWithACaret) {
  CliRun r =
      runCli({"tile", "eval", "S[(8,16):(1@lane,1)]", "(8,16)", "(0,0)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown axis 'lane'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("^"), std::string::npos);
  EXPECT_NE(r.err.find("in argument LAYOUT of 'tile eval'"), std::string::npos);
  CliRun shape = runCli({"tile", "eval", kTc, "(8,8)", "(0,0)"});
  EXPECT_EQ(shape.status, 1);
  EXPECT_NE(shape.err.find("in argument SHAPE"), std::string::npos)
      << shape.err;
  CliRun coord = runCli({"tile", "eval", kTc, "(8,16)", "(8,0)"});
  EXPECT_EQ(coord.status, 1);
  EXPECT_NE(coord.err.find("outside shape"), std::string::npos) << coord.err;
}

} // namespace

// SHAPE's faults are SHAPE's whatever the layout's grammar, checked before
// the layout is read over it: a rank-1 cute layout over several dims is
// composed with the shape's compact layout, which a zero extent or an
// overflowing size would otherwise fail as LAYOUT's fault.
TEST(CliTile, ShapeFaultsOverACuteLayoutAreTheShapes) {
  const std::string inShow = "note: in argument SHAPE of 'tile show'";
  EXPECT_TRUE(failsWith({"tile", "show", "32:1", "(0,8)"},
                        {"error: shape (0,8): extent 0 of dimension 0 must be "
                         "at least 1\n" +
                         inShow}));
  EXPECT_TRUE(failsWith({"tile", "show", "64:1", "(4294967296,4294967296)"},
                        {"integer overflow in the size of shape "
                         "(4294967296,4294967296)\n" +
                         inShow}));
  EXPECT_TRUE(failsWith({"tile", "eval", "(8,8):(8,1)", "((2,4),8)", "(1,2)"},
                        {"a logical shape is a flat tuple of extents, e.g. "
                         "(8,16); got ((2,4),8)\nnote: in argument SHAPE"}));
  // More dims than a tile layout has iters: SHAPE's fault, said briefly
  // (not a message echoing the composed layout's 4097 modes).
  std::string wide = "(1";
  for (int k = 0; k < 4096; ++k)
    wide += ",1";
  CliRun w = runCli({"tile", "eval", "1:1", wide + ")", "0"});
  EXPECT_EQ(w.status, 1);
  EXPECT_EQ(w.err, "error: SHAPE has 4097 dims; a tile layout has at most "
                   "4096\nnote: in argument SHAPE of 'tile eval'\n");
  // 64:1 over (8,8): element (r, c) at CuTe's 1-D index r + 8c, so (1,2)
  // is offset 17.
  CliRun r = runCli({"tile", "eval", "64:1", "(8,8)", "(1,2)"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("m=17"), std::string::npos) << r.out;
}

// What a cute layout has no tile form for is named on the layout as
// written, over any SHAPE: not on its modes reversed (the form over
// several dims) nor on its composition with the shape (rank 1).
TEST(CliTile, CuteFaultsNameTheLayoutAsWritten) {
  EXPECT_TRUE(failsWith({"tile", "eval", "(8,8):(-8,1)", "(8,8)", "3"},
                        {"error: cute layout (8,8):(-8,1), leaf 0 (stride -8): "
                         "a negative stride is not representable"}));
  EXPECT_TRUE(failsWith({"tile", "eval", "64:-1", "(8,8)", "3"},
                        {"error: cute layout 64:-1, leaf 0 (stride -1)"}));
  EXPECT_TRUE(failsWith(
      {"tile", "eval", "Sw<3,3,3> o 8 o (8,64):(64,1)", "(8,64)", "(1,3)"},
      {"a tile swizzle layout has no offset; Sw<3,3,3> o 8 o (8,64):(64,1) "
       "has offset 8"}));
}
