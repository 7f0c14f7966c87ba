//===- Text.h - The text form of linear layouts ------------------*- C++
//-*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The text form LinearLayout::str() prints, parsed back with precise
/// diagnostics:
///
///   layout := "{" [ in-dim { "," in-dim } ] "}" "->" "{" [ out-dim { ","
///   out-dim } ] "}" in-dim := name ":" "[" [ basis { "," basis } ] "]" basis
///   := "(" [ uint { "," uint } ] ")"     -- one value per output dim out-dim
///   := name ":" uint                    -- the size, a power of two name   :=
///   [A-Za-z_][A-Za-z0-9_]*
///
/// Blanks (newlines included) are allowed between tokens.
///
/// Examples:
///   parseLinearLayout("{register: [(1), (2)], lane: [(4), (0)]} -> {dim0: 8}")
///   parseLinearLayout("{} -> {}")                      the empty layout
///   parseLinearLayout("{lane: [(1,0)]} -> {dim0: 3}")
///     -> error "size 3 of output dim 'dim0' is not a power of two" under 3
///   parseLinearLayout("{lane: [(4)]} -> {dim0: 4}")
///     -> error "value 4 is outside output dim 'dim0' of size 4" under the 4
///
/// parse(l.str()) == l for every layout l (tested and fuzzed).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_TEXT_H
#define LAYOUTKIT_LINEAR_TEXT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <string_view>

namespace lk::linear {

Expected<LinearLayout> parseLinearLayout(std::string_view text);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_TEXT_H
