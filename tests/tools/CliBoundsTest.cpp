//===- CliBoundsTest.cpp - Bounded work and output on hostile input --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Each input here used to run for minutes, print hundreds of megabytes, or
// crash. The limits (api/Query.h, docs/cli.md "Limits") make each one a
// short listing with a "... N more" line or a diagnostic naming the limit;
// every test finishes in well under a second.
//
// Expected counts come from the layouts: S[4:1] + R[4194304:1@warpid] has
// 4194304 = 2^22 replicas, so a listing of 1000 leaves 4193304 out.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using lk::cli::testing::CliRun;
using lk::cli::testing::resultOf;
using lk::cli::testing::runCli;

namespace {

const std::string kManyReplicas = "S[4:1] + R[4194304:1@warpid]";

size_t lineCount(const std::string &s) {
  size_t n = 0;
  for (char c : s)
    n += c == '\n';
  return n;
}

TEST(CliBounds, EvalListsTheFirstThousandReplicas) {
  CliRun r = runCli({"tile", "eval", kManyReplicas, "4", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  // 1000 points and the line saying how many were left out.
  EXPECT_EQ(lineCount(r.out), 1001u);
  // Replica k adds k on warpid; m = 1 for x = 1.
  EXPECT_EQ(r.out.substr(0, 24), "m=1 warpid=0\nm=1 warpid=");
  EXPECT_NE(r.out.find("m=1 warpid=999\n... 4193304 more (--all lists them)\n"),
            std::string::npos)
      << r.out.substr(r.out.size() - 200);
  CliRun j = runCli({"tile", "eval", kManyReplicas, "4", "1", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_EQ(j.json()["result"].size(), 1000u);
  EXPECT_EQ(j.json()["omitted"], 4193304);
}

TEST(CliBounds, AllLiftsTheListingCut) {
  // 2000 replicas: the default shows 1000, --all every one.
  const std::string l = "S[4:1] + R[2000:1@warpid]";
  EXPECT_EQ(lineCount(runCli({"tile", "eval", l, "4", "0"}).out), 1001u);
  CliRun all = runCli({"tile", "eval", l, "4", "0", "--all"});
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(lineCount(all.out), 2000u);
  EXPECT_EQ(all.out.find("more"), std::string::npos);
}

TEST(CliBounds, OwnersAreCutToo) {
  CliRun r = runCli({"tile", "owners", kManyReplicas, "4", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  // The heading counts every owner; 1000 are listed.
  EXPECT_EQ(r.out.substr(0, 22), "(2) has 4194304 owners");
  EXPECT_EQ(lineCount(r.out), 1u + 1000u + 1u);
  CliRun j = runCli({"tile", "owners", kManyReplicas, "4", "2", "--json"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_EQ(j.json()["result"]["owners"].size(), 1000u);
  EXPECT_EQ(j.json()["omitted"], 4193304);
}

TEST(CliBounds, HoldsIsCut) {
  // The layout names no laneid, so laneid=0 holds all 4096 elements.
  CliRun r = runCli({"tile", "holds", "S[4096:1]", "4096", "laneid=0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 29), "laneid=0 holds 4096 elements:");
  EXPECT_NE(r.out.find(" (999)\n... 3096 more (--all lists them)\n"),
            std::string::npos);
}

TEST(CliBounds, ShowRefusesHugeCodomainTables) {
  // 65536 cells of 255 basis coordinates each: 16711680 values > 2^20.
  CliRun r = runCli({"show", "(256,256):(1@0,1@254)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("65536 cells of 255 values"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at most 1048576 values"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CliBounds, BanksRefusesHugeTilesBeforeWalking) {
  // 4096 x 4096 = 2^24 elements > 2^20.
  CliRun r = runCli({"tile", "banks", "S[(4096,4096):(4096,1)]", "(4096,4096)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("16777216, more than the limit of 1048576"),
            std::string::npos)
      << r.err;
}

TEST(CliBounds, ConflictsBoundsTheLanes) {
  CliRun r = runCli({"tile", "conflicts", "S[(1048576,2):(2,1)]", "(1048576,2)",
                     "--lanes", "1048576"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("at most 1024 lanes"), std::string::npos) << r.err;
}

TEST(CliBounds, ConflictsFirstRowNearTheTopOfInt64) {
  // firstRow + lanes - 1 overflowed while the message was formed.
  CliRun r = runCli({"tile", "conflicts", "S[(8,64):(64,1)]", "(8,64)",
                     "--first-row", "9223372036854775807"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("8 lanes reading from row 9223372036854775807 leave "
                       "the 8 rows"),
            std::string::npos)
      << r.err;
}

TEST(CliBounds, IntegerMessagesNameWhatWasRead) {
  CliRun r = runCli({"size", "(99999999999999999999):(1)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("integer does not fit in 64 bits"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("integer an "), std::string::npos) << r.err;
}

TEST(CliBounds, NonAsciiNamesAreQuotedWhole) {
  // A misspelt axis with a non-ASCII letter is named whole.
  CliRun r = runCli({"tile", "holds", "S[(8,4):(1@laneid,1)]", "(8,4)",
                     "l\u00e4neid=3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown axis 'l\u00e4neid'"), std::string::npos)
      << r.err;
  // An unexpected character is quoted as the whole UTF-8 sequence.
  CliRun c = runCli({"size", "\u00e4:1"});
  EXPECT_EQ(c.status, 1);
  EXPECT_NE(c.err.find("'\u00e4'"), std::string::npos) << c.err;
}

TEST(CliBounds, HexIntegersEverywhere) {
  // 0x40 = 64, in the layout grammar and in an integer argument.
  EXPECT_EQ(resultOf({"size", "0x40:1"}), "64");
  EXPECT_EQ(resultOf({"cosize", "(0x4,0x2):(0x1,0x10)"}), "20");
  EXPECT_EQ(resultOf({"idx2crd", "(4,8)", "0x1f"}), "(3,7)");
  // An option: column 0x1 of (8,64) f16 rows is the same read as column 1.
  EXPECT_EQ(resultOf({"tile", "conflicts", "S[(8,64):(64,1)]", "(8,64)",
                      "--column", "0x1"}),
            resultOf({"tile", "conflicts", "S[(8,64):(64,1)]", "(8,64)",
                      "--column", "1"}));
  // 0x alone is not an integer: 0 followed by 'x'.
  EXPECT_EQ(runCli({"size", "0x:1"}).status, 1);
}

//===----------------------------------------------------------------------===//
// Failed writes
//===----------------------------------------------------------------------===//

/// A stream buffer that refuses every write, like stdout on a full disk.
struct FullBuf : std::streambuf {
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char *, std::streamsize) override { return 0; }
};

TEST(CliBounds, FailedWriteIsExit1WithAMessage) {
  FullBuf buf;
  std::ostream out(&buf);
  std::ostringstream err;
  for (std::vector<std::string> args :
       {std::vector<std::string>{"show", "(2,3):(3,1)"},
        {"size", "8:1", "--json"},
        {"tile", "eval", "S[4:1]", "4", "1"}}) {
    out.clear();
    err.str("");
    EXPECT_EQ(lk::cli::runLayoutkit(args, out, err), 1) << args[0];
    EXPECT_NE(err.str().find("writing the output failed"), std::string::npos)
        << err.str();
  }
}

//===----------------------------------------------------------------------===//
// conformance on malformed files
//===----------------------------------------------------------------------===//

std::string writeTemp(const std::string &name, const std::string &text) {
  std::filesystem::path p =
      std::filesystem::temp_directory_path() / ("lk_bounds_" + name);
  std::ofstream(p) << text;
  return p.string();
}

TEST(CliBounds, ConformanceMalformedCasesAreFailures) {
  std::string deep(100000, '[');
  std::string file = writeTemp(
      "malformed.jsonl",
      // 1: a boolean field given as 1.
      R"({"op":"linear_standard","args":[{"kind":"amd_mfma","versionMajor":3,"warpsPerCTA":[1,1],"mDim":32,"nDim":32,"isTransposed":1},[32,32]],"expect":{}})"
      "\n"
      // 2: nested 100000 deep.
      + deep + "\n" +
      // 3: swizzle parameters whose sum overflows.
      R"({"op":"swizzle","args":[9223372036854775807,9223372036854775807,0,5],"expect":5})"
      "\n"
      // 4: a string where an integer is read.
      R"({"op":"size","args":[["x"]],"expect":1})"
      "\n"
      // 5: a case that passes: size(8:1) = 8.
      R"({"op":"size","args":["8:1"],"expect":8})"
      "\n");
  CliRun r = runCli({"conformance", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("1 passed, 4 failed"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find(file + ":1 [linear_standard]: expected {}, got error: "
                              "field 'isTransposed' must be true or false, "
                              "got 1"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(file + ":2 [<malformed>]: JSON nested deeper than 64"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(file + ":3 [swizzle]: expected 5, got error: swizzle "
                              "parameters out of range"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(file + ":4 [size]"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;

  // --json: one document, the failures inside it.
  CliRun j = runCli({"conformance", file, "--json"});
  EXPECT_EQ(j.status, 1);
  nlohmann::json doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["op"], "conformance");
  EXPECT_EQ(doc["result"]["passed"], 1);
  EXPECT_EQ(doc["result"]["failed"], 4);
  ASSERT_EQ(doc["result"]["failures"].size(), 4u);
  EXPECT_EQ(doc["result"]["failures"][1]["case"], file + ":2");
  std::filesystem::remove(file);
}

TEST(CliBounds, ConformanceEmptyFileSaysSo) {
  std::string file = writeTemp("empty.jsonl", "");
  CliRun r = runCli({"conformance", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(file + " [<file>]: no cases"), std::string::npos)
      << r.err;
  std::filesystem::remove(file);
}

} // namespace
