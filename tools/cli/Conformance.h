//===- Conformance.h - Oracle conformance runner -----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `layoutkit conformance FILE...` runs oracle cases (one JSON object per
/// line, format in tests/data/README.md) against the library and prints a
/// count per op and a final line "N passed, M failed". A case whose op is
/// unknown, or whose arguments cannot be read, is a failure, never a skip.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_CONFORMANCE_H
#define LAYOUTKIT_TOOLS_CONFORMANCE_H

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace lk::cli {

struct ConformanceOptions {
  /// Print every failing case (default: the first 20).
  bool verbose = false;
};

/// The run's summary: `text` (a count per op and "N passed, M failed"),
/// `json` ({"ops": {OP: {"passed", "failed"}}, "passed", "failed",
/// "failures": [{"case": "FILE:LINE", "op", "message"}], and "deviations"
/// in the same form when an oracle rejection was answered on purpose: a
/// documented deviation, neither pass nor failure) and the exit code
/// (0 only when every case passed and at least one case ran).
struct ConformanceResult {
  std::string text;
  nlohmann::ordered_json json;
  int exitCode = 1;
};

/// Runs all cases of `files`, writing each failure ("FAIL FILE:LINE [op]:
/// why", the first 20 unless verbose) to `err` as it is found. A malformed
/// case (not JSON, nested deeper than 64, a field of the wrong type, an
/// unknown op), an unreadable file and a file without cases are failures
/// with a message; the run goes on.
ConformanceResult runConformance(const std::vector<std::string> &files,
                                 const ConformanceOptions &options,
                                 std::ostream &err);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_CONFORMANCE_H
