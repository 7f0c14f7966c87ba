//===- ConformanceCommand.cpp - `layoutkit conformance` -------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Forwards to the oracle runner of Conformance.h (which lists failures on
/// stderr as it goes); the summary is the reply, the exit status the
/// runner's.
///
//===----------------------------------------------------------------------===//

#include "cli/Conformance.h"
#include "cli/Handlers.h"

namespace lk::cli {

Expected<Reply> runConformanceCommand(const Invocation &inv) {
  ConformanceOptions options;
  options.verbose = inv.option("verbose").has_value();
  ConformanceResult result = runConformance(inv.values[0], options, *inv.err);
  Reply reply;
  reply.text = std::move(result.text);
  reply.json = std::move(result.json);
  reply.exitCode = result.exitCode;
  return reply;
}

} // namespace lk::cli
