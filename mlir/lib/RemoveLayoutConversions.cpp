//===- RemoveLayoutConversions.cpp - tileas-remove-layout-conversions -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// propagate -> cleanup -> rewrite -> cleanup -> cleanup (docs/mlir.md):
//
//  * buffer side, backwards: convert_layout(%b) where %b is an smem/tmem
//    value made by tiled_load, alloc_tensor or consume_one: the producer is
//    retyped to the target; its other users keep the old type through a
//    `view` at offset 0; the conversion goes;
//  * register side, forwards: an elementwise op whose tile operands are all
//    conversions from one type A to one type B runs on the A values and
//    one conversion A -> B follows it, so conversions sink until they meet
//    their inverse or a layout-fixing op;
//  * rewrite: an scf.if whose arms both yield a conversion A -> B at one
//    position yields the A values and converts once after the if; a
//    depth-1 produce_one/consume_one pair fed by a conversion X -> V
//    carries X, and each consume_one lays the slot out as its result; a
//    register conversion inside a pragma range of a value from outside it
//    moves in front of the range (and merges with a twin there);
//  * cleanup (Cleanup.h): convert(x : A -> B) is x when A and B are one
//    placement (LayoutEquality.h: the same type, or two encodings LayoutKit
//    finds to be the same function) and every user takes x in its place
//    (it still verifies); convert(convert(x)) is one conversion when all
//    three types share a memory kind; dead conversions go.
//
// Never rewritten: a conversion between memory kinds, and a buffer-side
// conversion separated from its producer by a fence, an async_wait or a
// produce_one of depth > 1 (or lying in another block).
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/LayoutEquality.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/Pragmas.h"
#include "layoutkit-mlir/RegionOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASREMOVELAYOUTCONVERSIONS
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

bool sameMemKind(Type a, Type b) { return memKindOf(a) == memKindOf(b); }

/// True when an op between `producer` and `use` (same block) pins the
/// value's layout: a fence, an async_wait, or a produce_one of depth > 1.
/// Different blocks count as pinned.
bool pinnedBetween(Operation *producer, Operation *use) {
  if (producer->getBlock() != use->getBlock())
    return true;
  for (Operation *it = producer->getNextNode(); it && it != use;
       it = it->getNextNode()) {
    if (isa<FenceOp, AsyncWaitOp>(it))
      return true;
    if (auto p = dyn_cast<ProduceOneOp>(it); p && p.getDepth() > 1)
      return true;
  }
  return false;
}

/// Backwards from conversions of buffers (`work`: the function's
/// conversions): retype the producer. Sets `changed` when a conversion went.
LogicalResult propagateBufferLayouts(ArrayRef<ConvertLayoutOp> work,
                                     bool &changed) {
  bool ok = true;
  for (ConvertLayoutOp cvt : work) {
    Value src = cvt.getSource();
    Operation *producer = src.getDefiningOp();
    if (!isMemory(memKindOf(src.getType())) ||
        !sameMemKind(src.getType(), cvt.getType()) || !producer ||
        !isa<TiledLoadOp, AllocTensorOp, ConsumeOneOp>(producer) ||
        pinnedBetween(producer, cvt))
      continue;
    Type oldType = src.getType();
    src.setType(cvt.getType());
    if (failed(verify(producer, /*verifyRecursively=*/false))) {
      src.setType(oldType);
      ok = false;
      continue;
    }
    if (!src.hasOneUse()) {
      OpBuilder b(producer->getContext());
      b.setInsertionPointAfter(producer);
      auto view = ViewOp::create(b, producer->getLoc(), oldType, src, Value(),
                                 b.getI64IntegerAttr(0));
      src.replaceAllUsesExcept(view.getResult(),
                               SmallPtrSet<Operation *, 2>{cvt, view});
      noteUsers(view.getResult());
    }
    cvt.getResult().replaceAllUsesWith(src);
    eraseOp(cvt);
    noteRetyped(src); // the producer, the view, the conversion's users
    changed = true;
  }
  return success(ok);
}

/// The common (source type, target type) of the conversions feeding every
/// operand of `op` (and used only by it), or failure.
FailureOr<std::pair<Type, Type>> commonConversion(Operation *op) {
  std::optional<std::pair<Type, Type>> types;
  for (Value v : op->getOperands()) {
    auto cvt = v.getDefiningOp<ConvertLayoutOp>();
    // A conversion with users elsewhere would stay: sinking it would add
    // one.
    if (!cvt ||
        llvm::any_of(cvt->getUsers(), [&](Operation *u) { return u != op; }))
      return failure();
    std::pair<Type, Type> t{cvt.getSource().getType(), cvt.getType()};
    if (types && *types != t)
      return failure();
    types = t;
  }
  if (!types || isMemory(memKindOf(types->first)) ||
      !sameMemKind(types->first, types->second))
    return failure();
  return *types;
}

/// An op the register side may move conversions through.
bool isElementwiseCandidate(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
         op->getNumOperands() > 0;
}

/// Whether commonConversion(op) can hold when the register side reaches
/// `op`: every operand made by a conversion, or by a candidate before `op`
/// that the register side may retype (it puts a new conversion after it).
/// Until then only the buffer side and the register side change the
/// function, and neither makes a value made by another op a conversion's
/// (the buffer side replaces conversions by their sources and sources by
/// views), so an op for which this is false when the pass's walk finds it
/// is left as it is; the walk checks it while the op is in cache.
bool mayTakeConversions(Operation *op) {
  return llvm::all_of(op->getOperands(), [](Value v) {
    Operation *def = v.getDefiningOp();
    return def && (isa<ConvertLayoutOp>(def) || isElementwiseCandidate(def));
  });
}

/// Forwards from register conversions (`work`: the function's
/// elementwise ops, isElementwiseCandidate): elementwise consumers run on
/// the sources and convert their result (to its old type, one placement
/// with the conversions' target). Sets `changed` when an op moved.
LogicalResult propagateRegisterLayouts(ArrayRef<Operation *> work,
                                       LayoutEquality &eq, bool &changed) {
  bool ok = true;
  for (Operation *op : work) {
    FailureOr<std::pair<Type, Type>> types = commonConversion(op);
    Type oldType = op->getResult(0).getType();
    if (failed(types) || !eq.equal(oldType, types->second))
      continue;
    for (OpOperand &operand : op->getOpOperands())
      operand.set(operand.get().getDefiningOp<ConvertLayoutOp>().getSource());
    op->getResult(0).setType(types->first);
    changed = true;
    if (failed(verify(op, /*verifyRecursively=*/false))) {
      ok = false;
      continue;
    }
    OpBuilder b(op->getContext());
    b.setInsertionPointAfter(op);
    auto cvt =
        ConvertLayoutOp::create(b, op->getLoc(), oldType, op->getResult(0));
    op->getResult(0).replaceAllUsesExcept(cvt.getResult(), cvt);
    noteRetyped(op->getResult(0)); // `op` (operands too) and `cvt`
    noteUsers(cvt.getResult());
  }
  return success(ok);
}

/// scf.if: a result both arms produce by a conversion from one type A
/// (the same type: the if's result has one) becomes an A result converted
/// once after the if. Returns whether a result was rewritten.
bool unifyIfArms(scf::IfOp op) {
  if (op.getNumResults() == 0 || op.getElseRegion().empty())
    return false;
  bool changed = false;
  scf::YieldOp thenYield = op.thenYield(), elseYield = op.elseYield();
  for (unsigned i = 0; i < op.getNumResults(); ++i) {
    auto a = thenYield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
    auto b = elseYield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
    if (!a || !b || a.getSource().getType() != b.getSource().getType() ||
        !sameMemKind(a.getSource().getType(), a.getType()))
      continue;
    Value result = op.getResult(i);
    Type target = result.getType();
    thenYield.setOperand(i, a.getSource());
    elseYield.setOperand(i, b.getSource());
    result.setType(a.getSource().getType());
    OpBuilder builder(op->getContext());
    builder.setInsertionPointAfter(op);
    auto cvt = ConvertLayoutOp::create(builder, op->getLoc(), target, result);
    result.replaceAllUsesExcept(cvt.getResult(), cvt);
    noteChanged(thenYield); // and the if, their parent
    noteChanged(elseYield);
    noteRetyped(result);
    noteUsers(cvt.getResult());
    changed = true;
  }
  return changed;
}

/// The consume_ones reading `slot`, when there is one and nothing else
/// reads it.
FailureOr<SmallVector<ConsumeOneOp>> consumersOf(Value slot) {
  SmallVector<ConsumeOneOp> consumers;
  for (Operation *user : slot.getUsers()) {
    auto c = dyn_cast<ConsumeOneOp>(user);
    if (!c)
      return failure();
    consumers.push_back(c);
  }
  if (consumers.empty())
    return failure();
  return consumers;
}

/// A depth-1 produce_one whose value and slot have one smem/tmem type V,
/// the value being convert(x : X -> V) within one memory kind and used
/// only there, and whose slot only consume_ones read: the pair carries X
/// (value and slot), the conversion goes, and each consume_one lays the
/// slot out as its result, as it already does when the buffer side
/// retyped it. No fence or async_wait may lie between the conversion and
/// the produce_one; a deeper pipeline pins V (two stages in flight).
/// Returns whether the pair changed.
bool commuteThroughPair(ProduceOneOp produce) {
  Value slot = produce.getSlot();
  Type v = slot.getType();
  auto cvt = produce.getValue().getDefiningOp<ConvertLayoutOp>();
  MemKind kind = memKindOf(v);
  if (produce.getDepth() != 1 || !cvt || !cvt->hasOneUse() ||
      produce.getValue().getType() != v ||
      (kind != MemKind::Smem && kind != MemKind::Tmem) ||
      !sameMemKind(cvt.getSource().getType(), v) ||
      pinnedBetween(cvt, produce) || failed(consumersOf(slot)))
    return false;
  produce.getValueMutable().assign(cvt.getSource());
  slot.setType(cvt.getSource().getType());
  eraseOp(cvt);
  noteChanged(produce);
  noteRetyped(slot);
  return true;
}

/// Hoists the register conversions out of the pragma ranges of one block
/// in one pass. A register conversion (within the register kind) inside a
/// range whose source comes from outside the range moves in front of
/// pragma_begin, where it becomes the conversion of that source to that
/// type already there (same block), if any: the range encloses the same
/// computation and reads the value in one layout. Conversions of buffers
/// stay (the range may write the buffer first), as do those behind a
/// fence, an async_wait or a deep produce_one in the range.
///
/// Ranges go from the last pragma_begin of the block to the first, so what
/// leaves an inner range can then leave the enclosing one. Positions are
/// the ops' indices in the block before the pass (a moved conversion takes
/// the index of the begin it moved in front of, ties broken by its own);
/// only conversions move, so a prefix count of pinning ops answers "pinned
/// between" in O(1). A conversion that cannot leave a range cannot leave
/// any range that begins earlier (its source or a pin lies after that
/// begin too), so it is dropped from the candidates: each conversion is
/// looked at once per range it leaves plus once.
class PragmaHoister {
public:
  explicit PragmaHoister(Block &block) : block(block) {
    size_t i = 0;
    pinsBefore.push_back(0);
    for (Operation &op : block) {
      pos[&op] = i++;
      pinsBefore.push_back(pinsBefore.back() + pins(&op));
      if (auto cvt = dyn_cast<ConvertLayoutOp>(op)) {
        key[cvt] = {pos[&op], pos[&op]};
        candidates.emplace(key[cvt], cvt);
      }
    }
  }

  /// Hoists out of every range of the block; true when a conversion moved.
  bool run() {
    PragmaPairs pairs = matchPragmas(block);
    SmallVector<Operation *> begins;
    for (Operation &op : block)
      if (isa<PragmaBeginOp>(op) && pairs.endOf.count(&op))
        begins.push_back(&op);
    bool changed = false;
    for (Operation *begin : llvm::reverse(begins))
      changed |= hoistOutOf(begin, pairs.endOf[begin]);
    return changed;
  }

private:
  using Key = std::pair<size_t, size_t>;

  static bool pins(Operation *op) {
    if (isa<FenceOp, AsyncWaitOp>(op))
      return true;
    auto p = dyn_cast<ProduceOneOp>(op);
    return p && p.getDepth() > 1;
  }

  /// The position of `op` (an op of the block, or one of its ancestors).
  Key keyOf(Operation *op) {
    if (auto cvt = dyn_cast<ConvertLayoutOp>(op); cvt && key.count(cvt))
      return key[cvt];
    return {pos[op], pos[op]};
  }

  bool hoistOutOf(Operation *begin, Operation *end) {
    size_t b = pos[begin];
    SmallVector<ConvertLayoutOp> inside;
    for (auto it = candidates.upper_bound({b, SIZE_MAX});
         it != candidates.end() && it->first < Key{pos[end], 0}; ++it)
      inside.push_back(it->second);
    bool changed = false;
    for (ConvertLayoutOp cvt : inside) {
      candidates.erase(key[cvt]);
      Value src = cvt.getSource();
      Operation *def = src.getDefiningOp();
      Operation *local = def ? block.findAncestorOpInBlock(*def) : nullptr;
      if ((local && keyOf(local) > Key{b, SIZE_MAX}) ||
          memKindOf(src.getType()) != MemKind::Register ||
          memKindOf(cvt.getType()) != MemKind::Register ||
          pinsBefore[key[cvt].first] != pinsBefore[b + 1])
        continue; // stays here and in every range around
      cvt->moveBefore(begin);
      noteChanged(cvt);
      noteUsers(cvt.getResult());
      key[cvt] = {b, key[cvt].second};
      changed = true;
      if (!mergeWithTwin(cvt))
        candidates.emplace(key[cvt], cvt);
    }
    return changed;
  }

  /// Replaces `cvt` by an earlier conversion of its source to its type in
  /// the block, if there is one; true when it did (and erased `cvt`).
  bool mergeWithTwin(ConvertLayoutOp cvt) {
    for (Operation *user : cvt.getSource().getUsers()) {
      auto twin = dyn_cast<ConvertLayoutOp>(user);
      if (twin && twin != cvt && twin->getBlock() == &block &&
          keyOf(twin) < key[cvt] && twin.getType() == cvt.getType()) {
        noteUsers(cvt.getResult()); // the uses that change
        cvt.getResult().replaceAllUsesWith(twin.getResult());
        key.erase(cvt);
        eraseOp(cvt);
        return true;
      }
    }
    return false;
  }

  Block &block;
  llvm::DenseMap<Operation *, size_t> pos;
  /// pinsBefore[i]: the pinning ops among the first i ops of the block.
  SmallVector<size_t> pinsBefore;
  llvm::DenseMap<Operation *, Key> key;
  /// The conversions that may still leave a range, by position.
  std::map<Key, ConvertLayoutOp> candidates;
};

/// The ops of the rewrite step, found by the pass's one walk.
struct SensitiveOps {
  SmallVector<scf::IfOp> ifs;
  SmallVector<ProduceOneOp> produces;
  SmallVector<PragmaBeginOp> pragmas;
};

/// Records the ops the cleanup erases (an scf.if left dead goes).
struct ErasedOps : RewriterBase::Listener {
  void notifyOperationErased(Operation *op) override { ops.insert(op); }
  llvm::DenseSet<Operation *> ops;
};

/// The rewrite step: scf.if arms, then produce/consume pairs, then pragma
/// ranges (per block), skipping the ops erased since they were found.
/// Returns whether it rewrote something.
bool rewriteLayoutSensitiveOps(const SensitiveOps &found,
                               const llvm::DenseSet<Operation *> &erased) {
  auto live = [&](Operation *op) { return !erased.contains(op); };
  llvm::SetVector<Block *> blocks;
  for (PragmaBeginOp op : found.pragmas)
    if (live(op))
      blocks.insert(op->getBlock());
  bool changed = false;
  for (scf::IfOp op : found.ifs)
    if (live(op))
      changed |= unifyIfArms(op);
  for (ProduceOneOp op : found.produces)
    if (live(op))
      changed |= commuteThroughPair(op);
  for (Block *block : blocks)
    changed |= PragmaHoister(*block).run();
  return changed;
}

struct RemoveLayoutConversions
    : lk::tileas::impl::TileASRemoveLayoutConversionsBase<
          RemoveLayoutConversions> {
  void runOnOperation() override {
    Operation *fn = getOperation();
    LayoutEquality eq;
    bool changed = false;
    // One walk finds the work of both sides (the buffer side erases
    // conversions and adds views, never an elementwise op) and of the
    // rewrite step (no side erases or creates an scf.if, a produce_one or
    // a pragma; the cleanup may erase a dead scf.if, and says so).
    // The same walk surveys the function for the cleanup (pre-order, the
    // visit before an op's regions), which skips its own walk when the
    // propagation changed nothing.
    SmallVector<ConvertLayoutOp> conversions;
    SmallVector<Operation *> elementwise;
    SensitiveOps sensitive;
    CleanupSurvey survey(fn, eq);
    // And it makes the function's RegionOps for the passes after this one
    // when the pipeline holds none (RegionOps.h).
    lk::tileas::RegionOps *regionOps = lk::tileas::regionOpsToFill(fn);
    fn->walk([&](Operation *op, const WalkStage &stage) {
      if (regionOps)
        regionOps->visit(op, stage);
      if (stage.isBeforeAllRegions())
        survey.visit(op);
      if (!stage.isAfterAllRegions())
        return;
      if (auto cvt = dyn_cast<ConvertLayoutOp>(op))
        conversions.push_back(cvt);
      else if (isElementwiseCandidate(op)) {
        if (mayTakeConversions(op))
          elementwise.push_back(op);
      } else if (auto i = dyn_cast<scf::IfOp>(op))
        sensitive.ifs.push_back(i);
      else if (auto p = dyn_cast<ProduceOneOp>(op))
        sensitive.produces.push_back(p);
      else if (auto b = dyn_cast<PragmaBeginOp>(op))
        sensitive.pragmas.push_back(b);
    });
    bool propagationFailed =
        failed(propagateBufferLayouts(conversions, changed));
    propagationFailed |=
        failed(propagateRegisterLayouts(elementwise, eq, changed));
    ErasedOps erased;
    bool unchangedSinceWalk = !changed && !propagationFailed;
    LogicalResult cleaned = cleanupConversions(
        fn, eq, &changed, &erased, unchangedSinceWalk ? &survey : nullptr);
    bool rewrote = rewriteLayoutSensitiveOps(sensitive, erased.ops);
    changed |= rewrote;
    // cleanup -> rewrite -> cleanup -> cleanup: a cleanup finds nothing
    // after one that reached its fixed point on the same function, so the
    // second runs only when the rewrite step changed the function or the
    // first stopped at its step bound, and the third only when the second
    // stopped at its bound.
    if ((rewrote || failed(cleaned)) &&
        failed(cleanupConversions(fn, eq, &changed)))
      (void)cleanupConversions(fn, eq, &changed);
    if (propagationFailed)
      return signalPassFailure();
    // Unchanged: the verifier need not run again, and the fixed point of
    // tileas-layout-pipeline sees that this pass found nothing to do.
    // Changed inside the pipeline: the driver verifies the noted ops.
    if (!changed || logChange())
      markAllAnalysesPreserved();
  }
};

} // namespace
