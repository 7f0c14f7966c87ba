//===- RemoveBufferAlias.cpp - tileas-remove-buffer-alias -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The canonical-allocation tracer follows a buffer back to the
// alloc_tensor it lives in and the element offset it accumulated:
//
//   alloc_tensor            -> (alloc, 0)
//   view %s {offset = k}    -> trace(%s) + k       (or + the index operand)
//   copy %src, %dst         -> trace(%dst)
//   select %c, %t, %f       -> (alloc, select(%c, off_t, off_f)) when both
//                              arms are in the same allocation
//   scf.for iter-arg i      -> trace(init i) when yield i traces to the
//                              same allocation and offset
//
// Anything else (a function argument, a call, an affine.apply, arms in
// different allocations) is untraceable: the op being rewritten gets the
// warning "Cannot find last written SSA." and keeps its alias
// (docs/design.md §4.1). Offsets are materialised as `index` arithmetic
// right before the op that needs them.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASREMOVEBUFFERALIAS
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

constexpr const char *kCannotFind = "Cannot find last written SSA.";

/// An element offset into an allocation: a constant plus index values.
struct Offset {
  int64_t constant = 0;
  SmallVector<Value> dynamic;
  bool operator==(const Offset &o) const {
    return constant == o.constant && dynamic == o.dynamic;
  }
};

/// Where a buffer lives.
struct Canonical {
  AllocTensorOp alloc;
  Offset offset;
};

/// Builds `offset` as an index value before `b`'s insertion point: the
/// sum of its dynamic parts and its constant (left out when 0).
Value materialize(OpBuilder &b, Location loc, const Offset &offset) {
  Value v;
  if (offset.constant != 0 || offset.dynamic.empty())
    v = arith::ConstantIndexOp::create(b, loc, offset.constant);
  for (Value d : offset.dynamic)
    v = v ? arith::AddIOp::create(b, loc, v, d).getResult() : d;
  return v;
}

class Tracer {
public:
  /// The canonical allocation of `v`; nullopt when untraceable. `builder`
  /// is where the arithmetic of a select of offsets goes.
  std::optional<Canonical> trace(Value v, OpBuilder &builder) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return traceIterArg(arg, builder);
    Operation *def = v.getDefiningOp();
    if (auto alloc = dyn_cast<AllocTensorOp>(def))
      return Canonical{alloc, {}};
    if (auto view = dyn_cast<ViewOp>(def))
      return traceView(view, builder);
    if (auto copy = dyn_cast<CopyOp>(def))
      return trace(copy.getDestination(), builder);
    if (auto select = dyn_cast<SelectOp>(def))
      return traceSelect(select, builder);
    return std::nullopt;
  }

  /// Both arms of `select`, when they share an allocation, with the offset
  /// select(cond, off_t, off_f) (a constant when the two are equal).
  std::optional<Canonical> traceSelect(SelectOp select, OpBuilder &builder) {
    std::optional<Canonical> t = trace(select.getTrueValue(), builder);
    std::optional<Canonical> f = trace(select.getFalseValue(), builder);
    if (!t || !f || t->alloc != f->alloc)
      return std::nullopt;
    if (t->offset == f->offset)
      return t;
    Location loc = select.getLoc();
    Value onTrue = materialize(builder, loc, t->offset);
    Value onFalse = materialize(builder, loc, f->offset);
    Value chosen = arith::SelectOp::create(builder, loc, select.getCondition(),
                                           onTrue, onFalse);
    return Canonical{t->alloc, Offset{0, {chosen}}};
  }

private:
  std::optional<Canonical> traceView(ViewOp view, OpBuilder &builder) {
    std::optional<Canonical> c = trace(view.getSource(), builder);
    if (!c)
      return std::nullopt;
    if (view.getOffset())
      c->offset.constant += static_cast<int64_t>(*view.getOffset());
    else
      c->offset.dynamic.push_back(view.getDynamicOffset());
    return c;
  }

  /// An scf.for iter-arg whose init and yield are the same buffer.
  std::optional<Canonical> traceIterArg(BlockArgument arg, OpBuilder &builder) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0 || !visiting.insert(arg).second)
      return std::nullopt;
    unsigned i = arg.getArgNumber() - 1;
    std::optional<Canonical> init = trace(loop.getInitArgs()[i], builder);
    Value yielded = loop.getBody()->getTerminator()->getOperand(i);
    std::optional<Canonical> next =
        yielded == arg ? init : trace(yielded, builder);
    visiting.erase(arg);
    if (!init || !next || init->alloc != next->alloc ||
        !(init->offset == next->offset))
      return std::nullopt;
    return init;
  }

  llvm::SmallPtrSet<Value, 4> visiting;
};

/// A view of `c` with `type`, before `at`.
Value viewOf(OpBuilder &b, Location loc, const Canonical &c, Type type) {
  Value alloc = AllocTensorOp(c.alloc).getResult();
  if (c.offset.dynamic.empty())
    return ViewOp::create(b, loc, type, alloc, Value(),
                          b.getI64IntegerAttr(c.offset.constant));
  return ViewOp::create(b, loc, type, alloc, materialize(b, loc, c.offset),
                        IntegerAttr());
}

/// select of two buffers of one allocation -> a view of it (through a copy
/// into a fresh buffer when the select's layout differs).
bool rewriteBufferSelect(SelectOp select) {
  if (!isMemory(memKindOf(select.getType())))
    return false;
  OpBuilder b(select);
  Tracer tracer;
  std::optional<Canonical> c = tracer.traceSelect(select, b);
  if (!c) {
    select->emitWarning(kCannotFind);
    return false;
  }
  Type allocType = c->alloc.getType();
  Value replacement;
  if (allocType == select.getType()) {
    replacement = viewOf(b, select.getLoc(), *c, select.getType());
  } else {
    Value view = viewOf(b, select.getLoc(), *c, allocType);
    Value fresh = AllocTensorOp::create(b, select.getLoc(), select.getType());
    replacement = CopyOp::create(b, select.getLoc(), select.getType(), view,
                                 fresh, b.getStringAttr("universal"));
  }
  select.replaceAllUsesWith(replacement);
  select.erase();
  return true;
}

/// Loop-carried buffer: uses of the iter-arg (and of the loop result) refer
/// to the init, which is the canonical buffer at the same offset.
bool rewriteLoopCarried(scf::ForOp loop) {
  bool changed = false;
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    if (!isMemory(memKindOf(arg.getType())))
      continue;
    unsigned i = arg.getArgNumber() - 1;
    Value init = loop.getInitArgs()[i];
    Value yielded = loop.getBody()->getTerminator()->getOperand(i);
    if (yielded == arg && arg.hasOneUse())
      continue; // nothing refers to the alias
    OpBuilder b(loop);
    Tracer tracer;
    std::optional<Canonical> c = tracer.trace(arg, b);
    if (!c) {
      loop->emitWarning(kCannotFind);
      continue;
    }
    arg.replaceUsesWithIf(init, [&](OpOperand &use) {
      return use.getOwner() != loop.getBody()->getTerminator();
    });
    loop.getResult(i).replaceAllUsesWith(init);
    changed = true;
  }
  return changed;
}

struct RemoveBufferAlias
    : lk::tileas::impl::TileASRemoveBufferAliasBase<RemoveBufferAlias> {
  void runOnOperation() override {
    // A loop rewrite can make a select traceable (its arm was the loop's
    // iter-arg) and a select rewrite a loop: sweep until a sweep rewrites
    // nothing (at most four), so that a second run finds nothing to do.
    bool changed = false;
    for (int sweep = 0; sweep < 4 && this->sweep(); ++sweep)
      changed = true;
    // The views and offset constants the rewrites leave dead or duplicated
    // go now (constants deduplicated at the top of the function).
    if (changed)
      (void)lk::tileas::cleanupConversions(getOperation());
  }

  /// Rewrites every select and loop once; true when the IR changed.
  bool sweep() {
    SmallVector<SelectOp> selects;
    SmallVector<scf::ForOp> loops;
    size_t before = 0, after = 0;
    auto count = [&](size_t &n) {
      n = 0;
      getOperation()->walk([&](Operation *op) {
        if (isa<SelectOp>(op))
          ++n;
        else if (auto l = dyn_cast<scf::ForOp>(op))
          for (BlockArgument a : l.getRegionIterArgs())
            n += a.use_empty() ? 0 : 1;
      });
    };
    count(before);
    getOperation()->walk([&](Operation *op) {
      if (auto s = dyn_cast<SelectOp>(op))
        selects.push_back(s);
      else if (auto l = dyn_cast<scf::ForOp>(op))
        loops.push_back(l);
    });
    for (SelectOp s : selects)
      rewriteBufferSelect(s);
    for (scf::ForOp l : loops)
      rewriteLoopCarried(l);
    count(after);
    return after != before;
  }
};

} // namespace
