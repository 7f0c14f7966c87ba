//===- EncodingJson.h - Triton's layout parameters as JSON text -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads a Triton layout encoding written as a JSON object, the form of the
/// linear oracle (tests/data/linear-public.jsonl) and of `layoutkit linear
/// standard`: `kind` names the kind (encodingKindName()), every other
/// member is a field passed to makeEncoding() (EncodingFields.h), so names,
/// ranges and diagnostics are those of TTGIR text and Python dicts. A
/// parent (dot_operand, slice) is a nested object.
///
/// The reader is JSON's grammar restricted to what a field can
/// hold; values that fit no field (a string, null, a fraction) are read and
/// then refused by makeEncoding() as that field's wrong type:
///
///   object  := '{' (member (',' member)*)? '}'
///   member  := string ':' value          "kind" takes a string
///   value   := integer | true | false | '[' (value (',' value)*)? ']'
///            | object (a parent) | string | null | number
///
/// Bounds: parents nest at most 8 deep, lists at most 4 deep and 64 values
/// each; integers fit int64 (makeEncoding() then asks 0..2^30).
/// Every diagnostic points into the text with a caret: a syntax error at
/// the offending character, a field error at the member, a missing field
/// or a consistency error at the object's "kind" value.
///
/// Examples:
///   parseEncodingJson(R"({"kind": "blocked", "sizePerThread": [1, 4],
///       "threadsPerWarp": [8, 4], "warpsPerCTA": [1, 1], "order": [1, 0]})")
///     -> the blocked encoding
///   parseEncodingJson(R"({"kind": "blocked", "order": [1 0]})")
///     -> error "expected ',' between list values (or ']') but found
///        '0'", caret under the 0
///   parseEncodingJson(R"({"kind": "slice", "dim": "x"})")
///     -> error "field 'dim' must be an integer, got a string", caret
///        under `"dim": "x"`
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_ENCODINGJSON_H
#define LAYOUTKIT_LINEAR_ENCODINGJSON_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/Standard.h"

#include <string_view>

namespace lk::linear {

/// Reads one JSON object of layout parameters (see the file comment); only
/// blanks may follow it.
Expected<Encoding> parseEncodingJson(std::string_view text);

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_ENCODINGJSON_H
