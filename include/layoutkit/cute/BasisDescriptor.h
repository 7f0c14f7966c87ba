//===- BasisDescriptor.h - The basis descriptor grammar ----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Basis descriptors (docs/design.md §2.1, §6.5) write the strides of a
/// layout as scaled basis vectors `N@d` of a multi-dimensional codomain:
///
///   descriptor ::= group ;
///   group      ::= "(" [ entry { "," entry } ] ")" ;
///   entry      ::= group | basis ;
///   basis      ::= count "@" dim { "@" dim } ;
///   count      ::= int [ "/" int ] ;
///   dim        ::= uint ;                    (* 0 .. 254, at most 4 dims *)
///   int        ::= [ "-" ] digit { digit } ; (* fits in 64 bits *)
///   uint       ::= digit { digit } ;
///
/// Blanks (space, tab, carriage return) may appear between any two tokens,
/// never inside a number; a newline is not a blank. `1@0@1` is the unit
/// basis at the nested codomain position (0,1) (outermost index first).
///
/// Reading a descriptor takes two stages:
///  1. parseBasisDescriptorSyntax() checks the syntax and keeps each count as
///     the raw fraction that was written (`2/2`, `1/0`), with source ranges;
///  2. normalizeBasisDescriptor() turns each count into an integer: a count
///     must have a non-zero denominator and reduce to an integer (`2/2@0` is
///     `1@0`, `-4/2@1` is `-2@1`); anything else is rejected at the count's
///     column, so no divide-by-zero or non-integral basis reaches lowering.
/// parseBasisDescriptor() runs both. Its result is an IntTuple whose leaves
/// all carry a basis path (IntTuple::leaf(value, path)); `()` is the empty
/// tuple. A count of 0 is legal (a broadcast basis).
///
/// Printing writes the readable form, ", " between entries:
/// `((1@0, 8@1), 1@2)`; parseBasisDescriptor(printBasisDescriptor(x)) == x.
///
/// Examples:
///   parseBasisDescriptor("(1@0, 1@1)")        -> (1@0,1@1)
///   parseBasisDescriptor("((1@0,8@1),1@2)")   -> ((1@0,8@1),1@2)
///   parseBasisDescriptor("(2/2@0, 4@1)")      -> (1@0,4@1)
///   parseBasisDescriptor("(1@0@1)")           -> rank-1 tuple of 1@0@1
///   parseBasisDescriptor("()")                -> the empty tuple
///   parseBasisDescriptor("(1/2@0, 4@1)")
///       -> error "basis count 1/2 is not an integer" at column 2
///   parseBasisDescriptor("(1/0@0)")
///       -> error "zero denominator in basis count 1/0" at column 4
///   parseBasisDescriptor("(1@0) x")
///       -> error "unexpected trailing text 'x' ..." at column 7
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_BASISDESCRIPTOR_H
#define LAYOUTKIT_CUTE_BASISDESCRIPTOR_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lk::cute {

/// Stage 1 output: a descriptor exactly as written (counts before
/// normalization). Offsets are byte offsets into the parsed text. Consumers use
/// the normalized IntTuple; this form exists so that the two stages can be
/// run and tested separately.
struct BasisDescriptorSyntax {
  /// One `@dim` of a basis.
  struct Dim {
    int64_t index = 0;
    size_t offset = 0;
    size_t length = 0;
  };

  /// A group `( ... )` when true, a basis `count@dim...` otherwise.
  bool isGroup = true;
  /// Entries of a group, in order.
  std::vector<BasisDescriptorSyntax> entries;
  /// The count of a basis as written: numerator / denominator
  /// (denominator 1 when no '/' was written; it may be 0 or negative).
  int64_t numerator = 0;
  int64_t denominator = 1;
  /// Where the count starts and how long it is ("1/2" is 3 bytes).
  size_t countOffset = 0;
  size_t countLength = 0;
  /// Where the denominator starts (meaningful when a '/' was written).
  size_t denominatorOffset = 0;
  size_t denominatorLength = 0;
  /// The `@dim` list of a basis, outermost first (at least one).
  std::vector<Dim> dims;
};

/// Stage 1: checks the syntax of `text`. Errors name what was expected and
/// point at the offending character, e.g. "expected '@' after basis count
/// but found ','". Nesting deeper than 64 groups and descriptors of more than
/// IntTuple::kMaxNodes entries are rejected.
Expected<BasisDescriptorSyntax>
parseBasisDescriptorSyntax(std::string_view text);

/// Stage 2: reduces every count to an integer and every dim list to a
/// BasisPath. `text` is the text `syntax` was parsed from (for the caret of
/// diagnostics). Errors: "zero denominator in basis count 1/0" (at the
/// denominator), "basis count 1/2 is not an integer" (at the count),
/// "basis index 300 out of range [0, 254]" and "basis path deeper than 4
/// levels" (at the dim).
Expected<IntTuple> normalizeBasisDescriptor(const BasisDescriptorSyntax &syntax,
                                            std::string_view text);

/// Both stages.
Expected<IntTuple> parseBasisDescriptor(std::string_view text);

/// The descriptor text of `descriptor`, e.g. "((1@0, 8@1), 1@2)" or "()".
/// Fails when `descriptor` is a leaf (a descriptor is always a group) or
/// has a leaf without a basis path (it would not be a basis).
Expected<std::string> printBasisDescriptor(const IntTuple &descriptor);

} // namespace lk::cute

#endif // LAYOUTKIT_CUTE_BASISDESCRIPTOR_H
