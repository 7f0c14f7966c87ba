//===- Text.h - CuTe's print form: parse and print ---------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The text form CuTe prints, parsed back with precise diagnostics:
///
///   int-tuple := int-leaf | "(" [ int-tuple { "," int-tuple } ] ")"
///   int-leaf  := int { "@" uint }            -- basis strides: 3@1, 1@0@1
///   layout    := int-tuple ":" int-tuple     -- shape and stride congruent
///   composed  := "Sw<" int "," int "," int ">" " o " [ int " o " ] layout
///   tiler     := "_" | int | layout | "(" tiler { "," tiler } ")"
///
/// Blanks are allowed between tokens. CuTe's static-integer underscore
/// prefix (`_8`) is accepted in layouts and dropped.
///
/// Examples:
///   parseLayout("((2,4),8):((1,16),2)")   shape ((2,4),8), stride ((1,16),2)
///   parseLayout("(4,8):(1@0,1@1)")        basis strides
///   parseComposedLayout("Sw<3,4,3> o (8,64):(64,1)")
///   parseTiler("(4:1,_,8)")               by-mode tiler
///   parseLayout("(2,4):(1)") -> error "shape (2,4) and stride (1) are not
///                               congruent" pointing at the stride
///
/// Printing is Layout::str(), ComposedLayout::str() and Tiler::str();
/// parse(print(x)) == x for every x (tested).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_TEXT_H
#define LAYOUTKIT_CUTE_TEXT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"

#include <string_view>

namespace lk::cute {

/// An IntTuple such as `((2,4),8)`, `8`, `()`, `3@1`.
Expected<IntTuple> parseIntTuple(std::string_view text);
/// A layout `shape:stride`.
Expected<Layout> parseLayout(std::string_view text);
/// `Sw<B,M,S> o [offset o] layout`; a plain layout parses as the identity
/// swizzle Sw<0,0,0> composed with it.
Expected<ComposedLayout> parseComposedLayout(std::string_view text);
/// A tiler (see grammar above).
Expected<Tiler> parseTiler(std::string_view text);

} // namespace lk::cute

#endif // LAYOUTKIT_CUTE_TEXT_H
