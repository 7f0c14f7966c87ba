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

#include <ostream>
#include <string>
#include <vector>

namespace lk::cli {

struct ConformanceOptions {
  /// Print every failing case (default: the first 20).
  bool verbose = false;
  /// Emit the summary as JSON instead of text.
  bool json = false;
};

/// Runs all cases of `files`; returns the process exit code (0 only when
/// every case passed and at least one case ran).
int runConformance(const std::vector<std::string> &files,
                   const ConformanceOptions &options, std::ostream &out,
                   std::ostream &err);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_CONFORMANCE_H
