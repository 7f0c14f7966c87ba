//===- RemoveDeadArgs.cpp - tileas-remove-dead-args -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Dead region arguments of every op implementing RegionBranchOpInterface
// (docs/design.md §4.1, docs/mlir.md), read through the interface only:
//
//  * A *slot* is what must go together: the forwarded operands (the op's
//    entry operands, its terminators' operands) and the successor inputs
//    (entry-block arguments, the op's results) they populate, closed under
//    "forwarded to" (union-find). scf.for iter-arg i: {init i, yield i,
//    iter-arg i, result i}; scf.while: {init i, yield i, before-arg i} and
//    {condition operand j, after-arg j, result j}; scf.if result k:
//    {then-yield k, else-yield k, result k}.
//  * Unused slot: every use of its inputs is one of its own forwarded
//    operands (an argument with no use, or yielded back at its own
//    position, whose result is unused) -> the slot goes.
//  * Carried slots: a cycle of slots, one region each, whose block argument
//    has a single use that forwards it to the next slot of the cycle and
//    whose only other forwarded operands are one entry value x: every
//    input of the cycle is x. Uses of its results become x; the cycle goes.
//    scf.for: iter-arg i only yielded back at i (cycle of one); scf.while:
//    before-arg i only passed as condition operand j, after-arg j only
//    yielded at i (cycle of two). A cycle that meets a region twice is a
//    rotation (values change places every iteration): it stays.
//
// Every slot of an op that goes is erased in one step, each list (operands
// of one op, arguments of one block) from the highest index down so that
// the lower indices stay valid; the op is then rebuilt without the dead
// results, with its attributes and properties, and the verifier accepts
// it. Ops whose operand segments are sized by an attribute are left alone.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/RegionOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASREMOVEDEADARGS
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

/// One slot: forwarded operands and the inputs they populate.
struct Slot {
  SmallVector<OpOperand *> operands;
  SmallVector<Value> inputs;
};

/// The slots of `op`, and which slot a forwarded operand belongs to.
struct Slots {
  SmallVector<Slot> all;
  DenseMap<OpOperand *, unsigned> ofOperand;
};

/// Builds the slots of `op` from the interface's operand -> inputs mapping.
Slots collectSlots(RegionBranchOpInterface op) {
  RegionBranchSuccessorMapping mapping;
  op.getSuccessorOperandInputMapping(mapping);
  // Operands in IR order (the op's, then its terminators'), so that the
  // slots are numbered the same way on every run.
  SmallVector<OpOperand *> order;
  auto addForwarded = [&](Operation *owner) {
    for (OpOperand &operand : owner->getOpOperands())
      if (mapping.count(&operand))
        order.push_back(&operand);
  };
  addForwarded(op);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (!block.empty())
        addForwarded(&block.back());
  llvm::EquivalenceClasses<void *> classes;
  for (OpOperand *operand : order) {
    classes.insert(operand);
    for (Value in : mapping[operand])
      classes.unionSets(operand, in.getAsOpaquePointer());
  }
  Slots s;
  llvm::MapVector<void *, unsigned> leaderSlot;
  for (OpOperand *operand : order) {
    void *leader = classes.getLeaderValue(operand);
    auto [it, fresh] =
        leaderSlot.insert({leader, static_cast<unsigned>(s.all.size())});
    if (fresh)
      s.all.emplace_back();
    Slot &slot = s.all[it->second];
    slot.operands.push_back(operand);
    s.ofOperand[operand] = it->second;
    for (Value in : mapping[operand])
      if (!llvm::is_contained(slot.inputs, in))
        slot.inputs.push_back(in);
  }
  return s;
}

/// True when every use of the inputs of `slot` is a forwarded operand of a
/// slot in `set` (by index into `slots`).
bool usesStayIn(const Slots &slots, const Slot &slot,
                const llvm::SmallDenseSet<unsigned> &set, bool resultsToo) {
  for (Value in : slot.inputs) {
    if (!resultsToo && isa<OpResult>(in))
      continue;
    for (OpOperand &use : in.getUses()) {
      auto it = slots.ofOperand.find(&use);
      if (it == slots.ofOperand.end() || !set.contains(it->second))
        return false;
    }
  }
  return true;
}

/// The single block-argument input of `slot`, or null.
BlockArgument onlyArgument(const Slot &slot) {
  BlockArgument found;
  for (Value in : slot.inputs)
    if (auto arg = dyn_cast<BlockArgument>(in)) {
      if (found)
        return {};
      found = arg;
    }
  return found;
}

/// The carried cycle starting at slot `start` (see the file comment), with
/// the value x it carries; empty when there is none.
std::pair<SmallVector<unsigned>, Value>
carriedCycle(Operation *op, const Slots &slots, unsigned start) {
  SmallVector<unsigned> cycle;
  SmallPtrSet<Region *, 4> regions;
  for (unsigned cur = start;;) {
    BlockArgument arg = onlyArgument(slots.all[cur]);
    if (!arg || !arg.hasOneUse() ||
        !regions.insert(arg.getParentRegion()).second)
      return {};
    cycle.push_back(cur);
    auto next = slots.ofOperand.find(&*arg.getUses().begin());
    if (next == slots.ofOperand.end())
      return {};
    if (next->second == start)
      break;
    if (llvm::is_contained(cycle, next->second))
      return {};
    cur = next->second;
  }
  // Every forwarded operand is the previous argument of the cycle or the
  // one entry value x.
  Value x;
  for (unsigned i : cycle)
    for (OpOperand *operand : slots.all[i].operands) {
      auto arg = dyn_cast<BlockArgument>(operand->get());
      bool inCycle = arg && llvm::any_of(cycle, [&](unsigned j) {
                       return onlyArgument(slots.all[j]) == arg;
                     });
      if (inCycle)
        continue;
      if (operand->getOwner() != op || (x && x != operand->get()))
        return {};
      x = operand->get();
    }
  if (!x)
    return {};
  return {cycle, x};
}

/// The slots of `op` that go; `carried` gets, for each result to be
/// replaced, the value it always equals.
llvm::SmallDenseSet<unsigned> deadSlots(Operation *op, const Slots &slots,
                                        DenseMap<Value, Value> &carried) {
  llvm::SmallDenseSet<unsigned> dead;
  for (unsigned i = 0; i < slots.all.size(); ++i) {
    if (dead.contains(i))
      continue;
    if (usesStayIn(slots, slots.all[i], llvm::SmallDenseSet<unsigned>{i},
                   /*resultsToo=*/true)) {
      dead.insert(i);
      continue;
    }
    auto [cycle, x] = carriedCycle(op, slots, i);
    if (cycle.empty())
      continue;
    llvm::SmallDenseSet<unsigned> set(cycle.begin(), cycle.end());
    if (!llvm::all_of(cycle, [&](unsigned j) {
          return !dead.contains(j) &&
                 usesStayIn(slots, slots.all[j], set, /*resultsToo=*/false);
        }))
      continue;
    for (unsigned j : cycle) {
      dead.insert(j);
      for (Value in : slots.all[j].inputs)
        if (isa<OpResult>(in))
          carried[in] = x;
    }
  }
  return dead;
}

/// Recreates `op` without the results marked in `deadResults`; the regions
/// move to the new op and the kept results' uses follow.
void rebuildWithout(Operation *op, const llvm::BitVector &deadResults) {
  SmallVector<Type> types;
  for (OpResult r : op->getResults())
    if (!deadResults[r.getResultNumber()])
      types.push_back(r.getType());
  Operation *fresh = Operation::create(
      op->getLoc(), op->getName(), types, op->getOperands(),
      NamedAttrList(op->getAttrDictionary()), op->getPropertiesStorage(),
      BlockRange(), op->getNumRegions());
  OpBuilder(op).insert(fresh);
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    fresh->getRegion(i).takeBody(op->getRegion(i));
  unsigned kept = 0;
  for (OpResult r : op->getResults())
    if (!deadResults[r.getResultNumber()])
      r.replaceAllUsesWith(fresh->getResult(kept++));
  eraseOp(op);
  noteChanged(fresh);
  for (Value r : fresh->getResults())
    noteUsers(r);
}

/// Erases the slots in `dead` of `op` in one step; returns how many went.
size_t eraseSlots(Operation *op, const Slots &slots,
                  const llvm::SmallDenseSet<unsigned> &dead,
                  const DenseMap<Value, Value> &carried) {
  llvm::MapVector<Operation *, SmallVector<unsigned>> operandsOf;
  llvm::MapVector<Block *, SmallVector<unsigned>> argsOf;
  llvm::BitVector deadResults(op->getNumResults());
  for (unsigned i : dead) {
    for (OpOperand *operand : slots.all[i].operands)
      operandsOf[operand->getOwner()].push_back(operand->getOperandNumber());
    for (Value in : slots.all[i].inputs) {
      if (auto arg = dyn_cast<BlockArgument>(in))
        argsOf[arg.getOwner()].push_back(arg.getArgNumber());
      else
        deadResults.set(cast<OpResult>(in).getResultNumber());
    }
  }
  auto descending = [](SmallVector<unsigned> &v) {
    llvm::sort(v, std::greater<unsigned>());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  for (auto &[owner, indices] : operandsOf) {
    descending(indices);
    for (unsigned k : indices)
      owner->eraseOperand(k);
    noteChanged(owner);
  }
  for (auto &[block, indices] : argsOf) {
    descending(indices);
    for (unsigned k : indices)
      block->eraseArgument(k);
    noteChanged(block->getParentOp());
  }
  for (auto &[result, x] : carried) {
    noteUsers(result); // the uses that change
    Value(result).replaceAllUsesWith(x);
  }
  if (deadResults.any())
    rebuildWithout(op, deadResults);
  return dead.size();
}

/// An op with operand or result segments sized by an attribute (their
/// sizes would need rewriting too).
bool hasSizedSegments(Operation *op) {
  auto has = [&](StringRef name) {
    std::optional<Attribute> a = op->getInherentAttr(name);
    return a && *a;
  };
  return has("operandSegmentSizes") || has("resultSegmentSizes");
}

/// Removes the dead slots of `op`; returns how many went.
size_t removeDeadSlots(RegionBranchOpInterface op) {
  Slots slots = collectSlots(op);
  for (const Slot &slot : slots.all)
    for (OpOperand *operand : slot.operands)
      if (hasSizedSegments(operand->getOwner()))
        return 0;
  DenseMap<Value, Value> carried;
  llvm::SmallDenseSet<unsigned> dead = deadSlots(op, slots, carried);
  if (dead.empty())
    return 0;
  return eraseSlots(op, slots, dead, carried);
}

struct RemoveDeadArgs
    : lk::tileas::impl::TileASRemoveDeadArgsBase<RemoveDeadArgs> {
  void runOnOperation() override {
    // Removing a slot can make another dead (its forwarded operand was the
    // only use of an argument), and the dead-code cleanup can leave a
    // result unused: repeat until nothing goes, so that a second run finds
    // nothing to remove.
    bool changed = false;
    for (bool first = true; removeOnce(first) != 0; first = false) {
      changed = true;
      (void)lk::tileas::cleanupConversions(getOperation());
    }
    // Unchanged: no verifier run, and the pipeline's fixed point sees it.
    // Changed inside the pipeline: the driver verifies the noted ops.
    if (!changed || logChange())
      markAllAnalysesPreserved();
  }

  /// One sweep over the region-branch ops, inner ones first (post-order),
  /// so that an outer terminator sees the inner results; returns how many
  /// slots went. The ops come from the function's RegionOps (RegionOps.h):
  /// for the first sweep, and for a later one while the pipeline's change
  /// log keeps them up to date; else a later sweep walks the function.
  size_t removeOnce(bool first) {
    SmallVector<RegionBranchOpInterface> ops;
    if (first || lk::tileas::activeChangeLog()) {
      std::optional<lk::tileas::RegionOps> local;
      for (Operation *op :
           lk::tileas::regionOpsOf(getOperation(), local).postOrder)
        if (auto r = dyn_cast<RegionBranchOpInterface>(op))
          ops.push_back(r);
    } else {
      getOperation()->walk(
          [&](RegionBranchOpInterface op) { ops.push_back(op); });
    }
    size_t removed = 0;
    for (RegionBranchOpInterface op : ops)
      removed += removeDeadSlots(op);
    numSlots += removed;
    return removed;
  }
};

} // namespace
