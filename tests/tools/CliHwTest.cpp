//===- CliHwTest.cpp - `layoutkit hw ...` ---------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Expected values: docs/hardware.md §2.1 (mma fragments), §4.3 (the descriptor
// with SBO = 1024 B and 128B swizzle: SBO field 64 at bits 32-45, layout
// code 1 at bits 62-63 -> 0x4000004000010000), §1.3 and the (8,64)
// f16 column read of docs/design.md §6.3.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::failsWith;
using lk::cli::testing::resultOf;
using lk::cli::testing::runCli;

namespace {

TEST(CliHw, ListsAndShowsAtoms) {
  CliRun list = runCli(
      {"hw", "atoms", "--instruction", "mma.m16n8k16", "--operand", "C"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_NE(list.out.find(
                "mma.m16n8k16.f16.C  sm_80  C  16x8  32 threads x 4 values"),
            std::string::npos)
      << list.out;
  EXPECT_EQ(list.out.find(".A "), std::string::npos);
  // §2.1 C/D: c0 of lane 5 is (row 5/4 = 1, col 2*(5 mod 4) = 2).
  CliRun show = runCli({"hw", "atom", "mma.m16n8k16.f16.C", "--json"});
  ASSERT_EQ(show.status, 0) << show.err;
  bool found = false;
  nlohmann::json doc = show.json();
  for (const auto &h : doc["result"]["holders"])
    if (h["thread"] == 5 && h["value"] == 0) {
      EXPECT_EQ(h["coord"], nlohmann::json::parse("[1,2]"));
      found = true;
    }
  EXPECT_TRUE(found);
  CliRun text = runCli({"hw", "atom", "mma.m16n8k16.f16.C"});
  EXPECT_NE(text.out.find("T0V0"), std::string::npos);
  CliRun bad = runCli({"hw", "atom", "mma.m16n8k17.f16.C"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("unknown atom"), std::string::npos) << bad.err;
}

TEST(CliHw, EncodesAndDecodesDescriptors) {
  EXPECT_EQ(
      resultOf({"hw", "encode", "wgmma", "--sbo", "1024", "--swizzle", "128B"}),
      "0x4000004000010000");
  EXPECT_EQ(resultOf({"hw", "decode", "wgmma", "0x4000004000010000"}),
            "start=0x0 LBO=16 SBO=1024 base=0 swizzle=128B");
  CliRun layout = runCli({"hw", "decode", "wgmma", "0x4000004000010000", "--mn",
                          "64", "--k", "64", "--dtype", "bf16", "--json"});
  ASSERT_EQ(layout.status, 0) << layout.err;
  EXPECT_EQ(layout.json()["result"]["stride_byte_offset"], 1024);
  EXPECT_EQ(layout.json()["result"]["layout"],
            "Sw<3,3,3> o ((8,8),(8,8)):((64,512),(1,8))");
  CliRun bad = runCli({"hw", "encode", "wgmma", "--sbo", "1000"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("stride byte offset"), std::string::npos) << bad.err;
  CliRun word = runCli({"hw", "decode", "wgmma", "0xfffffffffffffffff"});
  EXPECT_EQ(word.status, 1);
}

TEST(CliHw, DecodesInstructionDescriptors) {
  // docs/hardware.md §6.6 test vectors: 0x08400490 is kind::f16 with bf16 A and
  // B, f32 D, M = 128, N = 256, both K-major.
  EXPECT_EQ(resultOf({"hw", "idesc", "0x08400490", "--kind", "f16"}),
            "kind=f16 a=bf16 b=bf16 d=f32 m=128 n=256 majorA=K majorB=K");
  CliRun j = runCli({"hw", "idesc", "0x08400490", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_EQ(j.json()["result"]["n"], 256);
  EXPECT_EQ(runCli({"hw", "idesc", "0x108400490"}).status, 1); // 33 bits
  EXPECT_EQ(runCli({"hw", "idesc", "0x08400490", "--kind", "f17"}).status, 1);
}

TEST(CliHw, AnalysesTheSpecColumnRead) {
  CliRun plain = runCli({"hw", "analyse", "S[(8,64):(1@laneid,1@m)]",
                         "S[(8,64):(64,1)]", "--json"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  // 16-byte vectors (8 halves of a row): 8 instructions, each 8 wavefronts
  // (rows 128 bytes apart all start in bank 0).
  EXPECT_EQ(plain.json()["result"]["vector_bytes"], 16);
  EXPECT_EQ(plain.json()["result"]["shared_memory"]["total"], 64);
  EXPECT_EQ(plain.json()["result"]["shared_memory"]["minimum"], 8);
  // The same memory as cute text has two readings and no shape to choose:
  // refused at MEMORY, naming the tile form above (not read transposed).
  EXPECT_TRUE(
      failsWith({"hw", "analyse", "S[(8,64):(1@laneid,1@m)]", "(8,64):(64,1)"},
                {"nothing here says which; over its modes it is "
                 "S[(8,64):(64,1)]",
                 "note: in argument MEMORY of 'hw analyse'"}));
  CliRun sw =
      runCli({"hw", "analyse", "S[(8,64):(1@laneid,1@m)]", "S[(8,64):(64,1)]",
              "--swizzle", "128B", "--access-bytes", "2"});
  ASSERT_EQ(sw.status, 0) << sw.err;
  EXPECT_NE(sw.out.find("64 instructions of 2 bytes per lane: 64 wavefronts "
                        "(conflict-free: 64)"),
            std::string::npos)
      << sw.out;
  CliRun global = runCli({"hw", "analyse", "S[32:1@laneid]", "S[32:1] + 1@m",
                          "--dtype", "f32", "--global"});
  ASSERT_EQ(global.status, 0) << global.err;
  EXPECT_NE(global.out.find("global memory: 5 sectors, 2 lines"),
            std::string::npos)
      << global.out;
  // The JSON record has both costs: bytes 4..131 (one f32 past the base)
  // are 5 sectors in 2 lines; 32 lanes x 4 B = 128 requested bytes, of the
  // 5 x 32 the sectors move: efficiency 0.8; 4 sectors would do.
  CliRun j = runCli({"hw", "analyse", "S[32:1@laneid]", "S[32:1] + 1@m",
                     "--dtype", "f32", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  const nlohmann::json doc = j.json();
  const nlohmann::json &g = doc["result"]["global_memory"];
  EXPECT_EQ(g["sectors"], 5);
  EXPECT_EQ(g["lines"], 2);
  EXPECT_EQ(g["requested_bytes"], 128);
  EXPECT_DOUBLE_EQ(g["efficiency"].get<double>(), 0.8);
  EXPECT_EQ(g["minimum_sectors"], 4);
  EXPECT_EQ(g["coalesced"], false);
}

TEST(CliHw, AnalysesABlockWideTidLayoutAsWarpZero) {
  // Thread t holds row t of an f32 (64,2) row-major tile; warp 0 is
  // threads 0..31 (lane = tid). 8-byte vectors: lane l at byte 8l, two
  // half-warp groups of 128 consecutive bytes: 1 wavefront each. At 4 B:
  // lanes l and l + 16 share bank 2l mod 32 with distinct words: 2 per
  // instruction (AnalysisTest derives the same).
  CliRun r = runCli({"hw", "analyse", "S[(64,2):(1@tid,1@m)]",
                     "S[(64,2):(2,1)]", "--dtype", "f32", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"]["vector_bytes"], 8);
  EXPECT_EQ(r.json()["result"]["shared_memory"]["total"], 2);
  CliRun w4 =
      runCli({"hw", "analyse", "S[(64,2):(1@tid,1@m)]", "S[(64,2):(2,1)]",
              "--dtype", "f32", "--access-bytes", "4", "--json"});
  ASSERT_EQ(w4.status, 0) << w4.err;
  EXPECT_EQ(w4.json()["result"]["shared_memory"]["total"], 4);
  EXPECT_EQ(w4.json()["result"]["shared_memory"]["minimum"], 2);
  CliRun both = runCli({"hw", "analyse", "S[(32,2):(1@laneid,32@tid)]",
                        "S[(32,2):(2,1)]", "--dtype", "f32"});
  EXPECT_EQ(both.status, 1);
  EXPECT_NE(both.err.find("names both laneid and tid"), std::string::npos)
      << both.err;
}

TEST(CliHw, AgreementVerdictAndExitStatus) {
  CliRun ok = runCli({"hw", "agree", "Sw<3,3,3> o (64,64):(64,1)", "--mn", "64",
                      "--k", "64", "--dtype", "bf16", "--tma-swizzle", "128B",
                      "--descriptor", "0x4000004000010000"});
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.line(), "the descriptions agree on all 4096 elements");
  // The descriptor read with 64B (layout code 2): SBO field 32 (512 B).
  CliRun bad = runCli({"hw", "agree", "Sw<2,3,3> o (64,32):(32,1)", "--mn",
                       "64", "--k", "32", "--dtype", "bf16", "--tma-swizzle",
                       "128B", "--descriptor", "0x8000002000010000"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find("the TMA disagrees at (mn=1, k=0)"), std::string::npos)
      << bad.out << bad.err;
  EXPECT_NE(bad.out.find("TMA writes with swizzle 128B, the descriptor reads "
                         "with swizzle 64B"),
            std::string::npos);
  CliRun none = runCli({"hw", "agree", "(8,8):(8,1)", "--mn", "8", "--k", "8"});
  EXPECT_EQ(none.status, 1);
  // A umma descriptor is read on sm_100: the default arch without --arch,
  // refused with another.
  const std::vector<std::string> umma = {"hw",
                                         "agree",
                                         "Sw<3,3,3> o (64,64):(64,1)",
                                         "--mn",
                                         "64",
                                         "--k",
                                         "64",
                                         "--dtype",
                                         "bf16",
                                         "--descriptor",
                                         "0x4000404000010000",
                                         "--kind",
                                         "umma"};
  CliRun onSm100 = runCli(umma);
  EXPECT_EQ(onSm100.status, 0) << onSm100.err;
  std::vector<std::string> onSm90 = umma;
  onSm90.insert(onSm90.end(), {"--arch", "sm_90"});
  EXPECT_TRUE(failsWith(
      onSm90, {"a umma descriptor is read on sm_100 only; the arch is sm_90"}));
}

// Options that would be ignored are refused: a tile option of decode
// without the tile, an operand no atom has.
TEST(CliHw, IgnoredOptionsAreRefused) {
  // A tile option asks for the layout, which needs --mn and --k: a usage
  // error (exit 2) without them, as --out without --emit is.
  for (const auto &[given, message] :
       {std::pair<std::vector<std::string>, std::string>{
            {"--dtype", "bf16"}, "--dtype requires --mn"},
        {{"--mn", "64"}, "--mn requires --k"},
        {{"--k", "64", "--major", "MN"}, "--major requires --mn"}}) {
    std::vector<std::string> args = {"hw", "decode", "wgmma",
                                     "0x4000004000010000"};
    args.insert(args.end(), given.begin(), given.end());
    CliRun r = runCli(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  // Given, they must be positive: a value the command refuses (exit 1).
  EXPECT_TRUE(failsWith(
      {"hw", "decode", "wgmma", "0x4000004000010000", "--mn", "0", "--k", "64"},
      {"give the tile with --mn N --k K (positive)"}));
  EXPECT_TRUE(
      failsWith({"hw", "atoms", "--operand", "D"}, {"unknown operand 'D'"}));
}

} // namespace
