//===- CliLinearTest.cpp - `layoutkit linear ...` -------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The layout L = {register: [(0,1)], lane: [(1,0),(2,0)]} -> {dim0: 4,
// dim1: 2} puts (dim0, dim1) = (lane, register); expected values follow
// from XOR-ing its bases by hand.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::failsWith;
using lk::cli::testing::resultOf;
using lk::cli::testing::runCli;

namespace {

const std::string kL =
    "{register: [(0,1)], lane: [(1,0),(2,0)]} -> {dim0: 4, dim1: 2}";

TEST(CliLinear, ApplyXorsTheBases) {
  // register 1 -> (0,1); lane 3 = bits 0 and 1 -> (1,0) ^ (2,0) = (3,0).
  EXPECT_EQ(resultOf({"linear", "apply", kL, "register=1,lane=3"}),
            "dim0=3 dim1=1");
  EXPECT_EQ(resultOf({"linear", "apply", kL, "lane=2"}), "dim0=2 dim1=0");
  CliRun bad = runCli({"linear", "apply", kL, "reg=1"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("the layout has no in-dim 'reg'"), std::string::npos);
  EXPECT_NE(bad.err.find("  reg=1\n  ^^^\n"), std::string::npos) << bad.err;
  EXPECT_EQ(runCli({"linear", "apply", kL, "lane=4"}).status,
            1); // out of range
}

TEST(CliLinear, ShowDrawsTheHolders) {
  CliRun r = runCli({"linear", "show", kL});
  ASSERT_EQ(r.status, 0) << r.err;
  // Row dim0 = lane, column dim1 = register.
  EXPECT_NE(r.out.find("\n3  R0L3  R1L3\n"), std::string::npos) << r.out;
  CliRun svg = runCli({"linear", "show", kL, "--svg", "-"});
  EXPECT_EQ(svg.out.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.out.find(">R1L2</text>"), std::string::npos);
}

TEST(CliLinear, StandardBlockedLayout) {
  // blocked sizePerThread [1,4], threadsPerWarp [8,4], order [1,0] on
  // (8,16): register bits -> dim1 1, 2; lane bits -> dim1 4, 8, then dim0
  // 1, 2, 4 (Triton's blocked layout: fastest dim first).
  CliRun r = runCli(
      {"linear", "standard",
       R"({"kind":"blocked","sizePerThread":[1,4],"threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]})",
       "(8,16)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["bases"]["register"],
            nlohmann::json::parse("[[0,1],[0,2]]"));
  EXPECT_EQ(r.json()["result"]["bases"]["lane"],
            nlohmann::json::parse("[[0,4],[0,8],[1,0],[2,0],[4,0]]"));
  CliRun bad =
      runCli({"linear", "standard", R"({"kind":"blocked"})", "(8,16)"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("missing field"), std::string::npos) << bad.err;
  EXPECT_EQ(runCli({"linear", "standard", "{not json", "(8,16)"}).status, 1);
  // A SHAPE of another rank than the (self-consistent) layout is SHAPE's.
  EXPECT_TRUE(failsWith(
      {"linear", "standard",
       R"({"kind":"blocked","sizePerThread":[1,4],"threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]})",
       "(8,16,2)"},
      {"note: in argument SHAPE of 'linear standard'"}));
}

// Shape faults of the shape operations and bridges name the shape: SHAPE
// of broadcast (dim 0 cannot grow from 1 to 3), --shape of from-tile (the
// 64 elements of the tile layout are not 8x9).
TEST(CliLinear, ShapeFaultsNoteTheShape) {
  EXPECT_TRUE(failsWith({"linear", "broadcast",
                         "{register: [(0,1)]} -> {dim0: 1, dim1: 2}", "(3,2)"},
                        {"error: broadcast: dim 0 can only grow from size 1 "
                         "to a power of two",
                         "note: in argument SHAPE of 'linear broadcast'"}));
  EXPECT_TRUE(
      failsWith({"linear", "from-tile", "S[(8,4,2):(4@laneid,1@laneid,1)]",
                 "--shape", "(8,9)"},
                {"error: shape (8,9) of size 72 is not admitted by a "
                 "layout of size 64",
                 "note: in option --shape of 'linear from-tile'"}));
}

TEST(CliLinear, ComposeAndInvert) {
  // lane bit 0 -> offset 1 -> dim0 2; lane bit 1 -> offset 2 -> dim0 1.
  EXPECT_EQ(resultOf({"linear", "compose", "{lane: [(1),(2)]} -> {offset: 4}",
                      "{offset: [(2),(1)]} -> {dim0: 4}"}),
            "{lane: [(2), (1)]} -> {dim0: 4}");
  // The inverse of a bit swap is the same swap, from dim0 back to lane.
  EXPECT_EQ(resultOf({"linear", "invert", "{lane: [(2),(1)]} -> {dim0: 4}"}),
            "{dim0: [(2), (1)]} -> {lane: 4}");
  // A broadcast (lane bit 1 maps to 0) has no inverse but a pseudoinverse
  // that sends dim0 1 to lane 1.
  EXPECT_EQ(
      runCli({"linear", "invert", "{lane: [(1),(0)]} -> {dim0: 2}"}).status, 1);
  EXPECT_EQ(resultOf({"linear", "invert", "{lane: [(1),(0)]} -> {dim0: 2}",
                      "--pseudo"}),
            "{dim0: [(1)]} -> {lane: 4}");
  CliRun b = runCli({"linear", "bases", kL, "--json"});
  ASSERT_EQ(b.status, 0);
  EXPECT_EQ(b.json()["result"]["injective"], true);
  EXPECT_EQ(b.json()["result"]["surjective"], true);
  EXPECT_EQ(b.json()["result"]["rank"], 3);
}

TEST(CliLinear, BridgesFromAndToCuteAndTile) {
  // (4,8):(8,1): index bits 0,1 (mode 0, stride 8) -> offsets 8, 16; bits
  // 2..4 (mode 1, stride 1) -> 1, 2, 4.
  EXPECT_EQ(resultOf({"linear", "from-cute", "(4,8):(8,1)"}),
            "{index: [(8), (16), (1), (2), (4)]} -> {offset: 32}");
  EXPECT_EQ(resultOf({"linear", "to-cute",
                      "{index: [(8),(16),(1),(2),(4)]} -> {offset: 32}"}),
            "(4,8):(8,1)");
  // Sw<3,4,3> moves bit 7 to bit 4 and bit 8 to bit 5: 128 -> 144, 256 -> 288.
  EXPECT_EQ(resultOf({"linear", "from-cute", "Sw<3,4,3> o (8,64):(64,1)"}),
            "{index: [(64), (144), (288), (1), (2), (4), (8), (16), (32)]} -> "
            "{offset: 512}");
  // The m8n8 fragment: register = j mod 2, lane = 4i + j/2.
  EXPECT_EQ(resultOf({"linear", "from-tile", "S[(8,4,2):(4@laneid,1@laneid,1)]",
                      "--shape", "(8,8)"}),
            "{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]} -> "
            "{dim0: 8, dim1: 8}");
  // Back to a tile layout in merged form: lane = flat / 2, m = flat mod 2.
  EXPECT_EQ(
      resultOf({"linear", "to-tile",
                "{register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),(4,0)]} "
                "-> {dim0: 8, dim1: 8}"}),
      "S[(32,2):(1@laneid,1)]");
  CliRun bad = runCli({"linear", "from-tile", "S[(8,3):(1,8)]"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("extent 3, not a power of two"), std::string::npos)
      << bad.err;
  EXPECT_EQ(
      runCli({"linear", "to-cute", "{index: [(3),(1)]} -> {offset: 4}"}).status,
      1); // bases share bit 0: the offsets would carry
  // A plain layout's fault names it as written, in argument LAYOUT.
  EXPECT_TRUE(failsWith({"linear", "from-cute", "(3,4):(1,3)"},
                        {"error: leaf 0 (3:1) of (3,4):(1,3) has extent 3",
                         "note: in argument LAYOUT of 'linear from-cute'"}));
}

TEST(CliLinear, StandardIntelDpas) {
  // The DpasEncodingAttr description's example 2 (opsPerChan 1, sub-group
  // 16): A is 8 x 8, even rows on lanes 0..7, odd rows on lanes 8..15, so
  // lane bit 3 is row 1 and the registers take rows 2 and 4.
  const std::string dpas =
      R"("kind":"intel_dpas","repeatCount":8,"systolicDepth":8,"executionSize":16,"threadsPerWarp":16,"warpsPerCTA":[1,1],"repCluster":[1,1])";
  CliRun r =
      runCli({"linear", "standard",
              R"({"kind":"dot_operand","opIdx":0,"kWidth":1,"parent":{)" +
                  dpas + R"(,"opsPerChan":1}})",
              "(8,8)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["bases"]["register"],
            nlohmann::json::parse("[[2,0],[4,0]]"));
  EXPECT_EQ(r.json()["result"]["bases"]["lane"],
            nlohmann::json::parse("[[0,1],[0,2],[0,4],[1,0]]"));
  // opsPerChannel is accepted for opsPerChan; a missing parameter and an
  // out-of-range one are named.
  EXPECT_EQ(runCli({"linear", "standard", "{" + dpas + R"(,"opsPerChannel":2})",
                    "(8,16)"})
                .status,
            0);
  CliRun missing = runCli({"linear", "standard", "{" + dpas + "}", "(8,16)"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("missing field 'opsPerChan'"), std::string::npos)
      << missing.err;
  CliRun huge = runCli(
      {"linear", "standard",
       R"({"kind":"intel_dpas","repeatCount":8,"systolicDepth":8,"executionSize":16,"opsPerChan":2,"threadsPerWarp":-16,"warpsPerCTA":[1,1],"repCluster":[1,1]})",
       "(8,16)"});
  EXPECT_EQ(huge.status, 1);
  EXPECT_NE(huge.err.find("field 'threadsPerWarp' must be in 0..2^30, got -16"),
            std::string::npos)
      << huge.err;
}

} // namespace
