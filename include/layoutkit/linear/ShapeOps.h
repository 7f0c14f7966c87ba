//===- ShapeOps.h - Layouts that make shape operations no-ops ----*- C++
//-*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The closure theorem of the linear-layouts paper: distributed layouts are
/// closed under Triton's shape operations, so for a layout of the operand
/// there is a layout of the result under which the operation moves no data
/// (every thread already holds, in the same registers, the elements its
/// result needs), and conversely.
///
/// Layouts here are distributed layouts whose output dims are dim0 ..
/// dim{rank-1} in that order (the tensor's logical dims, dim0 most major;
/// reshapes are row-major as in Triton). `forward` maps the operand's layout
/// to the result's; `backward` maps a wanted result layout to the operand
/// layout that produces it for free.
///
///   trans(order)     result dim i is operand dim order[i]: the output dims
///                    are permuted and renamed.
///   reshape(shape)   the row-major flattened index is kept: output bits are
///                    re-split (last dim lowest).
///   expand_dims(a)   a size-1 dim is inserted at position a (backward:
///                    removed; it must have size 1).
///   broadcast(shape) size-1 dims grow: registers are added for the new
///                    copies (each thread replicates its own values).
///                    Backward: those dims are zeroed and registers that
///                    become zero are dropped.
///   join             a new minor dim of size 2: one register bit selects the
///                    operand (the first register, as Triton places it).
///   split            the inverse of join, so its forward is joinBackward
///                    and its backward joinForward: the minor dim (size 2)
///                    must be held by a single register bit, which is
///                    removed.
///
/// Example: a blocked layout {register: [(0,1)], lane: [(0,2), (1,0)]} ->
/// {dim0: 2, dim1: 4} transposed with order [1, 0] becomes
/// {register: [(1,0)], lane: [(2,0), (0,1)]} -> {dim0: 4, dim1: 2}.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_LINEAR_SHAPEOPS_H
#define LAYOUTKIT_LINEAR_SHAPEOPS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include <span>

namespace lk::linear {

Expected<LinearLayout> transForward(const LinearLayout &src,
                                    std::span<const unsigned> order);
Expected<LinearLayout> transBackward(const LinearLayout &dst,
                                     std::span<const unsigned> order);

Expected<LinearLayout> reshapeForward(const LinearLayout &src,
                                      std::span<const int64_t> dstShape);
Expected<LinearLayout> reshapeBackward(const LinearLayout &dst,
                                       std::span<const int64_t> srcShape);

Expected<LinearLayout> expandDimsForward(const LinearLayout &src, int axis);
Expected<LinearLayout> expandDimsBackward(const LinearLayout &dst, int axis);

Expected<LinearLayout> broadcastForward(const LinearLayout &src,
                                        std::span<const int64_t> dstShape);
Expected<LinearLayout> broadcastBackward(const LinearLayout &dst,
                                         std::span<const int64_t> srcShape);

/// `op` names the operation in a diagnostic: joinBackward is split's
/// forward and join's backward, and a front end names the one it was
/// asked for.
Expected<LinearLayout> joinForward(const LinearLayout &src,
                                   const char *op = "join");
Expected<LinearLayout> joinBackward(const LinearLayout &dst,
                                    const char *op = "split");

} // namespace lk::linear

#endif // LAYOUTKIT_LINEAR_SHAPEOPS_H
