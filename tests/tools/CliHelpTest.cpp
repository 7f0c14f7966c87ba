//===- CliHelpTest.cpp - --help and --version -----------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "CliTestSupport.h"

#include "cli/Command.h"
#include "cli/Handlers.h"
#include "layoutkit/api/CuteOps.h"

#include <gtest/gtest.h>

using lk::cli::testing::CliRun;
using lk::cli::testing::runCli;

namespace {

/// The command line words of a command: {"show"} or {"tile", "eval"}.
std::vector<std::string> wordsOf(const std::string &name) {
  std::string family = lk::cli::familyOf(name);
  if (family.empty())
    return {name};
  return {family, lk::cli::leafNameOf(name)};
}

TEST(CliHelp, TopLevelListsEverySubcommand) {
  CliRun r = runCli({"--help"});
  ASSERT_EQ(r.status, 0);
  for (const lk::cli::CommandSpec &spec : lk::cli::commandRegistry()) {
    std::vector<std::string> words = wordsOf(spec.name);
    EXPECT_NE(r.out.find("  " + words[0] + " "), std::string::npos)
        << spec.name;
    if (words.size() == 2) { // listed by `layoutkit FAMILY --help`
      CliRun f = runCli({words[0], "--help"});
      ASSERT_EQ(f.status, 0) << words[0];
      EXPECT_NE(f.out.find("  " + words[1] + " "), std::string::npos)
          << spec.name << "\n"
          << f.out;
    }
  }
}

TEST(CliHelp, EverySubcommandHasHelpWithExample) {
  for (const lk::cli::CommandSpec &spec : lk::cli::commandRegistry()) {
    std::vector<std::string> args = wordsOf(spec.name);
    args.push_back("--help");
    CliRun r = runCli(args);
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

TEST(CliHelp, LayoutReadersSayTheyTakeTtgirText) {
  // These commands read their layouts with api::parseLayout, which takes
  // Triton's TTGIR text (docs/cli.md's grammar table): their help says so.
  for (std::vector<std::string> words :
       {std::vector<std::string>{"plan"}, {"gather"}, {"paper", "reduce"}}) {
    words.push_back("--help");
    CliRun r = runCli(words);
    ASSERT_EQ(r.status, 0) << words[0];
    for (const char *spelling : {"TTGIR", "'#ttg", "'tensor<", "!ttg.memdesc<"})
      EXPECT_NE(r.out.find(spelling), std::string::npos)
          << words[0] << " lacks " << spelling << "\n"
          << r.out;
  }
}

TEST(CliHelp, UnknownFamilyMemberIsAUsageError) {
  CliRun r = runCli({"tile", "evl", "S[8:1]"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "layoutkit: error: unknown subcommand 'tile evl'\n"
                   "run 'layoutkit tile --help' for the list of its "
                   "subcommands\n");
  CliRun none = runCli({"tile"});
  EXPECT_EQ(none.status, 2);
}

TEST(CliHelp, Version) {
  CliRun r = runCli({"--version"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("layoutkit ", 0), 0u) << r.out;
}

TEST(CliHelp, RegistryCoversTheAlgebra) {
  // One subcommand per operation of Algebra.h, plus the tool's own.
  const char *expected[] = {"show",
                            "eval",
                            "idx2crd",
                            "size",
                            "cosize",
                            "rank",
                            "depth",
                            "coalesce",
                            "filter",
                            "filter_zeros",
                            "flatten",
                            "group_modes",
                            "composition",
                            "complement",
                            "logical_divide",
                            "zipped_divide",
                            "tiled_divide",
                            "flat_divide",
                            "logical_product",
                            "zipped_product",
                            "tiled_product",
                            "flat_product",
                            "blocked_product",
                            "raked_product",
                            "right_inverse",
                            "left_inverse",
                            "max_common_layout",
                            "max_common_vector",
                            "shape_div",
                            "ceil_div",
                            "equivalent",
                            "swizzle",
                            "conformance",
                            "crd2idx"};
  for (const char *name : expected) {
    bool found = false;
    for (const lk::cli::CommandSpec &spec : lk::cli::commandRegistry())
      found = found || spec.name == name;
    EXPECT_TRUE(found) << name;
  }
}

// Every operation of the cute registry (api/CuteOps.h) is a subcommand
// made from its row: the registry's one-line doc as the summary, its
// parameters in its order (PROFILE as --profile), the generic handler.
TEST(CliHelp, CuteRegistryOpsAreSubcommands) {
  for (const lk::api::CuteOp &op : lk::api::cuteOps()) {
    const lk::cli::CommandSpec *spec = nullptr;
    for (const lk::cli::CommandSpec &s : lk::cli::commandRegistry())
      if (s.name == op.name)
        spec = &s;
    ASSERT_NE(spec, nullptr) << op.name;
    EXPECT_EQ(spec->summary, op.doc);
    EXPECT_EQ(spec->run, &lk::cli::runCuteOp) << op.name;
    std::vector<std::string> positional;
    for (const lk::api::CuteParam &p : op.params)
      if (p.name != "PROFILE")
        positional.emplace_back(p.name);
    ASSERT_EQ(spec->params.size(), positional.size()) << op.name;
    for (size_t i = 0; i < positional.size(); ++i)
      EXPECT_EQ(spec->params[i].name, positional[i]) << op.name;
    CliRun help = runCli({std::string(op.name), "--help"});
    EXPECT_EQ(help.status, 0) << op.name;
    EXPECT_NE(help.out.find(std::string(op.doc)), std::string::npos) << op.name;
  }
}

} // namespace
