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
//    position yields the A values and converts once after the if;
//  * cleanup (greedy): convert(x : A -> B) is x when A and B are one
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
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASREMOVELAYOUTCONVERSIONS
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

bool sameMemKind(Type a, Type b) { return memKindOf(a) == memKindOf(b); }

/// True when every user of `cvt` still verifies with the conversion's
/// source in its place (a terminator: its parent op too, which checks what
/// it yields). The uses are restored; the verifier's messages are dropped.
bool usersAccept(ConvertLayoutOp cvt) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : cvt->getUses())
    uses.push_back(&use);
  for (OpOperand *use : uses)
    use->set(cvt.getSource());
  ScopedDiagnosticHandler quiet(cvt->getContext(),
                                [](Diagnostic &) { return success(); });
  bool ok = llvm::all_of(uses, [](OpOperand *use) {
    Operation *user = use->getOwner();
    Operation *parent = user->getParentOp();
    return succeeded(verify(user, /*verifyRecursively=*/false)) &&
           (!user->hasTrait<OpTrait::IsTerminator>() || !parent ||
            succeeded(verify(parent, /*verifyRecursively=*/false)));
  });
  for (OpOperand *use : uses)
    use->set(cvt.getResult());
  return ok;
}

/// convert_layout(x : A -> B) is x when A and B are one placement and the
/// users take x (a conversion between two types of one function that a
/// user needs by name, e.g. a function result, stays).
struct FoldIdentityConversion : OpRewritePattern<ConvertLayoutOp> {
  FoldIdentityConversion(MLIRContext *ctx, LayoutEquality &eq)
      : OpRewritePattern(ctx), eq(eq) {}
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rw) const override {
    Type from = op.getSource().getType();
    if (from != op.getType() &&
        (!eq.equal(from, op.getType()) || !usersAccept(op)))
      return failure();
    rw.replaceOp(op, op.getSource());
    return success();
  }
  LayoutEquality &eq;
};

/// convert(convert(x : A -> B) : B -> C) is convert(x : A -> C) when A, B
/// and C share a memory kind.
struct FoldConversionChain : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rw) const override {
    auto inner = op.getSource().getDefiningOp<ConvertLayoutOp>();
    if (!inner)
      return failure();
    Type a = inner.getSource().getType(), b = inner.getType(), c = op.getType();
    if (!sameMemKind(a, b) || !sameMemKind(b, c))
      return failure();
    rw.replaceOpWithNewOp<ConvertLayoutOp>(op, c, inner.getSource());
    return success();
  }
};

} // namespace

LogicalResult lk::tileas::cleanupConversions(Operation *fn,
                                             LayoutEquality &eq) {
  RewritePatternSet patterns(fn->getContext());
  patterns.add<FoldIdentityConversion>(fn->getContext(), eq);
  patterns.add<FoldConversionChain>(fn->getContext());
  return applyPatternsGreedily(fn, std::move(patterns));
}

LogicalResult lk::tileas::cleanupConversions(Operation *fn) {
  LayoutEquality eq;
  return cleanupConversions(fn, eq);
}

namespace {

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

/// Backwards from conversions of buffers: retype the producer.
LogicalResult propagateBufferLayouts(Operation *fn) {
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
/// the conversions' target).
LogicalResult propagateRegisterLayouts(Operation *fn, LayoutEquality &eq) {
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
/// once after the if.
void unifyIfArms(scf::IfOp op) {
  if (op.getNumResults() == 0 || op.getElseRegion().empty())
    return;
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
  }
}

void rewriteLayoutSensitiveOps(Operation *fn) {
  SmallVector<scf::IfOp> ifs;
  fn->walk([&](scf::IfOp op) { ifs.push_back(op); });
  for (scf::IfOp op : ifs)
    unifyIfArms(op);
}

struct RemoveLayoutConversions
    : lk::tileas::impl::TileASRemoveLayoutConversionsBase<
          RemoveLayoutConversions> {
  void runOnOperation() override {
    Operation *fn = getOperation();
    LayoutEquality eq;
    bool propagationFailed = failed(propagateBufferLayouts(fn));
    propagationFailed |= failed(propagateRegisterLayouts(fn, eq));
    (void)cleanupConversions(fn, eq);
    rewriteLayoutSensitiveOps(fn);
    (void)cleanupConversions(fn, eq);
    (void)cleanupConversions(fn, eq);
    if (propagationFailed)
      signalPassFailure();
  }
};

} // namespace
