//===- Json.h - JSON encoding of layoutkit values ----------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How `layoutkit --json` writes values:
///
///   IntTuple  a leaf is a JSON number, a tuple a nested array:
///             ((2,4),8) -> [[2,4],8];  (8) -> [8];  () -> []
///             a basis-stride leaf 3@1 -> {"scale":3,"basis":[1]}
///   Layout    {"layout":"(8,4):(1,8)","shape":[8,4],"stride":[1,8],
///              "size":32,"cosize":32,"rank":2,"depth":1}
///             (cosize is null for basis-stride layouts)
///   Swizzled  {"layout":"Sw<3,4,3> o (8,64):(64,1)",
///              "swizzle":{"B":3,"M":4,"S":3},"offset":0,
///              "inner":<Layout object>}
///   Error     {"error":{"message":...,"column":8 or null,
///              "input":... or null,"notes":[...]}}
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TOOLS_JSON_H
#define LAYOUTKIT_TOOLS_JSON_H

#include "cli/Command.h"
#include "layoutkit/core/Diagnostic.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"

namespace lk::cli {

JsonValue toJson(const IntTuple &t);
JsonValue toJson(const cute::Layout &l);
JsonValue toJson(const cute::ComposedLayout &c);
/// The whole error document {"error": {...}}.
JsonValue errorToJson(const Diagnostic &d);

} // namespace lk::cli

#endif // LAYOUTKIT_TOOLS_JSON_H
