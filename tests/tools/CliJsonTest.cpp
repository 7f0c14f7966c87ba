//===- CliJsonTest.cpp - --json output parsed back ------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include "cli/Json.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::runCli;
using nlohmann::json;

namespace {

TEST(CliJson, LayoutResultHasTextAndStructuredFields) {
  // coalesce((2,2,2):(1,2,16)): (2,2) merge to 4:1, 16 != 4 -> (4,2):(1,16).
  // size 8, cosize 1 + 3*1 + 1*16 = 20, rank 2, depth 1.
  CliRun r = runCli({"coalesce", "(2,2,2):(1,2,16)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  json j = r.json();
  EXPECT_EQ(j["op"], "coalesce");
  EXPECT_EQ(j["inputs"]["LAYOUT"], "(2,2,2):(1,2,16)");
  const json &res = j["result"];
  EXPECT_EQ(res["layout"], "(4,2):(1,16)");
  EXPECT_EQ(res["shape"], json::parse("[4,2]"));
  EXPECT_EQ(res["stride"], json::parse("[1,16]"));
  EXPECT_EQ(res["size"], 8);
  EXPECT_EQ(res["cosize"], 20);
  EXPECT_EQ(res["rank"], 2);
  EXPECT_EQ(res["depth"], 1);
}

TEST(CliJson, NestedTuplesAreNestedArrays) {
  // The by-mode tiler (_,_) keeps both modes: the result is A itself, with
  // its nested first mode.
  CliRun r = runCli({"composition", "((2,4),8):((1,16),2)", "(_,_)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  json j = r.json();
  const json &res = j["result"];
  EXPECT_EQ(res["shape"], json::parse("[[2,4],8]"));
  EXPECT_EQ(res["stride"], json::parse("[[1,16],2]"));
}

TEST(CliJson, ScalarBoolAndTupleResults) {
  EXPECT_EQ(runCli({"size", "(8,4):(1,8)", "--json"}).json()["result"], 32);
  EXPECT_EQ(
      runCli({"equivalent", "(2,4):(1,2)", "8:1", "--json"}).json()["result"],
      true);
  // idx2crd 5 in ((2,4),8) = ((1,2),0).
  EXPECT_EQ(runCli({"idx2crd", "5", "((2,4),8)", "--json"}).json()["result"],
            json::parse("[[1,2],0]"));
  // Rank-1 tuple stays an array: shape_div((8), 2) = (4).
  EXPECT_EQ(runCli({"shape_div", "(8)", "2", "--json"}).json()["result"],
            json::parse("[4]"));
}

TEST(CliJson, OptionsAppearInInputs) {
  CliRun r =
      runCli({"shape_div", "(6,4)", "4", "--rounding", "ceil", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["inputs"]["--rounding"], "ceil");
  EXPECT_EQ(r.json()["result"], json::parse("[2,4]"));
}

TEST(CliJson, TopLevelJsonFlagWorksToo) {
  CliRun r = runCli({"--json", "rank", "(2,3,4):(1,2,6)"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.json()["result"], 3);
}

TEST(CliJson, BasisStrideEncoding) {
  // 3@1 is {"scale":3,"basis":[1]}; a basis layout has no cosize.
  CliRun r = runCli({"flatten", "((2,2),4):((1@0,2@0),3@1)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  json j = r.json();
  const json &res = j["result"];
  EXPECT_EQ(res["stride"][2], json::parse(R"({"scale":3,"basis":[1]})"));
  EXPECT_TRUE(res["cosize"].is_null());
}

TEST(JsonEncoding, IntTupleForms) {
  using lk::IntTuple;
  EXPECT_EQ(json::parse(lk::cli::toJson(IntTuple(8)).dump()), json(8));
  EXPECT_EQ(json::parse(lk::cli::toJson(IntTuple::tuple({8})).dump()),
            json::parse("[8]"));
  EXPECT_EQ(json::parse(lk::cli::toJson(IntTuple()).dump()), json::array());
  EXPECT_EQ(json::parse(
                lk::cli::toJson(
                    IntTuple::leaf(1, lk::BasisPath::unit(0).pushed(1).value()))
                    .dump()),
            json::parse(R"({"scale":1,"basis":[0,1]})"));
}

} // namespace
