//===- LayoutEquality.h - Tile types compared as placements -----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// When two tile types place their elements alike, decided by LayoutKit
/// (the api layer) rather than by MLIR's type identity, so that two texts
/// or two encodings of one function compare equal and a conversion between
/// them folds. The one place the passes compare layouts.
///
/// The placement of a tile type T = tensor<S x E, #tileas.encoding<K, F,
/// layout = L, ...>> is a function in LayoutKit's linear model:
///
///   K register:     L is a (thread, value) layout; its placement is
///                   api::distributedLayout of L over S: register, lane,
///                   warp -> dim0.. (CuTe's TV convention, as `layoutkit
///                   plan` reads a cute layout);
///   K smem/tmem/global: L maps the logical coordinate to the element
///                   offset; its placement is the sizes of L's top-level
///                   modes (the logical dims) with api::toLinear of
///                   Sw o L (index -> offset); where the linear model does
///                   not reach (an extent not a power of two), the offsets
///                   of every index, when L has at most kMaxEnumerated
///                   elements.
///
/// equal(A, B) holds when A and B are the same type, or when they have the
/// same shape, element type and memory kind, the same `elem=` clause, and
/// both carry a layout whose placements exist and are equal (register
/// placements after plan::alignLayouts, the planner's NoOp test). The
/// family, atom and opIdx do not take part: they say how a placement was
/// chosen, not where the elements are. A type without a layout (a register
/// value whose placement is only a family name, a buffer not assigned yet)
/// equals only itself. Types of different memory kinds are never equal.
///
/// Example: #tileas.layout<(128,64),(64,1)> and
/// #tileas.layout<((8,16),(8,8)),((64,512),(1,8))> on smem 128x64 are equal
/// (row i = i0 + 8 i1 -> 64 i0 + 512 i1 = 64 i; column j = j0 + 8 j1 ->
/// j0 + 8 j1 = j); the same two on tmem and smem are not.
///
/// Results are cached per (A, B) pair and each type's placement once, so a
/// pass that compares n pairs does O(n) LayoutKit work at most once per
/// distinct pair.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_LAYOUTEQUALITY_H
#define LAYOUTKIT_MLIR_LAYOUTEQUALITY_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace lk::tileas {

/// A tile type's placement (see the file comment).
struct Placement {
  /// Register: register/lane/warp -> dim0..; memory: index -> offset.
  std::optional<linear::LinearLayout> function;
  /// Memory without a linear form: the offset of every index, in order.
  std::vector<int64_t> offsets;
  /// Memory: the sizes of the layout's top-level modes.
  std::vector<int64_t> modeSizes;
};

/// Memory layouts with more elements than this and no linear form compare
/// by their text only.
constexpr int64_t kMaxEnumerated = int64_t(1) << 16;

/// The placement of `type`, or why it has none (no layout, a layout the
/// bridges refuse, ...).
Expected<Placement> placementOf(mlir::Type type);

/// Compares tile types as placements, with a cache (see the file comment).
/// One object per pass run: not thread-safe.
class LayoutEquality {
public:
  bool equal(mlir::Type a, mlir::Type b);

private:
  const Placement *placement(mlir::Type t);
  llvm::DenseMap<std::pair<mlir::Type, mlir::Type>, bool> pairs_;
  llvm::DenseMap<mlir::Type, std::optional<Placement>> placements_;
};

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_LAYOUTEQUALITY_H
