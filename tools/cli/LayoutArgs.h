//===- LayoutArgs.h - Layout arguments of several commands ------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The ParseOptions every command passes to the front-end API
/// (api/Layout.h), so that `linear standard`, `linear from-tile` and `plan`
/// read layouts the same way and report the same diagnostics.
///
/// Example: with parseOptions("(8,16)"), api::parseLayout of
///   {"kind":"blocked","sizePerThread":[1,4],"threadsPerWarp":[8,4],
///    "warpsPerCTA":[1,1],"order":[1,0]}
/// gives {register: [(0,1), (0,2)], lane: [(0,4), (0,8), (1,0), (2,0),
///     (4,0)], warp: [], block: []} -> {dim0: 8, dim1: 16}
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_LAYOUTARGS_H
#define LAYOUTKIT_TOOLS_LAYOUTARGS_H

#include "cli/Command.h"
#include "layoutkit/api/Layout.h"
#include "layoutkit/core/Expected.h"

#include <optional>
#include <string>

namespace lk::cli {

/// ParseOptions with the shape named "--shape" and, when `shapeText` is
/// given, the shape it holds (an IntTuple text; a fault is about the
/// parameter "shape", which Invocation::locate notes in option --shape).
Expected<api::ParseOptions>
parseOptions(const std::optional<std::string> &shapeText);

/// Argument i as a hardware -> logical linear layout (api::parseDistributed
/// with `options`); a fault of the shape --shape gave is noted there
/// (Invocation::locate).
Expected<linear::LinearLayout>
distributedParam(const Invocation &inv, size_t i,
                 const api::ParseOptions &options);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_LAYOUTARGS_H
