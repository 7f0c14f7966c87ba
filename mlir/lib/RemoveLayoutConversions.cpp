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

#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/LayoutEquality.h"
#include "layoutkit-mlir/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

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

/// Backwards from conversions of buffers: retype the producer. Sets
/// `changed` when a conversion went.
LogicalResult propagateBufferLayouts(Operation *fn, bool &changed) {
  SmallVector<ConvertLayoutOp> work;
  fn->walk([&](ConvertLayoutOp op) { work.push_back(op); });
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
      auto view = ViewOp::create(b, producer->getLoc(), oldType, src,
                                 Value(), b.getI64IntegerAttr(0));
      src.replaceAllUsesExcept(view.getResult(),
                               SmallPtrSet<Operation *, 2>{cvt, view});
    }
    cvt.getResult().replaceAllUsesWith(src);
    cvt.erase();
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
    if (!cvt || llvm::any_of(cvt->getUsers(),
                             [&](Operation *u) { return u != op; }))
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

/// Forwards from register conversions: elementwise consumers run on the
/// sources and convert their result (to its old type, one placement with
/// the conversions' target). Sets `changed` when an op moved.
LogicalResult propagateRegisterLayouts(Operation *fn, LayoutEquality &eq,
                                       bool &changed) {
  SmallVector<Operation *> work;
  fn->walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
        op->getNumOperands() > 0)
      work.push_back(op);
  });
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
    auto cvt = ConvertLayoutOp::create(b, op->getLoc(), oldType,
                                       op->getResult(0));
    op->getResult(0).replaceAllUsesExcept(cvt.getResult(), cvt);
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
  cvt.erase();
  return true;
}

/// The pragma_end closing `begin` (the next one of its name not closing
/// a nested begin of that name); the verifier guarantees one.
Operation *pragmaEnd(PragmaBeginOp begin) {
  int open = 0;
  for (Operation *it = begin->getNextNode(); it; it = it->getNextNode()) {
    if (auto b = dyn_cast<PragmaBeginOp>(it); b && b.getKind() == begin.getKind())
      ++open;
    if (auto e = dyn_cast<PragmaEndOp>(it); e && e.getKind() == begin.getKind())
      if (open-- == 0)
        return it;
  }
  return nullptr;
}

/// A register conversion (within the register kind) directly inside a
/// pragma range whose source comes from outside the range moves in front
/// of pragma_begin, where it becomes the conversion of that source to that
/// type already there (same block), if any: the range encloses the same
/// computation and reads the value in one layout. Conversions of buffers
/// stay (the range may write the buffer first), as do those behind a
/// fence, an async_wait or a deep produce_one in the range. Returns
/// whether a conversion moved.
bool hoistOutOfPragma(PragmaBeginOp begin) {
  Operation *end = pragmaEnd(begin);
  if (!end)
    return false;
  bool changed = false;
  Block *block = begin->getBlock();
  SmallVector<ConvertLayoutOp> inside;
  for (Operation *it = begin->getNextNode(); it != end; it = it->getNextNode())
    if (auto cvt = dyn_cast<ConvertLayoutOp>(it))
      inside.push_back(cvt);
  for (ConvertLayoutOp cvt : inside) {
    Value src = cvt.getSource();
    Operation *def = src.getDefiningOp();
    Operation *local = def ? block->findAncestorOpInBlock(*def) : nullptr;
    if ((local && begin->isBeforeInBlock(local)) ||
        memKindOf(src.getType()) != MemKind::Register ||
        memKindOf(cvt.getType()) != MemKind::Register ||
        pinnedBetween(begin, cvt))
      continue;
    cvt->moveBefore(begin);
    changed = true;
    for (Operation *user : src.getUsers()) {
      auto twin = dyn_cast<ConvertLayoutOp>(user);
      if (twin && twin != cvt && twin->getBlock() == block &&
          twin->isBeforeInBlock(cvt) && twin.getType() == cvt.getType()) {
        cvt.getResult().replaceAllUsesWith(twin.getResult());
        cvt.erase();
        break;
      }
    }
  }
  return changed;
}

/// The rewrite step: scf.if arms, produce/consume pairs, pragma ranges.
/// Sets `changed` when it rewrote something.
void rewriteLayoutSensitiveOps(Operation *fn, bool &changed) {
  SmallVector<scf::IfOp> ifs;
  fn->walk([&](scf::IfOp op) { ifs.push_back(op); });
  for (scf::IfOp op : ifs)
    changed |= unifyIfArms(op);
  SmallVector<ProduceOneOp> produces;
  fn->walk([&](ProduceOneOp op) { produces.push_back(op); });
  for (ProduceOneOp op : produces)
    changed |= commuteThroughPair(op);
  SmallVector<PragmaBeginOp> begins;
  fn->walk([&](PragmaBeginOp op) { begins.push_back(op); });
  // Inner ranges first: what leaves one can then leave the enclosing one.
  for (PragmaBeginOp op : llvm::reverse(begins))
    changed |= hoistOutOfPragma(op);
}

struct RemoveLayoutConversions
    : lk::tileas::impl::TileASRemoveLayoutConversionsBase<
          RemoveLayoutConversions> {
  void runOnOperation() override {
    Operation *fn = getOperation();
    LayoutEquality eq;
    bool changed = false;
    bool propagationFailed = failed(propagateBufferLayouts(fn, changed));
    propagationFailed |= failed(propagateRegisterLayouts(fn, eq, changed));
    (void)cleanupConversions(fn, eq, &changed);
    rewriteLayoutSensitiveOps(fn, changed);
    // cleanup -> rewrite -> cleanup -> cleanup: the last cleanup finds
    // nothing after one that reached its fixed point, so it runs only when
    // the one before stopped at its step bound.
    if (failed(cleanupConversions(fn, eq, &changed)))
      (void)cleanupConversions(fn, eq, &changed);
    if (propagationFailed)
      return signalPassFailure();
    // Unchanged: the verifier need not run again, and the fixed point of
    // tileas-layout-pipeline sees that this pass found nothing to do.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
