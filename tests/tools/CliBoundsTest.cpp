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
using lk::cli::testing::failsWith;
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
  EXPECT_EQ(j.json()["result"]["points"].size(), 1000u);
  EXPECT_EQ(j.json()["result"]["total"], 4194304);
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
  // 65536 cells of 255 basis coordinates each: 16711680 values > 2^17.
  CliRun r = runCli({"show", "(256,256):(1@0,1@254)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("65536 cells of 255 values"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("at most 131072 values"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CliBounds, BanksRefusesHugeTilesBeforeWalking) {
  // 4096 x 4096 = 2^24 elements > 2^16.
  CliRun r =
      runCli({"tile", "banks", "S[(4096,4096):(4096,1)]", "(4096,4096)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("16777216, more than the limit of 65536"),
            std::string::npos)
      << r.err;
}

TEST(CliBounds, ConflictsBoundsTheLanes) {
  CliRun r = runCli({"tile", "conflicts", "S[(1048576,2):(2,1)]", "(1048576,2)",
                     "--lanes", "1048576"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("a column read has 1 to 1024 lanes (the threads of a "
                       "CTA); got 1048576"),
            std::string::npos)
      << r.err;
  // No lane is no read: refused, not printed as "lanes 0..-1".
  CliRun none = runCli(
      {"tile", "conflicts", "S[(8,64):(64,1)]", "(8,64)", "--lanes", "0"});
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.err.find("1 to 1024 lanes (the threads of a CTA); got 0"),
            std::string::npos)
      << none.err;
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
  CliRun r = runCli(
      {"tile", "holds", "S[(8,4):(1@laneid,1)]", "(8,4)", "l\u00e4neid=3"});
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
  EXPECT_EQ(resultOf({"idx2crd", "0x1f", "(4,8)"}), "(3,7)");
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

// A directory opens as a stream but fails at the first read: it is named
// as a failed file (exit 1), not an internal error (exit 3).
TEST(CliBounds, ConformanceDirectoryIsAFailedFile) {
  std::string dir = std::filesystem::temp_directory_path().string();
  CliRun r = runCli({"conformance", dir});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find(dir + " [<file>]: a directory, not a file of cases"),
            std::string::npos)
      << r.err;
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

namespace {

//===----------------------------------------------------------------------===//
// 64-bit edges (issue classes 2 and 4): each used to hang or print a
// wrapped value.
//===----------------------------------------------------------------------===//

// Padding an extent in (2^62, 2^63) would need 2^63: exit 1 naming the
// overflow, at once (the rounding loop used to spin forever).
TEST(CliEdges, PadBeyondInt64IsReported) {
  for (std::string ext :
       {"4611686018427387905", "6917529027641081856", "9223372036854775807"}) {
    CliRun r = runCli({"linear", "pad", ext + ":1"});
    EXPECT_EQ(r.status, 1) << ext;
    EXPECT_NE(r.err.find("integer overflow in the padded extent: the power "
                         "of two >= " +
                         ext + " is 2^63, beyond int64"),
              std::string::npos)
        << r.err;
  }
  // 2^62 itself is a power of two: nothing to pad, not an overflow.
  EXPECT_EQ(
      runCli({"linear", "pad", "4611686018427387904:1"}).err.find("overflow"),
      std::string::npos);
}

// |S| is checked before it is formed: INT64_MIN and -63 are refused with
// the three values named; -62 with B = M = 0 is the largest legal shift.
TEST(CliEdges, SwizzleShiftAtTheEdges) {
  for (std::string s : {"-9223372036854775808", "-63", "63"}) {
    CliRun r = runCli({"swizzle", "3", "4", s, "1016"});
    EXPECT_EQ(r.status, 1) << s;
    EXPECT_NE(r.err.find("swizzle parameters out of range: need 0 <= B, 0 <= "
                         "M and B + M + |S| <= 62, got B=3 M=4 S=" +
                         s),
              std::string::npos)
        << r.err;
  }
  EXPECT_EQ(resultOf({"swizzle", "0", "0", "-62", "5"}),
            "5"); // B = 0: identity
  // S < 0 moves bits [M, M+B) up by |S|: 3622 = 0b1110'0010'0110 has 1 in
  // the field [5, 8), which flips bit 8: 3622 + 256.
  EXPECT_EQ(resultOf({"swizzle", "3", "5", "-3", "3622"}), "3878");
  // The help states the same formula.
  CliRun h = runCli({"swizzle", "--help"});
  EXPECT_NE(h.out.find("X ^ shiftr(X & (((1<<B)-1) << (M+max(S,0))), S)"),
            std::string::npos)
      << h.out;
}

// An --order entry outside [0, rank) is refused before it is narrowed to an
// unsigned (it used to be reported as entry 4294967295).
TEST(CliEdges, OrderEntryOutOfRange) {
  const std::string l =
      "{register: [(0,1)], lane: [(1,0)]} -> {dim0: 2, dim1: 2}";
  for (std::string o : {"(9223372036854775807,0)", "(-1,0)", "(2,0)"}) {
    CliRun r = runCli({"linear", "properties", l, "--order", o});
    EXPECT_EQ(r.status, 1) << o;
    std::string first = o.substr(1, o.find(',') - 1);
    EXPECT_NE(r.err.find("order entry 0 is " + first +
                         "; expected an out-dim index in [0, 2)"),
              std::string::npos)
        << r.err;
  }
  EXPECT_EQ(runCli({"linear", "properties", l, "--order", "(1,0)"}).status, 0);
  // Not a permutation: an error at --order, not "contiguous elements: n/a".
  EXPECT_TRUE(failsWith({"linear", "properties", l, "--order", "(0,0)"},
                        {"order names out-dim 0 twice", "--order"}));
  EXPECT_TRUE(failsWith({"linear", "properties", l, "--order", "(0)"},
                        {"order has 1 entry; the layout has 2 out-dims"}));
}

// 2^64 - 1 in a conformance line is not an int64: a failure naming it, in
// every model's readers (it used to read as -1).
TEST(CliEdges, ConformanceUnsignedBeyondInt64) {
  std::string file = writeTemp(
      "uint64.jsonl",
      R"({"op":"size","args":[18446744073709551615],"expect":-1})"
      "\n"
      R"({"op":"tile_eval","args":["S[4:1]",[4],18446744073709551615],"expect":[]})"
      "\n"
      R"({"op":"linear_standard","args":[{"kind":"blocked","sizePerThread":[18446744073709551615],"threadsPerWarp":[32],"warpsPerCTA":[1],"order":[0]},[32]],"expect":{}})"
      "\n");
  CliRun r = runCli({"conformance", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("0 passed, 3 failed"), std::string::npos) << r.out;
  for (int line = 1; line <= 3; ++line)
    EXPECT_NE(r.err.find(file + ":" + std::to_string(line)), std::string::npos)
        << r.err;
  EXPECT_NE(r.err.find("18446744073709551615 does not fit in 64 signed bits"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("got -1"), std::string::npos) << r.err;
}

} // namespace

namespace {

//===----------------------------------------------------------------------===//
// Elements x replicas (api::tilePointBound) and the conformance line cap
//===----------------------------------------------------------------------===//

// 4 cells x 10^6 replicas = 4,000,000 points, over 2^16 = 65,536: refused
// before any cell is evaluated (it used to print 71 MB). 4 x 16384 = 2^16
// is drawn.
TEST(CliPoints, TileShowBoundsElementsTimesReplicas) {
  CliRun r = runCli({"tile", "show", "S[4:1] + R[1000000:1@warpid]", "4"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("tile show would enumerate 4000000 points (4 elements "
                       "x 1000000 replicas); the limit is 65536 points"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(runCli({"tile", "show", "S[4:1] + R[16384:1@warpid]", "4"}).status,
            0);
}

// --all is capped at 2^16 listed points; only those are computed (2^40
// replicas would otherwise take minutes and gigabytes).
TEST(CliPoints, EvalAllIsCapped) {
  CliRun r = runCli({"tile", "eval", "S[4:1] + R[1099511627776:1@warpid]", "4",
                     "1", "--all"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lineCount(r.out), 65536u + 1);
  EXPECT_NE(r.out.find("... " + std::to_string((int64_t(1) << 40) - 65536) +
                       " more (--all lists at most 65536)"),
            std::string::npos);
}

// A conformance tile_eval with 10^9 replicas is that case's failure, named.
TEST(CliPoints, ConformanceTileEvalIsBounded) {
  std::string file = writeTemp(
      "replicas.jsonl",
      R"({"op":"tile_eval","args":["S[4:1] + R[1000000000:1@warpid]",[4],1],"expect":[]})"
      "\n"
      R"({"op":"tile_eval","args":["S[4:1] + R[2:1@warpid]",[4],1],"expect":[{"m":1,"warpid":0},{"m":1,"warpid":1}]})"
      "\n");
  CliRun r = runCli({"conformance", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("1 passed, 1 failed"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("tile_eval would enumerate 1000000000 points (1 "
                       "element x 1000000000 replicas)"),
            std::string::npos)
      << r.err;
}

// A line over 1 MiB (here 300,000 strings, 1.8 MB) fails unparsed; the
// next line still runs.
TEST(CliPoints, ConformanceLineIsCapped) {
  std::string big = R"({"op":"size","args":[)";
  for (int i = 0; i < 300000; ++i)
    big += i ? R"(,"abc")" : R"("abc")";
  big += R"(],"expect":1})";
  std::string file = writeTemp(
      "longline.jsonl", big + "\n"
                              R"({"op":"size","args":["8:1"],"expect":8})"
                              "\n");
  CliRun r = runCli({"conformance", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("1 passed, 1 failed"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find(file + ":1 [<malformed>]: the line has " +
                       std::to_string(big.size()) +
                       " bytes; a case has at most 1048576 (1 MiB)"),
            std::string::npos)
      << r.err;
}

} // namespace
