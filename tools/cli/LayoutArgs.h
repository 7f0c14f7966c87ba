//===- LayoutArgs.h - Layout arguments of several commands ------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CLI's side of reading layouts with the front-end API (api/Layout.h):
/// the JSON reader of standard-layout parameters (the library parses no
/// JSON) and the ParseOptions every command passes, so that `linear
/// standard`, `linear from-tile` and `plan` read layouts the same way and
/// report the same diagnostics.
///
/// Example:
///   readEncodingJson(R"({"kind":"blocked","sizePerThread":[1,4],
///       "threadsPerWarp":[8,4],"warpsPerCTA":[1,1],"order":[1,0]})")
///     -> the blocked encoding; with parseOptions("(8,16)") parseLayout
///     gives {register: [(0,1), (0,2)], lane: [(0,4), (0,8), (1,0), (2,0),
///         (4,0)], warp: [], block: []} -> {dim0: 8, dim1: 16}
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_LAYOUTARGS_H
#define LAYOUTKIT_TOOLS_LAYOUTARGS_H

#include "layoutkit/api/Layout.h"
#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/Standard.h"

#include <optional>
#include <string>
#include <string_view>

namespace lk::cli {

/// The encoding a JSON object of standard-layout parameters describes
/// (LinearJson.h). Fails when the text is not JSON or a field is missing or
/// malformed (naming it).
Expected<linear::Encoding> readEncodingJson(std::string_view text);

/// ParseOptions with the JSON encoding reader, the shape named "--shape"
/// and, when `shapeText` is given, the shape it holds (an IntTuple text;
/// the diagnostic starts "--shape: ").
Expected<api::ParseOptions>
parseOptions(const std::optional<std::string> &shapeText);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_LAYOUTARGS_H
