//===- CliNewCommandsTest.cpp - presets, parse, steps, linear ops ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Expected values are derived by hand beside each check.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::resultOf;
using lk::cli::testing::runCli;
using nlohmann::json;

namespace {

const std::string kTc =
    "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid";
/// A blocked layout: lane 0 bit -> column 2, lane bit 1 -> row 1.
const std::string kBlocked =
    "{register: [(0,1)], lane: [(0,2), (1,0)]} -> {dim0: 2, dim1: 4}";

TEST(CliNewCommands, TilePresets) {
  CliRun all = runCli({"tile", "presets"});
  ASSERT_EQ(all.status, 0) << all.err;
  // Seven presets (docs/design.md §6.2), one line each.
  EXPECT_EQ(std::count(all.out.begin(), all.out.end(), '\n'), 7);
  EXPECT_NE(all.out.find("mma_m8n8_fragment  (8,8)  "
                         "S[(8,4,2):(4@laneid,1@laneid,1)]\n"),
            std::string::npos)
      << all.out;
  CliRun one = runCli({"tile", "presets", "mma_m8n8_fragment", "--json"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.json()["result"]["layout"], "S[(8,4,2):(4@laneid,1@laneid,1)]");
  EXPECT_EQ(one.json()["result"]["shape"], json::parse("[8,8]"));
  // The printed layout works in the other tile commands: (0,1) of the
  // fragment is laneid 0, m 1.
  EXPECT_EQ(resultOf({"tile", "eval", one.json()["result"]["layout"], "(8,8)",
                      "(0,1)"}),
            "laneid=0 m=1");
  EXPECT_EQ(runCli({"tile", "presets", "no_such"}).status, 1);
}

TEST(CliNewCommands, ParseBasisAndAttribute) {
  // 4/2 reduces to 2, 0x2 is 2; blanks are normalised.
  EXPECT_EQ(resultOf({"parse", "basis", "( 1@0 , (0x2@1, 4/2@0@1) )"}),
            "(1@0, (2@1, 2@0@1))");
  CliRun a = runCli({"parse", "attribute",
                     "<(8,64),(64,1),swizzle<3,4,3>,elem=f16>", "--json"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.json()["result"]["swizzle"],
            json::parse(R"({"B":3,"M":4,"S":3})"));
  EXPECT_EQ(a.json()["result"]["elem"]["bits"], 16);
  // The attribute's layout is the record `show` gives the same function:
  // over f16 offsets the byte swizzle <3,4,3> is Sw<3,3,3> (M - log2 2).
  CliRun shown = runCli({"show", "Sw<3,3,3> o (8,64):(64,1)", "--json"});
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_EQ(a.json()["result"]["layout"], shown.json()["result"]["layout"]);
  EXPECT_EQ(a.json()["result"]["layout"]["layout"],
            "Sw<3,3,3> o (8,64):(64,1)");
  // Without the clauses, swizzle and elem are null (not <0,...>, not f16).
  CliRun plain = runCli({"parse", "attribute", "<(8,64),(64,1)>", "--json"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_TRUE(plain.json()["result"]["swizzle"].is_null());
  EXPECT_TRUE(plain.json()["result"]["elem"].is_null());
  EXPECT_EQ(
      plain.json()["result"]["layout"],
      runCli({"show", "(8,64):(64,1)", "--json"}).json()["result"]["layout"]);
  // 1/2 is not an integer count.
  CliRun bad = runCli({"parse", "basis", "(1@0, 1/2@1)"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("not an integer"), std::string::npos) << bad.err;
  EXPECT_EQ(runCli({"parse", "yaml", "x"}).status, 1);
}

TEST(CliNewCommands, EvalSteps) {
  // x = 127 = (7,15) over the shard extents (8,2,4,2), the last fastest:
  // 127 = 7*16 + 1*8 + 3*2 + 1, so c = (7,1,3,1).
  CliRun r =
      runCli({"tile", "eval", kTc, "(8,16)", "(7,15)", "--steps", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json doc = r.json();
  const json &steps = doc["result"]["steps"];
  ASSERT_EQ(steps.size(), 6u); // 4 shard iters, 1 offset, 1 replica iter
  EXPECT_EQ(steps[0]["component"], 7);
  EXPECT_EQ(steps[0]["added"], 28); // 7 * 4 on laneid
  EXPECT_EQ(steps[1]["added"], 1);  // 1 * 1 on warpid
  EXPECT_EQ(steps[2]["added"], 3);  // 3 * 1 on laneid
  EXPECT_EQ(steps[3]["axis"], "m");
  EXPECT_EQ(steps[4]["kind"], "offset");
  EXPECT_EQ(steps[4]["added"], 5);
  EXPECT_EQ(steps[5]["kind"], "replica");
  EXPECT_EQ(steps[5]["stride"], 4);
  // The points are eval's: laneid 31, warpid 6 (+4), m 1.
  EXPECT_EQ(doc["result"]["points"][1],
            json::parse(R"({"laneid":31,"warpid":10,"m":1})"));
}

TEST(CliNewCommands, SwizzleOptionOnEvalOwnersShow) {
  // 128B for f16 is Swizzle(M=3,B=3,S=3): (3,0) is m = 192 = 0b11000000;
  // bits 6-8 (= 3) xor into bits 3-5: 192 ^ 24 = 216.
  EXPECT_EQ(resultOf({"tile", "eval", "S[(8,64):(64,1)]", "(8,64)", "(3,0)",
                      "--swizzle", "128B"}),
            "m=216");
  // The same through the swizzled text.
  EXPECT_EQ(resultOf({"tile", "eval", "Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]",
                      "(8,64)", "(3,0)"}),
            "m=216");
  // f32 128B is Swizzle(M=2,B=3,S=3): m = 192 -> bits 5-7 (= 6) into
  // bits 2-4: 192 ^ 24 = 216 as well; --dtype f8e4m3 (M=4): 192 has bits
  // 7-9 = 1, into bits 4-6: 192 ^ 16 = 208.
  EXPECT_EQ(resultOf({"tile", "eval", "S[(8,64):(64,1)]", "(8,64)", "(3,0)",
                      "--swizzle", "128B", "--dtype", "f8e4m3"}),
            "m=208");
  EXPECT_EQ(runCli({"tile", "show", "S[(2,64):(64,1)]", "(2,64)", "--swizzle",
                    "128B"})
                .status,
            0);
  EXPECT_EQ(runCli({"tile", "owners", "S[(8,64):(64,1)]", "(8,64)", "(3,0)",
                    "--swizzle", "128B"})
                .status,
            0);
}

TEST(CliNewCommands, LinearProductAndDivide) {
  // On the common out-dim dim0 OUTER's values are shifted above INNER's 2.
  EXPECT_EQ(resultOf({"linear", "product", "{register: [(1)]} -> {dim0: 2}",
                      "{lane: [(1)]} -> {dim0: 2}"}),
            "{register: [(1)], lane: [(2)]} -> {dim0: 4}");
  // Dividing out the first register basis leaves (2),(4) shifted down.
  EXPECT_EQ(
      resultOf({"linear", "divide", "{register: [(1),(2),(4)]} -> {dim0: 8}",
                "{register: [(1)]} -> {dim0: 2}"}),
      "{register: [(1), (2)]} -> {dim0: 4}");
}

TEST(CliNewCommands, LinearProperties) {
  // Register (0,1) is offset 1 (row-major, dim1 fastest) and nothing else
  // touches bit 0: 2 contiguous elements. Lane bit 2 is a zero column:
  // broadcast, so the layout is not invertible (not a memory layout) but
  // still distributed.
  CliRun r = runCli({"linear", "properties",
                     "{register: [(0,1)], lane: [(0,2), (1,0), (0,0)]} -> "
                     "{dim0: 2, dim1: 4}",
                     "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json doc = r.json();
  const json &j = doc["result"];
  EXPECT_EQ(j["distributed"], true);
  EXPECT_EQ(j["memory"], false);
  EXPECT_EQ(j["contiguous_elements"], 2);
  EXPECT_EQ(j["duplicates"]["lane"]["zero_mask"], 4);
  EXPECT_EQ(j["duplicates"]["register"]["zero_mask"], 0);
}

TEST(CliNewCommands, LinearShapeOps) {
  // trans (1,0): result dim0 is operand dim1, so (r,c) bases swap.
  EXPECT_EQ(resultOf({"linear", "trans", kBlocked, "(1,0)"}),
            "{register: [(1,0)], lane: [(2,0), (0,1)]} -> {dim0: 4, dim1: 2}");
  // And back.
  EXPECT_EQ(resultOf({"linear", "trans",
                      "{register: [(1,0)], lane: [(2,0), (0,1)]} -> {dim0: 4, "
                      "dim1: 2}",
                      "(1,0)", "--backward"}),
            "{register: [(0,1)], lane: [(0,2), (1,0)]} -> {dim0: 2, dim1: 4}");
  // reshape to 8: row-major index (r,c) -> 4r + c: (0,1) -> 1, (0,2) -> 2,
  // (1,0) -> 4.
  EXPECT_EQ(resultOf({"linear", "reshape", kBlocked, "8"}),
            "{register: [(1)], lane: [(2), (4)]} -> {dim0: 8}");
  // split undoes join.
  CliRun joined = runCli({"linear", "join", kBlocked});
  ASSERT_EQ(joined.status, 0) << joined.err;
  EXPECT_EQ(resultOf({"linear", "split", joined.line()}),
            "{register: [(0,1)], lane: [(0,2), (1,0)]} -> {dim0: 2, dim1: 4}");
  EXPECT_EQ(runCli({"linear", "trans", kBlocked, "(5,0)"}).status, 1);
  EXPECT_EQ(runCli({"linear", "expand_dims", kBlocked, "99"}).status, 1);
}

TEST(CliNewCommands, Gather) {
  // f32 8x8, one warp, each lane two adjacent columns of one row. Axis 1
  // (columns): column bit 1 is a register bit, bits 2 and 4 lane bits, so
  // each of the 2 output registers takes 2^1 rounds: 4 shfl, 4 selects.
  // Axis 0 (rows): all three row bits are lane bits, no register bit: one
  // round per register, 2 shfl, nothing to select.
  const std::string l = "{register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),"
                        "(4,0)]} -> {dim0: 8, dim1: 8}";
  EXPECT_EQ(resultOf({"gather", l, l, "--axis", "1", "--dtype", "f32"}),
            "warp shuffle: 2 round(s) per output register, 4 shfl, 4 selects");
  CliRun j =
      runCli({"gather", l, l, "--axis", "0", "--dtype", "f32", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  const json doc = j.json();
  EXPECT_EQ(doc["result"]["cost"]["shuffles"], 2);
  EXPECT_EQ(doc["result"]["cost"]["selects"], 0);
  // Without --dtype, and with no tensor type naming one, it is refused.
  CliRun untyped = runCli({"gather", l, l, "--axis", "1"});
  EXPECT_EQ(untyped.status, 1);
  EXPECT_NE(untyped.err.find("--dtype is required"), std::string::npos)
      << untyped.err;
  EXPECT_EQ(runCli({"gather", l, l, "--axis", "7", "--dtype", "f32"}).status,
            1);
}

// --emit cuda prints the device function only; --host-main adds the test
// kernel and main() (as for `plan`); --host-main without --emit is refused.
TEST(CliNewCommands, GatherEmitHostMain) {
  const std::string l = "{register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),"
                        "(4,0)]} -> {dim0: 8, dim1: 8}";
  std::vector<std::string> args = {"gather",  l,     l,        "--axis", "1",
                                   "--dtype", "f32", "--emit", "cuda"};
  CliRun plain = runCli(args);
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_NE(plain.out.find("__device__ void lk_gather("), std::string::npos);
  EXPECT_EQ(plain.out.find("lk_gather_test_kernel"), std::string::npos);
  EXPECT_EQ(plain.out.find("int main()"), std::string::npos);
  args.push_back("--host-main");
  CliRun full = runCli(args);
  ASSERT_EQ(full.status, 0) << full.err;
  EXPECT_NE(full.out.find("__global__ void lk_gather_test_kernel("),
            std::string::npos);
  EXPECT_NE(full.out.find("int main()"), std::string::npos);
  // --out -: the code alone on stdout, the description left out.
  args.insert(args.end(), {"--out", "-"});
  CliRun piped = runCli(args);
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(piped.out.rfind("// Generated by LayoutKit: ", 0), 0u) << piped.out;
  // The same code as printed after the description and a blank line.
  EXPECT_EQ(piped.out, full.out.substr(full.out.find("\n\n") + 2));
  CliRun bad =
      runCli({"gather", l, l, "--axis", "1", "--dtype", "f32", "--host-main"});
  EXPECT_EQ(bad.status, 2); // a usage error, as an unknown option is
  EXPECT_NE(bad.err.find("--host-main requires --emit"), std::string::npos)
      << bad.err;
}

} // namespace
