//===- LinearJson.h - Layout parameters as JSON -----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the parameters of a standard linear layout from JSON, in the format
/// of the linear oracle (tests/data/linear-public.jsonl): an object with
/// `kind` and that kind's parameters named as Triton names them, e.g.
///   {"kind": "blocked", "sizePerThread": [1, 4], "threadsPerWarp": [8, 4],
///    "warpsPerCTA": [1, 1], "order": [1, 0]}
/// Used by the conformance runner and by `layoutkit linear standard`. The
/// members become named fields checked by linear::makeEncoding
/// (EncodingFields.h), the validation TTGIR text and Python dicts share;
/// `CTALayout` (the oracle's description of the CTA fields) is skipped.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_LINEARJSON_H
#define LAYOUTKIT_TOOLS_LINEARJSON_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/Standard.h"

#include <nlohmann/json.hpp>

namespace lk::cli {

/// The encoding the object describes; the diagnostic names the field that
/// is missing or malformed.
Expected<linear::Encoding> encodingFromJson(const nlohmann::json &j);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_LINEARJSON_H
