//===- RegionOps.cpp - A function's region ops, found once per change -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/RegionOps.h"
#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/IR/Visitors.h"

#include <algorithm>

using namespace mlir;
using lk::tileas::RegionOps;

namespace {

/// The driver's function and cache on this thread (RegionOpsCache).
thread_local Operation *activeFn = nullptr;
thread_local std::optional<RegionOps> *activeCache = nullptr;

} // namespace

/// One walk that stops at each op before its first region and after its
/// last (once for an op without regions): the first visit is the op's
/// place in pre-order, the last its place in post-order.
RegionOps::RegionOps(Operation *fn) : fn(fn) {
  fn->walk([&](Operation *op, const WalkStage &stage) { visit(op, stage); });
}

RegionOps::RegionOps(Operation *fn, std::nullopt_t) : fn(fn) {}

void RegionOps::visit(Operation *op, const WalkStage &stage) {
  if (op->getNumRegions() == 0) {
    if (isa<lk::tileas::SelectOp>(op)) {
      selects.push_back(op);
      members.insert(op);
    }
    return;
  }
  if (stage.isBeforeAllRegions()) {
    preOrder.push_back(op);
    members.insert(op);
  }
  if (stage.isAfterAllRegions())
    postOrder.push_back(op);
}

/// Backward, an op's last visit comes in the reverse of pre-order and its
/// first visit in the reverse of post-order.
void RegionOps::visitBackward(Operation *op, bool first, bool last) {
  if (op->getNumRegions() == 0) {
    if (isa<lk::tileas::SelectOp>(op)) {
      selects.push_back(op);
      members.insert(op);
    }
    return;
  }
  if (last) {
    preOrder.push_back(op);
    members.insert(op);
  }
  if (first)
    postOrder.push_back(op);
}

void RegionOps::finishBackward() {
  std::reverse(preOrder.begin(), preOrder.end());
  std::reverse(postOrder.begin(), postOrder.end());
  std::reverse(selects.begin(), selects.end());
}

void RegionOps::dropErased() {
  if (erased.empty())
    return;
  auto gone = [&](Operation *op) { return erased.contains(op); };
  llvm::erase_if(preOrder, gone);
  llvm::erase_if(postOrder, gone);
  llvm::erase_if(selects, gone);
  erased.clear();
}

/// The driver's lists of `fn` on this thread, when it holds any.
static std::optional<RegionOps> *driverCacheOf(Operation *fn) {
  return fn == activeFn ? activeCache : nullptr;
}

const RegionOps &lk::tileas::regionOpsOf(Operation *fn,
                                         std::optional<RegionOps> &local) {
  std::optional<RegionOps> *cache = driverCacheOf(fn);
  if (!cache)
    cache = &local;
  if (!*cache || (*cache)->fn != fn || (*cache)->stale)
    cache->emplace(fn);
  (*cache)->dropErased();
  return **cache;
}

RegionOps *lk::tileas::regionOpsToFill(Operation *fn) {
  std::optional<RegionOps> *cache = driverCacheOf(fn);
  if (!cache || !activeChangeLog() ||
      (*cache && (*cache)->fn == fn && !(*cache)->stale))
    return nullptr;
  cache->emplace(fn, std::nullopt);
  return &**cache;
}

/// A created or moved op with regions, or select, is missing from the
/// lists or out of place in them (an op of the lists noted as changed and
/// not moved changed in place).
void lk::tileas::regionOpsNoteChanged(Operation *op, bool moved) {
  if (!activeCache || !*activeCache)
    return;
  RegionOps &lists = **activeCache;
  if ((op->getNumRegions() != 0 || isa<SelectOp>(op)) &&
      (moved || !lists.members.contains(op)))
    lists.stale = true;
}

/// `op` and the ops nested in it leave the lists.
void lk::tileas::regionOpsNoteErased(Operation *op) {
  if (!activeCache || !*activeCache)
    return;
  RegionOps &lists = **activeCache;
  auto drop = [&](Operation *gone) {
    if (lists.members.erase(gone))
      lists.erased.insert(gone);
  };
  if (op->getNumRegions() == 0)
    return drop(op);
  op->walk(drop);
}

lk::tileas::RegionOpsCache::RegionOpsCache(Operation *fn,
                                           std::optional<RegionOps> *cache)
    : savedFn(activeFn), savedCache(activeCache) {
  activeFn = fn;
  activeCache = cache;
}

lk::tileas::RegionOpsCache::~RegionOpsCache() {
  activeFn = savedFn;
  activeCache = savedCache;
}
