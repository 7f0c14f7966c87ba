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
//   scf.if result k         -> as select(%cond, then-yield k, else-yield k)
//   scf.for iter-arg/result -> trace(init i) when yield i, traced with
//                              the iter-arg taken as trace(init i), is at
//                              the same allocation and offset
//
// An if's or loop's offset must be computed outside it (it is used after
// it); otherwise, and for anything else (a function argument, a call, a
// buffer made by arith or cast from an affine.apply, arms in different
// allocations), the buffer is untraceable: the op being rewritten gets the
// warning "Cannot find last written SSA." (once) and keeps its alias
// (docs/design.md §4.1). Offsets are materialised as `index` arithmetic
// right before the op that needs them. Sweeps repeat until one rewrites
// nothing; an alias chain of depth N (alias ops between a use and its
// allocation) needs at most N, and the tracer, which follows a whole chain,
// one. `explain=true` reports both numbers as a remark.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/LayoutEquality.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/RegionOps.h"
#include "layoutkit/core/Checked.h"

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
constexpr const char *kOffsetOverflow =
    "alias offsets sum past 2^63-1 (views of views); the alias stays";

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
  /// Alias ops (view, copy, select, iter-arg) between the buffer and the
  /// allocation: the depth of its alias chain.
  unsigned hops = 0;
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
    // A chain of views (and copies) is walked in a loop, not recursively,
    // so its length does not use stack; its offsets are added from the
    // allocation outwards, as the chain computes them.
    SmallVector<Operation *> chain;
    for (Operation *def = v.getDefiningOp();
         isa_and_nonnull<ViewOp, CopyOp>(def); def = v.getDefiningOp()) {
      chain.push_back(def);
      v = isa<ViewOp>(def) ? cast<ViewOp>(def).getSource()
                           : cast<CopyOp>(def).getDestination();
    }
    std::optional<Canonical> c = traceOne(v, builder);
    for (Operation *op : llvm::reverse(chain)) {
      if (!c)
        return std::nullopt;
      auto view = dyn_cast<ViewOp>(op);
      c = view ? offsetBy(std::move(c), view) : deeper(std::move(c));
    }
    return c;
  }

  /// The trace of a value that is not made by a view or a copy.
  std::optional<Canonical> traceOne(Value v, OpBuilder &builder) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto it = assumed.find(arg); it != assumed.end())
        return it->second;
      return traceIterArg(arg, builder);
    }
    Operation *def = v.getDefiningOp();
    if (auto alloc = dyn_cast<AllocTensorOp>(def))
      return Canonical{alloc, {}};
    if (auto select = dyn_cast<SelectOp>(def))
      return traceSelect(select, builder);
    unsigned k = cast<OpResult>(v).getResultNumber();
    if (auto branch = dyn_cast<scf::IfOp>(def))
      return traceIfResult(branch, k, builder);
    if (auto loop = dyn_cast<scf::ForOp>(def))
      return traceIterArg(loop.getRegionIterArgs()[k], builder);
    return std::nullopt;
  }

  /// Both arms of `select`, when they share an allocation, with the offset
  /// select(cond, off_t, off_f) (a constant when the two are equal).
  std::optional<Canonical> traceSelect(SelectOp select, OpBuilder &builder) {
    std::optional<Canonical> t = trace(select.getTrueValue(), builder);
    std::optional<Canonical> f = trace(select.getFalseValue(), builder);
    return choose(select.getCondition(), t, f, select.getLoc(), builder);
  }

private:
  /// `cond ? t : f` when both are in one allocation: the offset is
  /// select(cond, off_t, off_f), or the common offset when they are equal.
  static std::optional<Canonical> choose(Value cond,
                                         const std::optional<Canonical> &t,
                                         const std::optional<Canonical> &f,
                                         Location loc, OpBuilder &builder) {
    if (!t || !f || t->alloc != f->alloc)
      return std::nullopt;
    unsigned hops = std::max(t->hops, f->hops) + 1;
    if (t->offset == f->offset)
      return Canonical{t->alloc, t->offset, hops};
    Value onTrue = materialize(builder, loc, t->offset);
    Value onFalse = materialize(builder, loc, f->offset);
    Value chosen = arith::SelectOp::create(builder, loc, cond, onTrue, onFalse);
    return Canonical{t->alloc, Offset{0, {chosen}}, hops};
  }

  /// Records the ops a builder inserts, and tells `next` (may be null).
  struct Recorder : RewriterBase::ForwardingListener {
    using ForwardingListener::ForwardingListener;
    SmallVector<Operation *> ops;
    void notifyOperationInserted(Operation *op,
                                 OpBuilder::InsertPoint previous) override {
      ops.push_back(op);
      ForwardingListener::notifyOperationInserted(op, previous);
    }
  };

  /// The trace of `v`, defined inside `scope`, as seen from after `scope`
  /// (where `builder` points): nullopt, with the arithmetic it built
  /// erased, when the offset needs a value defined inside `scope` (an
  /// index computed in a branch or the loop body does not reach there).
  std::optional<Canonical> traceFromOutside(Value v, Operation *scope,
                                            OpBuilder &builder) {
    Recorder recorder(builder.getListener());
    OpBuilder inner(builder.getContext(), &recorder);
    inner.setInsertionPoint(builder.getInsertionBlock(),
                            builder.getInsertionPoint());
    std::optional<Canonical> c = trace(v, inner);
    auto outside = [&](Value x) {
      return !scope->isAncestor(x.getParentRegion()->getParentOp());
    };
    bool ok = !c || llvm::all_of(c->offset.dynamic, outside);
    for (Operation *op : recorder.ops)
      ok = ok && llvm::all_of(op->getOperands(), outside);
    if (ok)
      return c;
    for (Operation *op : llvm::reverse(recorder.ops))
      eraseOp(op);
    return std::nullopt;
  }

  /// Result k of an scf.if: both yields' operand k, chosen by the if's
  /// condition like a select.
  std::optional<Canonical> traceIfResult(scf::IfOp branch, unsigned k,
                                         OpBuilder &builder) {
    if (branch.getElseRegion().empty())
      return std::nullopt;
    std::optional<Canonical> t =
        traceFromOutside(branch.thenYield().getOperand(k), branch, builder);
    std::optional<Canonical> f =
        traceFromOutside(branch.elseYield().getOperand(k), branch, builder);
    return choose(branch.getCondition(), t, f, branch.getLoc(), builder);
  }

  static std::optional<Canonical> deeper(std::optional<Canonical> c) {
    if (c)
      ++c->hops;
    return c;
  }

  /// `c` (the trace of the view's source) at the view's offset.
  std::optional<Canonical> offsetBy(std::optional<Canonical> c, ViewOp view) {
    // The constant part is summed with a check: views of views whose
    // offsets add up past 2^63-1 make the buffer untraceable (the alias
    // stays, with its own warning) instead of wrapping to a negative offset.
    if (view.getOffset()) {
      if (lk::addOverflows(c->offset.constant,
                           static_cast<int64_t>(*view.getOffset()),
                           c->offset.constant)) {
        overflowed = true;
        return std::nullopt;
      }
    } else
      c->offset.dynamic.push_back(view.getDynamicOffset());
    return deeper(c);
  }

  /// An scf.for iter-arg whose init and yield are the same buffer. The
  /// yield is traced under the hypothesis that the iter-arg is its init
  /// (a yield that is a view, select or copy of the iter-arg itself goes
  /// through the body back to it): when the yield then traces to the
  /// init's allocation and offset, every iteration sees the init's buffer,
  /// by induction over the iterations.
  std::optional<Canonical> traceIterArg(BlockArgument arg, OpBuilder &builder) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0 || !visiting.insert(arg).second)
      return std::nullopt;
    unsigned i = arg.getArgNumber() - 1;
    std::optional<Canonical> init = trace(loop.getInitArgs()[i], builder);
    Value yielded = loop.getBody()->getTerminator()->getOperand(i);
    std::optional<Canonical> next = init;
    if (init && yielded != arg) {
      assumed[arg] = *init;
      next = traceFromOutside(yielded, loop, builder);
      assumed.erase(arg);
    }
    visiting.erase(arg);
    if (!init || !next || init->alloc != next->alloc ||
        !(init->offset == next->offset))
      return std::nullopt;
    return deeper(init);
  }

  llvm::SmallPtrSet<Value, 4> visiting;
  /// Iter-args taken to be their init while their loop's yield is traced.
  llvm::DenseMap<Value, Canonical> assumed;

public:
  /// Set when a trace failed because constant offsets summed past 2^63-1.
  bool overflowed = false;
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

/// Warns once per op that its alias cannot be traced: kCannotFind, or
/// kOffsetOverflow when the trace stopped at an offset sum past 2^63-1.
struct Warner {
  llvm::SmallPtrSet<Operation *, 8> warned;
  void cannotFind(Operation *op, const Tracer &tracer) {
    if (warned.insert(op).second)
      op->emitWarning(tracer.overflowed ? kOffsetOverflow : kCannotFind);
  }
};

/// select of two buffers of one allocation -> a view of it (through a copy
/// into a fresh buffer when the select's layout is another placement,
/// LayoutEquality.h). Returns the depth of the alias chain rewritten, 0
/// when nothing was.
unsigned rewriteBufferSelect(SelectOp select, Warner &warner,
                             LayoutEquality &eq) {
  if (!isMemory(memKindOf(select.getType())))
    return 0;
  OpBuilder b(select, insertionNoter());
  Tracer tracer;
  std::optional<Canonical> c = tracer.traceSelect(select, b);
  if (!c) {
    warner.cannotFind(select, tracer);
    return 0;
  }
  Type allocType = c->alloc.getType();
  Value replacement;
  if (eq.equal(allocType, select.getType())) {
    replacement = viewOf(b, select.getLoc(), *c, select.getType());
  } else {
    Value view = viewOf(b, select.getLoc(), *c, allocType);
    Value fresh = AllocTensorOp::create(b, select.getLoc(), select.getType());
    replacement = CopyOp::create(b, select.getLoc(), select.getType(), view,
                                 fresh, b.getStringAttr("universal"));
  }
  noteUsers(select.getResult()); // the uses that change
  select.replaceAllUsesWith(replacement);
  eraseOp(select);
  return c->hops;
}

/// Loop-carried buffer: uses of the iter-arg (and of the loop result) refer
/// to the init, which is the canonical buffer at the same offset. Returns
/// the depth of the deepest alias chain rewritten, 0 when nothing was.
unsigned rewriteLoopCarried(scf::ForOp loop, Warner &warner) {
  unsigned deepest = 0;
  Operation *yield = loop.getBody()->getTerminator();
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    if (!isMemory(memKindOf(arg.getType())))
      continue;
    unsigned i = arg.getArgNumber() - 1;
    Value init = loop.getInitArgs()[i];
    bool onlyYielded = llvm::all_of(
        arg.getUsers(), [&](Operation *user) { return user == yield; });
    if (onlyYielded && loop.getResult(i).use_empty())
      continue; // nothing refers to the alias
    OpBuilder b(loop, insertionNoter());
    Tracer tracer;
    std::optional<Canonical> c = tracer.trace(arg, b);
    if (!c) {
      warner.cannotFind(loop, tracer);
      continue;
    }
    noteUsers(arg); // the uses that change (the yield's too: harmless)
    noteUsers(loop.getResult(i));
    arg.replaceUsesWithIf(
        init, [&](OpOperand &use) { return use.getOwner() != yield; });
    loop.getResult(i).replaceAllUsesWith(init);
    deepest = std::max(deepest, c->hops);
  }
  return deepest;
}

struct RemoveBufferAlias
    : lk::tileas::impl::TileASRemoveBufferAliasBase<RemoveBufferAlias> {
  using Base::Base;
  /// Of the current function: sweeps that rewrote, deepest chain.
  unsigned sweeps = 0, deepest = 0;

  void runOnOperation() override {
    sweeps = deepest = 0;
    // A loop rewrite can make a select traceable (its arm was the loop's
    // iter-arg) and a select rewrite a loop: sweep until a sweep rewrites
    // nothing, so that a second run finds nothing to do. Every sweep that
    // rewrites removes at least the last hop of each chain it meets, so an
    // alias chain of depth N takes at most N sweeps (the tracer follows a
    // whole chain at once, so usually one); the bound is the number of
    // alias ops, counted by the first sweep's walk.
    Warner warner;
    bool changed = false;
    size_t bound = 1;
    for (size_t sweep = 0; sweep < bound && this->sweep(warner, bound);
         ++sweep) {
      changed = true;
      ++sweeps;
    }
    numSweeps += sweeps;
    // The views and offset constants the rewrites leave dead or duplicated
    // go now (constants deduplicated at the top of the function).
    if (changed)
      (void)lk::tileas::cleanupConversions(getOperation());
    if (explain)
      getOperation()->emitRemark()
          << "buffer aliases: " << sweeps << " sweeps rewrote, deepest alias "
          << "chain " << deepest;
    // Unchanged: no verifier run, and the pipeline's fixed point sees it.
    // Changed inside the pipeline: the driver verifies the noted ops.
    if (!changed || logChange())
      markAllAnalysesPreserved();
  }

  /// The function's selects (IR order) and loops (post-order): found for
  /// the first sweep, then kept (a sweep erases the selects it rewrites,
  /// and creates neither selects nor loops; it erases no loop).
  SmallVector<SelectOp> selects;
  SmallVector<scf::ForOp> loops;

  /// Rewrites every select and loop once; true when an alias was rewritten.
  /// The first sweep (sweeps == 0) sets `bound` to 1 + the alias ops and
  /// takes them from the function's RegionOps (RegionOps.h); a later one
  /// takes the lists the sweep before it left.
  bool sweep(Warner &warner, size_t &bound) {
    if (sweeps == 0) {
      selects.clear();
      loops.clear();
      std::optional<lk::tileas::RegionOps> local;
      const lk::tileas::RegionOps &found =
          lk::tileas::regionOpsOf(getOperation(), local);
      for (Operation *op : found.selects)
        selects.push_back(cast<SelectOp>(op));
      for (Operation *op : found.postOrder)
        if (auto l = dyn_cast<scf::ForOp>(op))
          loops.push_back(l);
      bound = 1 + selects.size() + loops.size();
    }
    unsigned rewritten = 0;
    auto note = [&](unsigned depth) {
      rewritten += depth != 0;
      deepest = std::max(deepest, depth);
    };
    LayoutEquality eq;
    // A select rewritten (depth != 0) was erased: it leaves the list.
    llvm::erase_if(selects, [&](SelectOp s) {
      unsigned depth = rewriteBufferSelect(s, warner, eq);
      note(depth);
      return depth != 0;
    });
    for (scf::ForOp l : loops)
      note(rewriteLoopCarried(l, warner));
    numAliases += rewritten;
    numDeepest.updateMax(deepest);
    return rewritten != 0;
  }
};

} // namespace
