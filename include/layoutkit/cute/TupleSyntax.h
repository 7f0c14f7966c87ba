//===- TupleSyntax.h - Located int-tuple parsing, shared --------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one recursive int-tuple parser behind CuTe's print form (Text.h),
/// the basis descriptors (BasisDescriptor.h) and the layout attribute
/// grammar (Attribute.h); its declarations are in namespace detail because
/// only those grammars and their tests call it. It records the source span of
/// the whole tuple and of every leaf, so that semantic errors found after
/// parsing
/// ("shape leaf 0 must be positive", "... are not congruent") point at the
/// offending text.
///
/// The grammars differ only in what a leaf may be, whether `()` is a tuple
/// and how the size limits are worded; a TupleGrammar describes one of them:
///
///   tuple := leaf | "(" [ tuple { "," tuple } ] ")"   -- "()" if allowEmpty
///   leaf  := [ "_" ] [ "-" ] digit { digit } { "@" uint }
///            -- "_" if allowStaticPrefix, "-" if allowNegative,
///               "@" if allowBases
///
/// Examples:
///   TupleGrammar g = kCuteTuple.named("shape");
///   Lexer lx("((2,4),_8)");
///   parseLocatedTuple(lx, g)  -> value ((2,4),8), whole {0,10},
///                                leaves {2,1} {4,1} {7,2}
///   kAttributeTuple.named("stride") rejects "-1":
///     "expected a non-negative integer or '(' in stride but found '-'"
///
/// Every parse is bounded: at most TupleGrammar::maxNesting levels,
/// kMaxTupleRank modes per node and IntTuple::kMaxNodes nodes per tuple, so
/// arbitrary input is safe.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_TUPLESYNTAX_H
#define LAYOUTKIT_CUTE_TUPLESYNTAX_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/core/Lexer.h"
#include "layoutkit/core/SmallVector.h"
#include "layoutkit/cute/Layout.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace lk::cute::detail {

/// Deepest tuple nesting the text grammars accept.
constexpr int kMaxTupleNesting = 64;
/// Largest rank a tuple node can record (IntTuple::Node::rank is int16).
constexpr size_t kMaxTupleRank = size_t(IntTuple::kMaxRank);

/// An ASCII decimal digit (locale-independent, unlike std::isdigit).
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Where a piece of a parsed tuple came from: a byte range of the text.
struct Span {
  size_t offset = 0;
  size_t length = 0;
};

/// A tuple with the source ranges needed for semantic diagnostics.
struct LocatedTuple {
  IntTuple value;
  /// The whole tuple, from its first to its last character.
  Span whole;
  /// Pre-order, one per leaf of `value` (the order of IntTuple::leaves()).
  SmallVector<Span, 16> leaves;
};

/// What one grammar accepts in a tuple, and how its messages read.
struct TupleGrammar {
  /// Names the tuple in messages: "shape", "stride", "tiler", "int-tuple".
  std::string_view noun = "int-tuple";
  /// Basis leaves `3@1`, `1@0@1`.
  bool allowBases = false;
  /// Negative leaves `-2`.
  bool allowNegative = false;
  /// CuTe's static-integer prefix `_8`, accepted and dropped.
  bool allowStaticPrefix = false;
  /// The empty tuple `()`.
  bool allowEmpty = false;
  /// Deepest nesting accepted; a '(' at this depth is an error.
  int maxNesting = kMaxTupleNesting;
  /// How the size limits are worded: with the noun ("shape nests deeper
  /// than 64 levels", "shape has more than ... nodes") or generically
  /// ("nesting deeper than 64 levels", "tuple has more than ... nodes").
  bool nounInLimits = false;

  /// This grammar with another noun.
  constexpr TupleGrammar named(std::string_view n) const {
    TupleGrammar g = *this;
    g.noun = n;
    return g;
  }
};

/// CuTe's print form (Text.h): signed leaves, bases, `_` prefix, `()`.
inline constexpr TupleGrammar kCuteTuple{.noun = "int-tuple",
                                         .allowBases = true,
                                         .allowNegative = true,
                                         .allowStaticPrefix = true,
                                         .allowEmpty = true};
/// The layout attribute grammar (Attribute.h): non-negative plain integers,
/// no `()`.
inline constexpr TupleGrammar kAttributeTuple{.noun = "int-tuple",
                                              .nounInLimits = true};

/// True when the next token starts a leaf integer of `g`: a digit, '-' +
/// digit, or '_' followed by one of those (each as `g` allows).
bool atInteger(Lexer &lx, const TupleGrammar &g);

/// Reads a leaf integer of `g` (dropping a `_` prefix); `what` names it in
/// messages.
Expected<int64_t> readInteger(Lexer &lx, std::string_view what,
                              const TupleGrammar &g);

/// The error for a '(' at `offset` nested deeper than `g.maxNesting`.
Diagnostic nestingError(const Lexer &lx, const TupleGrammar &g, size_t offset);

/// Parses one tuple of `g` at the lexer's position, `depth` levels inside
/// enclosing groups (which count towards g.maxNesting). Stops after the
/// tuple; the caller checks what follows.
Expected<LocatedTuple> parseLocatedTuple(Lexer &lx, const TupleGrammar &g,
                                         int depth = 0);

/// Layout::make(shape.value, stride.value) with located diagnostics: a
/// non-congruent stride is reported at the stride, a basis or non-positive
/// shape leaf at that leaf, a size that overflows at the shape; what else
/// make() refuses (too many leaves, offsets that overflow) at the shape, with
/// make()'s message. `lx` is the lexer both tuples were parsed with.
Expected<Layout> makeLocatedLayout(const Lexer &lx, const LocatedTuple &shape,
                                   const LocatedTuple &stride);

} // namespace lk::cute::detail

#endif // LAYOUTKIT_CUTE_TUPLESYNTAX_H
