//===- RegionOps.cpp - A function's region ops, found once per change -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/RegionOps.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/IR/Visitors.h"

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
  fn->walk([&](Operation *op, const WalkStage &stage) {
    if (op->getNumRegions() == 0) {
      if (isa<lk::tileas::SelectOp>(op))
        selects.push_back(op);
      return;
    }
    if (stage.isBeforeAllRegions())
      preOrder.push_back(op);
    if (stage.isAfterAllRegions())
      postOrder.push_back(op);
  });
}

const RegionOps &lk::tileas::regionOpsOf(Operation *fn,
                                         std::optional<RegionOps> &local) {
  std::optional<RegionOps> *cache = fn == activeFn ? activeCache : &local;
  if (!*cache || (*cache)->fn != fn)
    cache->emplace(fn);
  return **cache;
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
