//===- ShapeOps.h - The linear shape operations by name ----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The table of linear/ShapeOps.h's operations that front ends call by
/// name (`layoutkit linear trans|reshape|expand_dims|broadcast|join|split`):
/// what each takes as its argument, and the call in either direction.
///
///   name         argument  forward               backward
///   trans        order     transForward          transBackward
///   reshape      shape     reshapeForward        reshapeBackward
///   expand_dims  axis      expandDimsForward     expandDimsBackward
///   broadcast    shape     broadcastForward      broadcastBackward
///   join         none      joinForward           joinBackward
///   split        none      joinBackward          joinForward
///
/// split is the inverse of join. An order lists dim indices and an axis is
/// one dim index; both are checked to lie in [0, LinearLayout::kMaxDims)
/// before the call, so no value wraps when narrowed.
///
/// Example: applyShapeOp(*findShapeOp("trans"), blocked, {1, 0}, false) is
/// transForward(blocked, {1, 0}).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_SHAPEOPS_H
#define LAYOUTKIT_API_SHAPEOPS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace lk::api {

/// What a shape operation's argument is.
enum class ShapeArg { None, Order, Shape, Axis };

struct ShapeOp {
  std::string_view name;
  ShapeArg arg;
};

/// The operation named `name` (the table above); nullptr for another name.
const ShapeOp *findShapeOp(std::string_view name);

/// Checks `arg` against op's kind: an axis is exactly one value; order and
/// axis values lie in [0, kMaxDims). Errors: "expected one axis, e.g. 1",
/// "a dim index is 0..15, got 16".
Status checkShapeArg(const ShapeOp &op, std::span<const int64_t> arg);

/// op forward (the operand's layout -> the result's) or backward (a wanted
/// result layout -> the operand's), after checkShapeArg.
Expected<linear::LinearLayout> applyShapeOp(const ShapeOp &op,
                                            const linear::LinearLayout &l,
                                            std::span<const int64_t> arg,
                                            bool backward);

} // namespace lk::api

#endif // LAYOUTKIT_API_SHAPEOPS_H
