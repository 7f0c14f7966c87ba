//===- PaperCommandTest.cpp - `layoutkit paper ...` ----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Expected values: the paper's Table 2 bitwidths (a property of the layout
// a thread holds; f8[512, 2] differs, docs/paper.md), its Table 4 counts
// (784 cases, all passing) and a reduction derived by hand.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::runCli;

namespace {

TEST(PaperCommand, Table2JsonRows) {
  CliRun r = runCli({"paper", "table2", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json rows = r.json()["result"];
  ASSERT_EQ(rows.size(), 10u);
  // Paper, Triton-Linear column, f8 then f16, k = 1, 2, 4, 8, 16; f8 k=2
  // is 64 here (8 elements per thread with 4 warps).
  const int64_t bits[] = {32, 64, 128, 128, 128, 64, 128, 128, 128, 128};
  const char *inst[] = {"v1.b32", "v2.b32", "v4.b32", "v4.b32", "v4.b32",
                        "v2.b32", "v4.b32", "v4.b32", "v4.b32", "v4.b32"};
  for (size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rows[i]["dtype"], i < 5 ? "f8" : "f16");
    EXPECT_EQ(rows[i]["shape"][0], 512);
    EXPECT_EQ(rows[i]["shape"][1], int64_t(1) << (i % 5));
    EXPECT_EQ(rows[i]["bitwidth"], bits[i]);
    EXPECT_EQ(rows[i]["instruction"], inst[i]);
  }
}

TEST(PaperCommand, Table4JsonCounts) {
  CliRun r = runCli({"paper", "table4", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json t = r.json()["result"];
  EXPECT_EQ(t["total"], 784);
  EXPECT_EQ(t["passed"], 784);
  EXPECT_EQ(t["rows"].size(), 14u);
  EXPECT_EQ(t["rows"][13]["pair"], "i8/f8");
  EXPECT_EQ(t["rows"][13]["total"], 144);
}

TEST(PaperCommand, Table3TextListsEveryFamily) {
  CliRun r = runCli({"paper", "table3"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char *f : {"blocked ", "mma ", "mma-input ", "slice-blocked ",
                        "slice-mma ", "slice-mma-input ", "custom "})
    EXPECT_NE(r.out.find(f), std::string::npos) << f;
  EXPECT_EQ(r.out.find("first failure"), std::string::npos) << r.out;
}

// 8x8 in one warp: register c1, lanes c2 c4 r1 r2 r4. Axis 0: lanes 2-4
// are axis bits, the register bit (c1) is not: 3 butterfly rounds on each
// of the 2 result registers, so 6 combines and 6 shuffles per warp, no
// shared memory.
TEST(PaperCommand, ReduceHandDerived) {
  CliRun r = runCli({"paper", "reduce",
                     "{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), "
                     "(4,0)]} -> {dim0: 8, dim1: 8}",
                     "--axis", "0", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = r.json()["result"];
  EXPECT_EQ(j["lane_axis_bits"], nlohmann::json({2, 3, 4}));
  EXPECT_EQ(j["counts"]["shuffles"], 6);
  EXPECT_EQ(j["counts"]["combines"], 6);
  EXPECT_EQ(j["counts"]["store_instructions"], 0);
  EXPECT_EQ(j["correct"], true);
}

TEST(PaperCommand, ReduceNeedsAnAxis) {
  CliRun r = runCli(
      {"paper", "reduce", "{register: [(1)], lane: [(2)]} -> {dim0: 4}"});
  EXPECT_EQ(r.status, 2); // a usage error, as a missing argument
  EXPECT_NE(r.err.find("--axis is required"), std::string::npos) << r.err;
}

} // namespace
