//===- CliHelpTest.cpp - --help and --version -----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include "layoutkit/Command.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::runCli;

namespace {

TEST(CliHelp, TopLevelListsEverySubcommand) {
  CliRun r = runCli({"--help"});
  ASSERT_EQ(r.status, 0);
  for (const lk::cli::CommandSpec &spec : lk::cli::commandRegistry())
    EXPECT_NE(r.out.find("  " + spec.name + " "), std::string::npos)
        << spec.name;
}

TEST(CliHelp, EverySubcommandHasHelpWithExample) {
  for (const lk::cli::CommandSpec &spec : lk::cli::commandRegistry()) {
    CliRun r = runCli({spec.name, "--help"});
    EXPECT_EQ(r.status, 0) << spec.name;
    EXPECT_NE(r.out.find("Usage: layoutkit " + spec.name), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Examples:\n  layoutkit " + spec.name),
              std::string::npos)
        << r.out;
    for (const lk::cli::ParamSpec &p : spec.params)
      EXPECT_NE(r.out.find(p.name), std::string::npos) << spec.name;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << spec.name;
  }
}

TEST(CliHelp, Version) {
  CliRun r = runCli({"--version"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("layoutkit ", 0), 0u) << r.out;
}

TEST(CliHelp, RegistryCoversTheAlgebra) {
  // One subcommand per operation of Algebra.h, plus the tool's own.
  const char *expected[] = {
      "show", "eval", "idx2crd", "size", "cosize", "rank", "depth", "coalesce",
      "filter", "filter_zeros", "flatten", "group_modes", "composition",
      "complement", "logical_divide", "zipped_divide", "tiled_divide",
      "flat_divide", "logical_product", "zipped_product", "tiled_product",
      "flat_product", "blocked_product", "raked_product", "right_inverse",
      "left_inverse", "max_common_layout", "max_common_vector", "shape_div",
      "ceil_div", "equivalent", "swizzle", "conformance"};
  for (const char *name : expected) {
    bool found = false;
    for (const lk::cli::CommandSpec &spec : lk::cli::commandRegistry())
      found = found || spec.name == name;
    EXPECT_TRUE(found) << name;
  }
}

} // namespace
