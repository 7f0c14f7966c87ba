//===- LayoutArgs.h - Layout arguments of several commands ------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Readers of layout arguments that several command families accept, so that
/// `linear standard`, `linear from-tile` and `plan` parse them the same way
/// and report the same diagnostics:
///
///   * a tensor shape given as a cute IntTuple text: its leaves, in order,
///     e.g. "(64,(2,4))" -> {64, 2, 4};
///   * the JSON parameters of a standard (Triton) layout plus a shape ->
///     the hardware -> logical linear layout (out-dims dim0, dim1, ...).
///
/// Diagnostics do not name the argument; the caller adds that note
/// (Invocation::inArgument).
///
/// Example:
///   standardLayoutFromJson(R"({"kind":"blocked","sizePerThread":[1,4],
///       "threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]})",
///       {8, 16})
///     -> {register: [(0,1), (0,2)], lane: [(0,4), (0,8), (1,0), (2,0),
///         (4,0)], warp: [], block: []} -> {dim0: 8, dim1: 16}
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_LAYOUTARGS_H
#define LAYOUTKIT_TOOLS_LAYOUTARGS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace lk::cli {

/// The leaves of a shape written as an IntTuple, e.g. "(8,16)" -> {8, 16}.
/// Fails (with the parser's column) on text that is not an IntTuple.
Expected<std::vector<int64_t>> shapeLeaves(std::string_view text);

/// The standard layout described by `paramsJson` (a JSON object with `kind`
/// and that kind's parameters, LinearJson.h) over a tensor of `shape`.
/// Fails when the text is not JSON, a field is missing
/// or malformed (naming it), or the layout does not fit the shape.
Expected<linear::LinearLayout>
standardLayoutFromJson(std::string_view paramsJson,
                       std::span<const int64_t> shape);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_LAYOUTARGS_H
