//===- Json.h - JSON encoding of layoutkit values ----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How `layoutkit --json` writes values: the api layer's description of
/// each result (api/Describe.h) as a JSON value; an error is
/// {"error": <Diagnostic record>}.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_JSON_H
#define LAYOUTKIT_TOOLS_JSON_H

#include "cli/Command.h"
#include "layoutkit/api/Record.h"
#include "layoutkit/core/Diagnostic.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"

namespace lk::cli {

/// The record (or any value) of api/Describe.h as JSON.
JsonValue jsonOf(const api::Value &v);
JsonValue toJson(const IntTuple &t);
JsonValue toJson(const cute::Layout &l);
JsonValue toJson(const cute::ComposedLayout &c);
/// The whole error document {"error": {...}}.
JsonValue errorToJson(const Diagnostic &d);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_JSON_H
