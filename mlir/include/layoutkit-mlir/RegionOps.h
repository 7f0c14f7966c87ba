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
/// (or fills them in its own walk, `regionOpsToFill`) across the passes
/// after it: while the driver notes each pass's changes (ChangeLog.h), the
/// change log keeps the lists up to date. An erased op leaves them (when
/// the lists are next read); a created op with regions, or a created
/// select, makes them stale, and the next request walks the function.
/// An op noted as changed that is in the lists stays in its place: no pass
/// moves an op with regions or a select (one that did would have to erase
/// and recreate it). Without the change log (a driver that verifies
/// nothing) the lists last until a pass reports a change. Outside the
/// driver each request walks the function once. A pass reads the lists
/// when it starts, before it changes the function.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_REGIONOPS_H
#define LAYOUTKIT_MLIR_REGIONOPS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Visitors.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <vector>

namespace lk::tileas {

/// One walk's lists (see above); the function itself included.
struct RegionOps {
  /// The lists of `fn`, by a walk of it.
  explicit RegionOps(mlir::Operation *fn);
  /// Empty lists of `fn`, to be filled by `visit` on every stage of one
  /// walk of `fn` (the caller's).
  RegionOps(mlir::Operation *fn, std::nullopt_t);
  /// One stage of the walk that fills the lists.
  void visit(mlir::Operation *op, const mlir::WalkStage &stage);
  /// The same for a backward walk (regions, blocks and ops last to first;
  /// `first`: before the op's regions, `last`: after them, both for an op
  /// without regions), then finishBackward() once after it.
  void visitBackward(mlir::Operation *op, bool first, bool last);
  void finishBackward();

  mlir::Operation *fn;
  /// The ops with at least one region, as a pre-order and a post-order
  /// walk of `fn` visit them.
  std::vector<mlir::Operation *> preOrder, postOrder;
  /// The tileas.select ops, in IR order.
  std::vector<mlir::Operation *> selects;
  /// Kept by the change log (see above): the ops of the lists not erased
  /// since, the erased ones still in the lists, and whether an op was
  /// created that the lists miss.
  llvm::DenseSet<mlir::Operation *> members, erased;
  bool stale = false;
  /// Drops the erased ops from the lists.
  void dropErased();
};

/// For a pass that walks all of `fn` with stages before it changes it:
/// when a driver on `fn` that notes changes (ChangeLog.h) holds no lists,
/// or stale ones, its empty lists for the walk to fill (RegionOps::visit);
/// else null. `remove-layout-conversions` and the conversion cleanup
/// (Cleanup.h) fill them in their walks.
RegionOps *regionOpsToFill(mlir::Operation *fn);

/// Called by the change log (ChangeLog.h) for each op noted as created or
/// changed (`moved` when a rewriter or builder reports that it moved it),
/// and for each erased op (before it is freed), so that the driver's lists
/// stay up to date.
void regionOpsNoteChanged(mlir::Operation *op, bool moved = false);
void regionOpsNoteErased(mlir::Operation *op);

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
