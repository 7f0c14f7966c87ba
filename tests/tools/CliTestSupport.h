//===- CliTestSupport.h - Running layoutkit in-process in tests --*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `runCli({"size", "8:1"})` runs the tool through runLayoutkit with string
/// streams and returns the exit status and both outputs.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TESTS_TOOLS_CLITESTSUPPORT_H
#define LAYOUTKIT_TESTS_TOOLS_CLITESTSUPPORT_H

#include "cli/App.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace lk::cli::testing {

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;

  /// stdout without its trailing newline.
  std::string line() const {
    std::string s = out;
    while (!s.empty() && s.back() == '\n')
      s.pop_back();
    return s;
  }
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

inline CliRun runCli(std::vector<std::string> args) {
  std::ostringstream out, err;
  CliRun r;
  r.status = runLayoutkit(std::move(args), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

/// The one-line text result of a successful command.
inline std::string resultOf(std::vector<std::string> args) {
  CliRun r = runCli(std::move(args));
  if (r.status != 0)
    return "<status " + std::to_string(r.status) + ": " + r.err + ">";
  return r.line();
}

/// Success where the command fails with status 1 and its stderr holds
/// every one of `parts` (the error line, a note); else the first missing
/// part and the whole stderr.
inline ::testing::AssertionResult failsWith(std::vector<std::string> args,
                                            std::vector<std::string> parts) {
  CliRun r = runCli(std::move(args));
  if (r.status != 1)
    return ::testing::AssertionFailure()
           << "status " << r.status << ", not 1; stderr:\n"
           << r.err;
  for (const std::string &p : parts)
    if (r.err.find(p) == std::string::npos)
      return ::testing::AssertionFailure() << "no '" << p << "' in:\n" << r.err;
  return ::testing::AssertionSuccess();
}

} // namespace lk::cli::testing

#endif // LAYOUTKIT_TESTS_TOOLS_CLITESTSUPPORT_H
