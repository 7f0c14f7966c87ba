//===- Slicing.cpp - tileas-slicing ---------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// An scf.for carrying `sliceCount = N` becomes N consecutive loops over
// equal sub-ranges (docs/mlir.md, "The pass tileas-slicing"):
//
//   for %i = lb to ub step s {sliceCount = N}     (trip count T, N | T)
//   ->  for %i0 = lb         to lb + c   step s iter_args(inits)
//       for %i1 = lb + c     to lb + 2c  step s iter_args(results of %i0)
//       ...
//       for %iN = lb+(N-1)c  to ub       step s iter_args(results of %iN-1)
//
// with c = (T / N) * s. Each slice is a clone of the body whose uses of
// the induction variable refer to the slice's own (an operand indexed by
// it reads the slice's part of its source), and slice k + 1 starts from
// slice k's results (docs/design.md §4.1), so the slices run the same
// iterations in the same order as the loop. `insert_slice` offsets are
// static: they do not depend on the iteration and are cloned unchanged.
// A loop without the attribute is left alone.
//
// The pass plans every sliced loop of the function first and rewrites only
// when every plan holds, so a failure changes nothing. A plan fails with
// one of six fixed messages (docs/design.md §6.7; byte for byte, on the
// loop; emitOpError prefixes "'scf.for' op ") and a note saying what was
// found where:
//
//   "The `sliceCount` need to be a `IntegerAttr`"   not an integer, not
//       positive, or it does not divide the loop's iteration space (the
//       step, or the upper bound minus the lower bound, is not a constant;
//       the trip count is not a multiple; the slices exceed kMaxSlicedOps)
//   "unsupported op to be a lower bound in slicing pass "   the lower bound
//       is not a constant plus multiples of enclosing induction variables
//       (through arith.addi / subi / muli and affine.apply)
//   "unsupported op in Slicing pass"   an op of the body outside tileas,
//       arith and scf other than affine.apply (a func.call, an
//       unregistered op)
//   "unsupported atom of copyOp in slicing pass"   a `universal` copy of
//       the body with an operand that no layout placed (no encoding)
//   "fail to get an initial forOperand in slicing pass"   an init is a
//       block argument of a region the pass does not traverse (scf.while)
//   "is not expected inside sliced part in SlicingPass"   (on the inner
//       loop) a loop carrying sliceCount inside a sliced loop: the output
//       stays within count x input ops
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/RegionOps.h"
#include "layoutkit/core/Checked.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASSLICING
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

constexpr StringLiteral kSliceCount = "sliceCount";
constexpr const char *kNotIntegerAttr =
    "The `sliceCount` need to be a `IntegerAttr`";
constexpr const char *kUnsupportedOp = "unsupported op in Slicing pass";
constexpr const char *kLowerBound =
    "unsupported op to be a lower bound in slicing pass ";
constexpr const char *kInitOperand =
    "fail to get an initial forOperand in slicing pass";
constexpr const char *kNotExpected =
    "is not expected inside sliced part in SlicingPass";
constexpr const char *kCopyAtom = "unsupported atom of copyOp in slicing pass";

/// The dialects whose ops a slice may clone.
constexpr StringLiteral kClonableDialects[] = {"tileas", "arith", "scf"};
/// At most this many ops in all the slices of one loop (count x body).
constexpr int64_t kMaxSlicedOps = int64_t(1) << 20;
/// At most this many values visited when decoding one bound.
constexpr int kMaxBoundTerms = 256;

/// sum(coefficient * induction variable) + constant.
struct Affine {
  int64_t constant = 0;
  llvm::MapVector<Value, int64_t> terms;
};

/// Decodes index arithmetic over constants and induction variables of
/// enclosing scf.for loops: arith.constant, addi, subi, muli by a
/// constant, and affine.apply of a map whose result is a sum of constant
/// multiples of its operands (decoded in turn) plus a constant. Examples:
/// %lb = arith.muli %j, %c64 -> 64 * %j;
/// %lb = affine.apply affine_map<(d0) -> (d0 * 64 + 16)>(%j) -> 64 * %j + 16.
class BoundDecoder {
public:
  FailureOr<Affine> decode(Value v) {
    if (++visited > kMaxBoundTerms)
      return stop(v);
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return Affine{*c, {}};
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg != loop.getInductionVar())
        return stop(v);
      Affine a;
      a.terms[v] = 1;
      return a;
    }
    Operation *op = v.getDefiningOp();
    if (isa<arith::AddIOp, arith::SubIOp>(op))
      return sum(op, isa<arith::SubIOp>(op) ? -1 : 1);
    if (isa<arith::MulIOp>(op))
      return product(op);
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op))
      return applyExpr(apply, apply.getAffineMap().getResult(0));
    return stop(v);
  }
  /// The first value that did not decode.
  Value failedAt;

private:
  int visited = 0;
  FailureOr<Affine> stop(Value v) {
    if (!failedAt)
      failedAt = v;
    return failure();
  }
  FailureOr<Affine> sum(Operation *op, int64_t sign) {
    FailureOr<Affine> a = decode(op->getOperand(0));
    if (failed(a))
      return failure();
    FailureOr<Affine> b = decode(op->getOperand(1));
    if (failed(b) || !axpy(*a, sign, *b))
      return stop(op->getResult(0));
    return a;
  }
  /// An expression of an affine.apply: constants, its dims and symbols
  /// (decoded in turn), sums, and products with a constant side; floordiv,
  /// ceildiv and mod stop.
  FailureOr<Affine> applyExpr(affine::AffineApplyOp apply, AffineExpr e) {
    if (++visited > kMaxBoundTerms)
      return stop(apply.getResult());
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return Affine{c.getValue(), {}};
    ValueRange operands = apply.getMapOperands();
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return decode(operands[d.getPosition()]);
    if (auto sym = dyn_cast<AffineSymbolExpr>(e))
      return decode(
          operands[apply.getAffineMap().getNumDims() + sym.getPosition()]);
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin || (e.getKind() != AffineExprKind::Add &&
                 e.getKind() != AffineExprKind::Mul))
      return stop(apply.getResult());
    FailureOr<Affine> a = applyExpr(apply, bin.getLHS());
    if (failed(a))
      return failure();
    FailureOr<Affine> b = applyExpr(apply, bin.getRHS());
    if (failed(b))
      return failure();
    if (e.getKind() == AffineExprKind::Add) {
      if (!axpy(*a, 1, *b))
        return stop(apply.getResult());
      return a;
    }
    return scaled(*a, *b, apply.getResult());
  }
  /// a * b when one side is a constant.
  FailureOr<Affine> scaled(const Affine &a, const Affine &b, Value at) {
    if (!a.terms.empty() && !b.terms.empty())
      return stop(at);
    const Affine &var = a.terms.empty() ? b : a;
    int64_t k = a.terms.empty() ? a.constant : b.constant;
    Affine out;
    if (!axpy(out, k, var))
      return stop(at);
    return out;
  }
  FailureOr<Affine> product(Operation *op) {
    FailureOr<Affine> a = decode(op->getOperand(0));
    if (failed(a))
      return failure();
    FailureOr<Affine> b = decode(op->getOperand(1));
    if (failed(b))
      return failure();
    return scaled(*a, *b, op->getResult(0));
  }

public:
  /// acc += k * x; false on overflow.
  static bool axpy(Affine &acc, int64_t k, const Affine &x) {
    int64_t t;
    if (lk::mulOverflows(k, x.constant, t) ||
        lk::addOverflows(acc.constant, t, acc.constant))
      return false;
    for (auto [v, c] : x.terms) {
      if (lk::mulOverflows(k, c, t) || lk::addOverflows(acc.terms[v], t, t))
        return false;
      acc.terms[v] = t;
    }
    return true;
  }
};

/// What the rewrite needs for one loop.
struct SlicePlan {
  scf::ForOp loop;
  int64_t count = 0;
  int64_t chunk = 0; ///< extent of one slice: (trip count / count) * step
};

/// A note describing `v` at its definition.
void noteValue(InFlightDiagnostic &d, Value v, StringRef role) {
  if (Operation *def = v.getDefiningOp()) {
    d.attachNote(def->getLoc())
        << role << " is computed by '" << def->getName() << "' here";
    return;
  }
  auto arg = cast<BlockArgument>(v);
  d.attachNote(arg.getLoc())
      << role << " reaches block argument #" << arg.getArgNumber() << " of '"
      << arg.getOwner()->getParentOp()->getName()
      << "', not an induction variable of an enclosing scf.for";
}

/// The count of `attr`, or an error on `loop`.
FailureOr<int64_t> sliceCountOf(scf::ForOp loop, Attribute attr) {
  auto i = dyn_cast<IntegerAttr>(attr);
  if (!i || i.getType().isInteger(1)) {
    InFlightDiagnostic d = loop.emitOpError(kNotIntegerAttr);
    d.attachNote() << "found " << attr
                   << "; expected an integer, e.g. {sliceCount = 4 : i32}";
    return failure();
  }
  bool isUnsigned = i.getType().isUnsignedInteger();
  const APInt &v = i.getValue();
  if ((isUnsigned ? v.getActiveBits() > 62 : v.getSignificantBits() > 63) ||
      (isUnsigned ? v.isZero() : !v.isStrictlyPositive())) {
    InFlightDiagnostic d = loop.emitOpError(kNotIntegerAttr);
    d.attachNote() << "sliceCount must be a positive count, got " << attr;
    return failure();
  }
  return isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue();
}

/// An error on `loop` with `message` and a note `why`.
LogicalResult fail(scf::ForOp loop, const char *message, const Twine &why) {
  InFlightDiagnostic d = loop.emitOpError(message);
  d.attachNote() << why;
  return failure();
}

/// The trip count of `loop` (its lower bound decoded as `lb`), or an error.
FailureOr<int64_t> tripCount(scf::ForOp loop, const Affine &lb) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return fail(loop, kNotIntegerAttr,
                "the step is not a positive constant, so the iteration space "
                "cannot be divided");
  BoundDecoder dec;
  FailureOr<Affine> ub = dec.decode(loop.getUpperBound());
  Affine extent;
  bool constant = succeeded(ub) && BoundDecoder::axpy(extent, 1, *ub) &&
                  BoundDecoder::axpy(extent, -1, lb);
  for (auto [v, c] : extent.terms)
    constant = constant && c == 0;
  if (!constant)
    return fail(loop, kNotIntegerAttr,
                "the upper bound minus the lower bound is not a constant, so "
                "the iteration space cannot be divided");
  if (loop.getUnsignedCmp() && (lb.constant < 0 || !lb.terms.empty()))
    return fail(loop, kNotIntegerAttr,
                "an unsigned loop needs a non-negative constant lower bound");
  int64_t e = extent.constant;
  return e <= 0 ? 0 : e / *step + (e % *step != 0);
}

/// The first reason the body of `loop` cannot be sliced, or success.
LogicalResult checkBody(scf::ForOp loop, int64_t count) {
  int64_t ops = 0;
  WalkResult r = loop.getBody()->walk([&](Operation *op) {
    ++ops;
    StringRef ns = op->getName().getDialectNamespace();
    if (!llvm::is_contained(kClonableDialects, ns) &&
        !isa<affine::AffineApplyOp>(op)) {
      InFlightDiagnostic d = loop.emitOpError(kUnsupportedOp);
      d.attachNote(op->getLoc())
          << "'" << op->getName()
          << "' cannot be cloned per slice: only tileas, arith and scf ops "
             "and affine.apply can";
      return WalkResult::interrupt();
    }
    if (isa<scf::ForOp>(op) && op->hasAttr(kSliceCount)) {
      InFlightDiagnostic d = op->emitOpError(kNotExpected);
      d.attachNote(loop.getLoc())
          << "inside this sliced loop: a sliced loop does not nest in another";
      return WalkResult::interrupt();
    }
    auto copy = dyn_cast<CopyOp>(op);
    if (copy && copy.getAtom() == "universal" &&
        (!encodingOf(copy.getSource().getType()) ||
         !encodingOf(copy.getDestination().getType()))) {
      InFlightDiagnostic d = loop.emitOpError(kCopyAtom);
      d.attachNote(op->getLoc())
          << "copy atom 'universal' between " << copy.getSource().getType()
          << " and " << copy.getDestination().getType()
          << " is abstract: no layout placed the unencoded operand";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  int64_t total;
  if (lk::mulOverflows(ops, count, total) || total > kMaxSlicedOps)
    return fail(loop, kNotIntegerAttr,
                Twine(count) + " slices of " + Twine(ops) +
                    " ops exceed the limit of " + Twine(kMaxSlicedOps) +
                    " sliced ops per loop");
  return success();
}

/// Fails when an init of `loop` is loop-carried from a region the pass
/// does not traverse (a region of an op other than func, scf.for, scf.if
/// and the tileas region ops).
LogicalResult checkInits(scf::ForOp loop) {
  for (auto [k, init] : llvm::enumerate(loop.getInitArgs())) {
    auto arg = dyn_cast<BlockArgument>(init);
    Operation *owner = arg ? arg.getOwner()->getParentOp() : nullptr;
    if (!owner ||
        isa<FunctionOpInterface, scf::ForOp, PipelineExecuteOp>(owner))
      continue;
    InFlightDiagnostic d = loop.emitOpError(kInitOperand);
    d.attachNote(arg.getLoc())
        << "iter_arg #" << k << " starts from block argument #"
        << arg.getArgNumber() << " of '" << owner->getName()
        << "', carried by a region the pass does not traverse";
    return failure();
  }
  return success();
}

/// The plan of `loop` (carrying sliceCount `attr`), or the error.
FailureOr<SlicePlan> planLoop(scf::ForOp loop, Attribute attr) {
  FailureOr<int64_t> count = sliceCountOf(loop, attr);
  if (failed(count))
    return failure();
  BoundDecoder dec;
  FailureOr<Affine> lb = dec.decode(loop.getLowerBound());
  if (failed(lb)) {
    InFlightDiagnostic d = loop.emitOpError(kLowerBound);
    noteValue(d, dec.failedAt, "the lower bound");
    return failure();
  }
  FailureOr<int64_t> trips = tripCount(loop, *lb);
  if (failed(trips))
    return failure();
  if (*trips % *count != 0)
    return fail(loop, kNotIntegerAttr,
                "sliceCount " + Twine(*count) +
                    " does not divide the trip count " + Twine(*trips) +
                    "; the slices would not be equal");
  if (failed(checkBody(loop, *count)) || failed(checkInits(loop)))
    return failure();
  int64_t step = *getConstantIntValue(loop.getStep());
  return SlicePlan{loop, *count, (*trips / *count) * step};
}

/// lb + k * chunk, as a value of the induction variable's type.
Value boundAt(OpBuilder &b, const SlicePlan &p, int64_t k) {
  scf::ForOp loop = p.loop;
  Type t = loop.getInductionVar().getType();
  Location loc = loop.getLoc();
  int64_t off = k * p.chunk; // within [0, ub - lb]: no overflow
  if (std::optional<int64_t> c = getConstantIntValue(loop.getLowerBound()))
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, *c + off));
  Value k0 = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, off));
  return arith::AddIOp::create(b, loc, loop.getLowerBound(), k0);
}

/// Replaces the loop of `p` by its slices.
void rewrite(const SlicePlan &p) {
  scf::ForOp loop = p.loop;
  OpBuilder b(loop, insertionNoter());
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute a : loop->getDiscardableAttrs())
    if (a.getName() != kSliceCount)
      attrs.push_back(a);
  SmallVector<Value> carried(loop.getInitArgs());
  Value lb = loop.getLowerBound();
  for (int64_t k = 0; k < p.count; ++k) {
    Value ub = k + 1 == p.count ? loop.getUpperBound() : boundAt(b, p, k + 1);
    auto slice = scf::ForOp::create(
        b, loop.getLoc(), lb, ub, loop.getStep(), carried,
        [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
          IRMapping map;
          map.map(loop.getInductionVar(), iv);
          map.map(loop.getRegionIterArgs(), args);
          for (Operation &op : *loop.getBody())
            nb.clone(op, map);
        },
        loop.getUnsignedCmp());
    slice->setDiscardableAttrs(attrs);
    carried.assign(slice.getResults().begin(), slice.getResults().end());
    lb = ub;
  }
  for (Value r : loop.getResults())
    noteUsers(r); // the uses that change
  loop.replaceAllUsesWith(carried);
  eraseOp(loop);
}

/// True when an ancestor of `loop` carries sliceCount (the ancestor's plan
/// reports it).
bool insideSlicedLoop(scf::ForOp loop) {
  for (Operation *p = loop->getParentOp(); p; p = p->getParentOp())
    if (isa<scf::ForOp>(p) && p->hasAttr(kSliceCount))
      return true;
  return false;
}

struct Slicing : lk::tileas::impl::TileASSlicingBase<Slicing> {
  void runOnOperation() override {
    SmallVector<SlicePlan> plans;
    bool ok = true;
    // The loops in pre-order, from the function's RegionOps (RegionOps.h).
    std::optional<RegionOps> local;
    for (Operation *op : regionOpsOf(getOperation(), local).preOrder) {
      auto loop = dyn_cast<scf::ForOp>(op);
      Attribute attr = loop ? loop->getAttr(kSliceCount) : Attribute();
      if (!attr || insideSlicedLoop(loop))
        continue;
      FailureOr<SlicePlan> plan = planLoop(loop, attr);
      if (succeeded(plan))
        plans.push_back(*plan);
      ok = ok && succeeded(plan);
    }
    if (!ok)
      return signalPassFailure();
    for (const SlicePlan &p : plans)
      rewrite(p);
    // The split points are constants: hoisted and deduplicated now, so
    // that the pipeline's next round finds nothing to change.
    if (!plans.empty() && failed(cleanupConversions(getOperation())))
      return signalPassFailure();
    // No sliced loop: no verifier run, and the pipeline's fixed point sees
    // it.
    // Changed inside the pipeline: the driver verifies the noted ops.
    if (plans.empty() || logChange())
      markAllAnalysesPreserved();
  }
};

} // namespace
