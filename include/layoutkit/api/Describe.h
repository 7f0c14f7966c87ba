//===- Describe.h - Results as records ---------------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one description of each result type (api/Record.h), which the CLI's
/// `--json`, the Python module's `to_dict()` and attributes and the wasm
/// module's objects all serialize. Keys are snake_case (the swizzle's B, M
/// and S keep CuTe's names); a field a result
/// does not have is null rather than missing, so every result of a type
/// has the same keys.
///
///   IntTuple  a leaf is an integer, a tuple a list:
///             ((2,4),8) -> [[2,4],8];  (8) -> [8];  () -> []
///             a basis-stride leaf 3@1 -> {"scale":3,"basis":[1]}
///   Layout    {"layout":"(8,4):(1,8)","shape":[8,4],"stride":[1,8],
///              "size":32,"cosize":32,"rank":2,"depth":1}
///             (cosize is null for basis-stride layouts and when it does
///             not fit in int64)
///   Swizzled  {"layout":"Sw<3,4,3> o (8,64):(64,1)",
///              "swizzle":{"B":3,"M":4,"S":3},"offset":0,
///              "inner":<Layout record>}
///   Diagnostic {"message":...,"line":1,"column":8,"offset":7,"length":1,
///              "input":...,"notes":[...],"rendered":...}
///             (line, column and offset 1-, 1- and 0-based; they and input
///             are null, length 0, without a source range)
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_DESCRIBE_H
#define LAYOUTKIT_API_DESCRIBE_H

#include "layoutkit/api/Record.h"
#include "layoutkit/core/Diagnostic.h"
#include "layoutkit/core/IntTuple.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"

namespace lk::api {

Value describe(const IntTuple &t);
Record describe(const cute::Layout &l);
Record describe(const cute::ComposedLayout &c);
Record describe(const Diagnostic &d);

} // namespace lk::api

#endif // LAYOUTKIT_API_DESCRIBE_H
