//===- ShapeOps.cpp - The linear shape operations by name -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/ShapeOps.h"

#include "layoutkit/linear/ShapeOps.h"

#include <string>
#include <vector>

namespace lk::api {

namespace {

constexpr ShapeOp kShapeOps[] = {
    {"trans", ShapeArg::Order},      {"reshape", ShapeArg::Shape},
    {"expand_dims", ShapeArg::Axis}, {"broadcast", ShapeArg::Shape},
    {"join", ShapeArg::None},        {"split", ShapeArg::None},
};

} // namespace

const ShapeOp *findShapeOp(std::string_view name) {
  for (const ShapeOp &op : kShapeOps)
    if (op.name == name)
      return &op;
  return nullptr;
}

Status checkShapeArg(const ShapeOp &op, std::span<const int64_t> arg) {
  if (op.arg == ShapeArg::Axis && arg.size() != 1)
    return Diagnostic::error("expected one axis, e.g. 1");
  if (op.arg == ShapeArg::Order || op.arg == ShapeArg::Axis)
    for (int64_t v : arg)
      if (v < 0 || v >= linear::LinearLayout::kMaxDims)
        return Diagnostic::error(
            "a dim index is 0.." +
            std::to_string(linear::LinearLayout::kMaxDims - 1) + ", got " +
            std::to_string(v));
  return Ok{};
}

Expected<linear::LinearLayout> applyShapeOp(const ShapeOp &op,
                                            const linear::LinearLayout &l,
                                            std::span<const int64_t> arg,
                                            bool backward) {
  using namespace linear;
  LK_CHECK(checkShapeArg(op, arg));
  std::vector<int64_t> a(arg.begin(), arg.end());
  std::vector<unsigned> order(arg.begin(), arg.end());
  if (op.name == "trans")
    return backward ? transBackward(l, order) : transForward(l, order);
  if (op.name == "reshape")
    return backward ? reshapeBackward(l, a) : reshapeForward(l, a);
  if (op.name == "expand_dims")
    return backward ? expandDimsBackward(l, int(a[0]))
                    : expandDimsForward(l, int(a[0]));
  if (op.name == "broadcast")
    return backward ? broadcastBackward(l, a) : broadcastForward(l, a);
  // join, and split (join's inverse), named as the caller asked for them
  // (a backward join runs split's construction).
  const bool join = op.name == "join";
  const char *name = join ? "join" : "split";
  return backward == join ? joinBackward(l, name) : joinForward(l, name);
}

} // namespace lk::api
