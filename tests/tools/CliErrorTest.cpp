//===- CliErrorTest.cpp - Diagnostics, exit codes, JSON errors ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::runCli;

namespace {

TEST(CliErrors, ParseErrorShowsCaretAndExits1) {
  // The ':' at column 5 is where ',' or ')' was expected.
  CliRun r = runCli({"size", "(2,3:(3,1)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at column 5"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  (2,3:(3,1)\n      ^\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("note: in argument LAYOUT of 'size'"), std::string::npos)
      << r.err;
}

TEST(CliErrors, NonCongruentLayout) {
  CliRun r = runCli({"show", "(2,4):(1)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("^"), std::string::npos) << r.err;
}

TEST(CliErrors, BadSecondArgumentIsNamed) {
  CliRun r = runCli({"composition", "8:1", "(4:1,"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("in argument TILER of 'composition'"), std::string::npos)
      << r.err;
}

TEST(CliErrors, BadIntegerArgument) {
  CliRun r = runCli({"group_modes", "(2,4,8):(1,2,8)", "0", "2x"});
  EXPECT_EQ(r.status, 1);
  // "2x": the 'x' at column 2.
  EXPECT_NE(r.err.find("at column 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("in argument END"), std::string::npos) << r.err;
}

TEST(CliErrors, AlgebraErrorExits1) {
  // group_modes needs BEGIN < END <= rank = 3.
  EXPECT_EQ(runCli({"group_modes", "(2,4,8):(1,2,8)", "2", "5"}).status, 1);
  // 6 / 4: neither divides the other.
  CliRun r = runCli({"shape_div", "6", "4"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  // Basis strides have no cosize.
  EXPECT_EQ(runCli({"cosize", "(4,8):(1@0,1@1)"}).status, 1);
}

TEST(CliErrors, JsonErrorOnStdout) {
  CliRun r = runCli({"size", "(2,3:(3,1)", "--json"});
  EXPECT_EQ(r.status, 1);
  nlohmann::json j = r.json();
  ASSERT_TRUE(j.contains("error"));
  EXPECT_TRUE(j["error"]["message"].is_string());
  EXPECT_EQ(j["error"]["column"], 5);
  EXPECT_EQ(j["error"]["input"], "(2,3:(3,1)");
  ASSERT_TRUE(j["error"]["notes"].is_array());
  EXPECT_EQ(j["error"]["notes"][0], "in argument LAYOUT of 'size'");
  // The caret rendering still goes to stderr.
  EXPECT_NE(r.err.find("^"), std::string::npos);
}

TEST(CliErrors, JsonAlgebraErrorHasNullColumn) {
  CliRun r = runCli({"shape_div", "6", "4", "--json"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(r.json()["error"]["column"].is_null());
}

TEST(CliErrors, UsageErrorsExit2) {
  // Missing argument.
  CliRun r = runCli({"composition", "8:1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("TILER"), std::string::npos) << r.err;
  // Unknown subcommand.
  r = runCli({"transmogrify", "8:1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown subcommand 'transmogrify'"), std::string::npos);
  // No subcommand.
  EXPECT_EQ(runCli({}).status, 2);
  // Too many arguments.
  EXPECT_EQ(runCli({"size", "8:1", "4:1"}).status, 2);
  // Unknown option.
  EXPECT_EQ(runCli({"size", "8:1", "--frobnicate"}).status, 2);
  // A value outside the choices.
  EXPECT_EQ(runCli({"shape_div", "8", "2", "--rounding", "up"}).status, 2);
}

TEST(CliErrors, UsageErrorAsJson) {
  CliRun r = runCli({"composition", "8:1", "--json"});
  EXPECT_EQ(r.status, 2);
  nlohmann::json j = r.json();
  EXPECT_EQ(j["kind"], "usage");
  EXPECT_TRUE(j["error"]["column"].is_null());
}

TEST(CliErrors, InvalidUtf8DoesNotBreakJson) {
  CliRun r = runCli({"size", "(\xff\xfe)", "--json"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NO_THROW((void)r.json());
}

} // namespace
