//===- RemoveDeadArgs.cpp - tileas-remove-dead-args -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Dead region arguments (docs/design.md §4.1, docs/mlir.md):
//
//  * scf.for iter-arg i is dead when its only use is the yield operand i
//    (the loop carries its init unchanged: uses of result i become the
//    init), or when the argument and result i both have no use. The
//    argument, init operand i, yield operand i and result i go together;
//    the loop is rebuilt without them.
//  * tileas.async.pipeline.execute: a block argument with no use goes with
//    its operand (the op's results come from its yield, not from the
//    arguments).
//
// An argument that feeds the terminator at another position stays.
// Indices are collected first and erased from the highest down, so the
// lower ones stay valid.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASREMOVEDEADARGS
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

/// True when iter-arg i of `loop` carries nothing: yielded back unchanged
/// at its own position and used nowhere else, or unused with an unused
/// result.
bool isDeadIterArg(scf::ForOp loop, unsigned i) {
  BlockArgument arg = loop.getRegionIterArgs()[i];
  if (arg.use_empty())
    return loop.getResult(i).use_empty();
  if (!arg.hasOneUse())
    return false;
  OpOperand &use = *arg.getUses().begin();
  return use.getOwner() == loop.getBody()->getTerminator() &&
         use.getOperandNumber() == i;
}

/// Rebuilds `loop` without the iter-args marked in `dead`.
void dropIterArgs(scf::ForOp loop, const llvm::BitVector &dead) {
  SmallVector<Value> inits;
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
    if (!dead[i])
      inits.push_back(loop.getInitArgs()[i]);
  OpBuilder b(loop);
  auto fresh = scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(),
                                  loop.getUpperBound(), loop.getStep(), inits);
  fresh->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  fresh.getRegion().takeBody(loop.getRegion());
  Block *body = fresh.getBody();
  Operation *yield = body->getTerminator();
  for (int i = static_cast<int>(dead.size()) - 1; i >= 0; --i) {
    if (!dead[i])
      continue;
    BlockArgument arg = body->getArgument(i + 1);
    arg.replaceAllUsesWith(loop.getInitArgs()[i]);
    yield->eraseOperand(i);
    body->eraseArgument(i + 1);
  }
  unsigned kept = 0;
  for (unsigned i = 0; i < dead.size(); ++i)
    loop.getResult(i).replaceAllUsesWith(
        dead[i] ? loop.getInitArgs()[i] : fresh.getResult(kept++));
  loop.erase();
}

void removeDeadIterArgs(scf::ForOp loop) {
  llvm::BitVector dead(loop.getNumRegionIterArgs());
  for (unsigned i = 0; i < dead.size(); ++i)
    dead[i] = isDeadIterArg(loop, i);
  if (dead.any())
    dropIterArgs(loop, dead);
}

void removeDeadArgs(PipelineExecuteOp op) {
  Block &body = op.getBody().front();
  for (int i = static_cast<int>(body.getNumArguments()) - 1; i >= 0; --i) {
    if (!body.getArgument(i).use_empty())
      continue;
    body.eraseArgument(i);
    op->eraseOperand(i);
  }
}

struct RemoveDeadArgs
    : lk::tileas::impl::TileASRemoveDeadArgsBase<RemoveDeadArgs> {
  void runOnOperation() override {
    // Removing an argument can make its init dead, and the dead-code
    // cleanup can leave another loop result unused: repeat until no
    // argument goes, so that a second run finds nothing to remove.
    while (removeOnce() != 0)
      (void)lk::tileas::cleanupConversions(getOperation());
  }

  /// One sweep; returns how many region arguments went.
  size_t removeOnce() {
    // Post-order: inner loops first, so an outer yield sees their results.
    SmallVector<Operation *> ops;
    size_t before = 0, after = 0;
    getOperation()->walk([&](Operation *op) {
      if (isa<scf::ForOp, PipelineExecuteOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      before += op->getNumOperands();
    for (Operation *op : ops) {
      if (auto loop = dyn_cast<scf::ForOp>(op))
        removeDeadIterArgs(loop);
      else
        removeDeadArgs(cast<PipelineExecuteOp>(op));
    }
    getOperation()->walk([&](Operation *op) {
      if (isa<scf::ForOp, PipelineExecuteOp>(op))
        after += op->getNumOperands();
    });
    return before - after;
  }
};

} // namespace
