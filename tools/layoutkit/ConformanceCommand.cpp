//===- ConformanceCommand.cpp - `layoutkit conformance` -------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Forwards to the oracle runner of Conformance.h, which writes its own
/// report; the command's exit status is the runner's.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/Conformance.h"
#include "layoutkit/Handlers.h"

namespace lk::cli {

Expected<Reply> runConformanceCommand(const Invocation &inv) {
  ConformanceOptions options;
  options.verbose = inv.option("verbose").has_value();
  options.json = inv.json;
  Reply reply;
  reply.streamed = true;
  reply.exitCode = runConformance(inv.values[0], options, *inv.out, *inv.err);
  return reply;
}

} // namespace lk::cli
