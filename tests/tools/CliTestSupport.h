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

} // namespace lk::cli::testing

#endif // LAYOUTKIT_TESTS_TOOLS_CLITESTSUPPORT_H
