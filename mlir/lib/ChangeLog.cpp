//===- ChangeLog.cpp - The ops a pass changed, verified alone -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/RegionOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/OpDefinition.h"

#include <algorithm>
#include <optional>
#include <vector>

using namespace mlir;
using lk::tileas::ChangeLog;

namespace {

/// The log of the driver running on this thread (ActiveChangeLog).
thread_local ChangeLog *active = nullptr;

} // namespace

/// Notes `op`; a terminator notes its parent too, unless the parent is
/// isolated from above (ChangeLog.h).
void ChangeLog::note(Operation *op) {
  if (!live.insert(op).second)
    return; // noted already, its parent too
  order.push_back(op);
  if (!op->hasTrait<OpTrait::IsTerminator>())
    return;
  Operation *parent = op->getParentOp();
  if (parent && !parent->hasTrait<OpTrait::IsIsolatedFromAbove>() &&
      live.insert(parent).second)
    order.push_back(parent);
}

/// Forgets `op` and every op nested in it (a walk of the erased ops only).
void ChangeLog::forget(Operation *op) {
  if (live.empty())
    return;
  op->walk([&](Operation *nested) { live.erase(nested); });
}

namespace {

/// Whether `v` is defined before its use by `user`: in a single-block
/// region, `v` is an argument of a block that holds `user` (or an op
/// around it), or the result of an op before that op in the block; else
/// MLIR's DominanceInfo decides (`dom`, built when first needed).
bool dominatesUse(Value v, Operation *user, std::optional<DominanceInfo> &dom) {
  Block *block = v.getParentBlock();
  Operation *at = block->findAncestorOpInBlock(*user);
  if (at && block->getParent()->hasOneBlock()) {
    Operation *def = v.getDefiningOp();
    return !def || (def != at && def->isBeforeInBlock(at));
  }
  if (!dom)
    dom.emplace();
  return dom->properlyDominates(v, user);
}

/// What MLIR's verifier checks of `op` itself: operands present, the op's
/// invariants (its constraints, traits and verify()), its region
/// invariants (traits over its regions and verifyRegions()), and that each
/// operand's definition dominates `op`. The ops inside its regions are
/// not visited: a changed one is noted itself.
LogicalResult verifyAlone(Operation *op, std::optional<DominanceInfo> &dom) {
  for (OpOperand &operand : op->getOpOperands())
    if (!operand.get())
      return op->emitError("null operand found");
  OperationName name = op->getName();
  if (failed(name.verifyInvariants(op)) ||
      failed(name.verifyRegionInvariants(op)))
    return failure();
  for (OpOperand &operand : op->getOpOperands())
    if (!dominatesUse(operand.get(), op, dom))
      return op->emitError("operand #")
             << operand.getOperandNumber() << " does not dominate this use";
  return success();
}

} // namespace

/// Each live op of `order`, once, alone (verifyAlone), last noted first:
/// the ops a step noted last are the likeliest still in cache. On a
/// failure the ops are checked again first noted first, diagnostics on, so
/// that the error reported is the first in that order.
LogicalResult ChangeLog::verify() {
  std::vector<Operation *> todo;
  todo.reserve(live.size());
  for (Operation *op : order)
    if (live.erase(op)) // else erased, or listed already
      todo.push_back(op);
  order.clear();
  if (todo.empty())
    return success();
  std::optional<DominanceInfo> dom;
  bool ok;
  {
    ScopedDiagnosticHandler quiet(todo.front()->getContext(),
                                  [](Diagnostic &) { return success(); });
    ok = std::all_of(todo.rbegin(), todo.rend(), [&](Operation *op) {
      return succeeded(verifyAlone(op, dom));
    });
  }
  if (ok)
    return success();
  for (Operation *op : todo)
    if (failed(verifyAlone(op, dom)))
      return failure();
  return success();
}

void ChangeLog::clear() {
  live.clear();
  order.clear();
  changed = false;
}

lk::tileas::ActiveChangeLog::ActiveChangeLog(ChangeLog *log) : saved(active) {
  active = log;
}

lk::tileas::ActiveChangeLog::~ActiveChangeLog() { active = saved; }

ChangeLog *lk::tileas::activeChangeLog() { return active; }

void lk::tileas::noteChanged(Operation *op) {
  if (!active)
    return;
  active->note(op);
  regionOpsNoteChanged(op);
}

void lk::tileas::noteUsers(Value v) {
  if (active)
    for (Operation *user : v.getUsers())
      active->note(user);
}

void lk::tileas::noteRetyped(Value v) {
  if (!active)
    return;
  if (Operation *def = v.getDefiningOp())
    active->note(def);
  else if (Operation *owner = cast<BlockArgument>(v).getOwner()->getParentOp())
    active->note(owner);
  noteUsers(v);
}

void lk::tileas::eraseOp(Operation *op) {
  if (active) {
    active->forget(op);
    regionOpsNoteErased(op);
  }
  op->erase();
}

OpBuilder::Listener *lk::tileas::insertionNoter() {
  thread_local ChangeLogListener noter(nullptr);
  return active ? &noter : nullptr;
}

bool lk::tileas::logChange() {
  if (!active)
    return false;
  active->changed = true;
  return true;
}

/// The op alone: a builder notifies the ops it creates inside a new op's
/// regions one by one, and those of a clone's regions after the clone.
void lk::tileas::ChangeLogListener::notifyOperationInserted(
    Operation *op, OpBuilder::InsertPoint previous) {
  noteChanged(op);
  if (active && previous.isSet())
    regionOpsNoteChanged(op, /*moved=*/true);
  ForwardingListener::notifyOperationInserted(op, previous);
}

void lk::tileas::ChangeLogListener::notifyOperationModified(Operation *op) {
  noteChanged(op);
  ForwardingListener::notifyOperationModified(op);
}

void lk::tileas::ChangeLogListener::notifyOperationReplaced(
    Operation *op, ValueRange replacement) {
  for (Value result : op->getResults())
    noteUsers(result);
  ForwardingListener::notifyOperationReplaced(op, replacement);
}

void lk::tileas::ChangeLogListener::notifyOperationReplaced(
    Operation *op, Operation *replacement) {
  for (Value result : op->getResults())
    noteUsers(result);
  ForwardingListener::notifyOperationReplaced(op, replacement);
}

void lk::tileas::ChangeLogListener::notifyOperationErased(Operation *op) {
  if (ChangeLog *log = activeChangeLog()) {
    log->forget(op);
    regionOpsNoteErased(op);
  }
  ForwardingListener::notifyOperationErased(op);
}
