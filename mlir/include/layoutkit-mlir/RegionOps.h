//===- RegionOps.h - Region ops found once per change -----------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The ops that `remove-buffer-alias`, `remove-dead-args`,
/// `resolve-agent-boundary` and `slicing` start from, found by one walk of
/// the function: its ops with regions in pre-order and in post-order (the
/// orders of MLIR's two walks) and its `tileas.select` ops in IR order.
/// The passes read them instead of walking the function each.
///
/// Inside `tileas-layout-pipeline`, the fixed-point driver (FixedPoint.h)
/// keeps the lists of its function from the first pass that asks for them
/// until a pass reports a change: the passes after a pass that changed
/// nothing find the lists without a walk (as they are, the function being
/// unchanged). Outside the driver each request walks the function once.
/// A pass reads the lists when it starts, before it changes the function.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_REGIONOPS_H
#define LAYOUTKIT_MLIR_REGIONOPS_H

#include "mlir/IR/Operation.h"

#include <optional>
#include <vector>

namespace lk::tileas {

/// One walk's lists (see above); the function itself included.
struct RegionOps {
  explicit RegionOps(mlir::Operation *fn);

  mlir::Operation *fn;
  /// The ops with at least one region, as a pre-order and a post-order
  /// walk of `fn` visit them.
  std::vector<mlir::Operation *> preOrder, postOrder;
  /// The tileas.select ops, in IR order.
  std::vector<mlir::Operation *> selects;
};

/// The lists of `fn`: the driver's, when a driver on `fn` holds them or
/// makes them now, else made into `local` and returned.
const RegionOps &regionOpsOf(mlir::Operation *fn,
                             std::optional<RegionOps> &local);

/// While alive, regionOpsOf(fn) keeps its lists in `*cache` (the driver's,
/// on this thread): it reads them there, or makes them there when empty.
class RegionOpsCache {
public:
  RegionOpsCache(mlir::Operation *fn, std::optional<RegionOps> *cache);
  ~RegionOpsCache();
  RegionOpsCache(const RegionOpsCache &) = delete;
  RegionOpsCache &operator=(const RegionOpsCache &) = delete;

private:
  mlir::Operation *savedFn;
  std::optional<RegionOps> *savedCache;
};

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_REGIONOPS_H
