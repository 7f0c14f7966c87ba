//===- InputBounds.h - Bounds layoutkit-opt checks before parsing -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// MLIR's parser, printer and walkers recurse once per nesting level, so a
// deeply nested input would exhaust the stack. layoutkit-opt parses and runs
// its passes on a thread with a large stack and refuses, before parsing,
// input that nests deeper than kMaxNestingDepth (docs/mlir.md, "Input
// bounds").
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUTKIT_MLIR_INPUTBOUNDS_H
#define LAYOUTKIT_MLIR_INPUTBOUNDS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>

namespace lk::tileas {

/// The deepest bracket nesting layoutkit-opt accepts: regions, attribute
/// dictionaries, parentheses, square and angle brackets together.
inline constexpr unsigned kMaxNestingDepth = 1000;

/// The stack of the thread that parses, verifies and runs the passes
/// (reserved address space; pages are committed as they are touched).
inline constexpr unsigned kDriverStackBytes = 512u << 20;

/// The offset of the first opening bracket of `text` that nests deeper
/// than `limit`, or nullopt when none does. Depth counts `{`, `(`, `[` and
/// `<` against their closers; string literals and `//` comments are skipped,
/// and so are the `>` of `->`, `<=` and `>=` (arrows and comparisons, not
/// brackets). An unbalanced closer never takes the depth below 0. One pass,
/// O(|text|).
std::optional<size_t> firstTooDeep(llvm::StringRef text, unsigned limit);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_INPUTBOUNDS_H
