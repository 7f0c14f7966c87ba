//===- Cleanup.cpp - The conversion cleanup shared by the passes ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// MLIR's greedy rewrite driver, top-down, with two patterns on
// convert_layout: an identity (two types of one placement, LayoutEquality,
// whose users take the source) goes, and a chain of two conversions
// within one memory kind becomes one. The driver erases the ops left dead;
// constants are deduplicated and hoisted to the top of the function (the
// first one seen stays) by the rule of MLIR's constant folder; folding of
// other ops and region simplification are off, so the cleanup changes
// conversions, dead ops and constants only. Top-down, a conversion is
// visited after the conversion it converts, which has already merged with
// its own chain, so a chain of n conversions takes O(n) rewrites. The
// rewrite bound (thirty per op of the function) turns a fault
// into a failure instead of a hang.
//
// Cost: one walk of the function (size, constants, the conversions a
// pattern may rewrite, dead ops;
// none when the caller hands over the CleanupSurvey of its own walk; inside
// the pipeline it also makes the function's stale RegionOps) and
// then the driver on the ops it found, not on every op: a function of
// 100k ops is walked once per cleanup instead of five times (the driver's
// whole-function mode walks it, scans every op and walks it again for
// unreachable blocks, and does all of it twice when something changed).
// The result is the one the whole-function driver gives, locations
// included; a constant whose folder scope lies below the function (in an
// op isolated from above) makes the cleanup use that mode.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/LayoutEquality.h"
#include "layoutkit-mlir/RegionOps.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FoldInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <optional>
#include <vector>

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
      : OpRewritePattern(ctx, /*benefit=*/2), eq(&eq) {}
  LogicalResult matchAndRewrite(ConvertLayoutOp cvt,
                                PatternRewriter &rewriter) const override {
    Type from = cvt.getSource().getType();
    if (from != cvt.getType() &&
        (!eq->equal(from, cvt.getType()) || !usersAccept(cvt)))
      return failure();
    rewriter.replaceOp(cvt, cvt.getSource());
    return success();
  }
  LayoutEquality *eq;
};

/// convert(convert(x : A -> B) : B -> C) is convert(x : A -> C) when A, B
/// and C share a memory kind; the first conversion goes when nothing else
/// uses it (the driver erases it as dead).
struct MergeConversionChain : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp cvt,
                                PatternRewriter &rewriter) const override {
    auto inner = cvt.getSource().getDefiningOp<ConvertLayoutOp>();
    if (!inner)
      return failure();
    Type a = inner.getSource().getType(), b = inner.getType(),
         c = cvt.getType();
    if (!sameMemKind(a, b) || !sameMemKind(b, c))
      return failure();
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(cvt, c, inner.getSource());
    return success();
  }
};

/// The key under which the constant pass unifies constants.
using ConstantKey = std::tuple<Dialect *, Attribute, Type>;

/// True when a constant in `op`'s block would be placed by MLIR's constant
/// pass (OperationFolder) in a region other than the body of `fn`: an
/// enclosing op below `fn` may be isolated from above or its dialect may
/// ask for constants in its regions.
bool foldScopeBelow(Operation *op, Operation *fn) {
  for (Operation *p = op->getParentOp(); p && p != fn; p = p->getParentOp())
    if (p->mightHaveTrait<OpTrait::IsIsolatedFromAbove>() ||
        p->getDialect() == nullptr ||
        p->getDialect()->getRegisteredInterface<DialectFoldInterface>())
      return true;
  return false;
}

/// The constant pass of MLIR's greedy driver (OperationFolder, as its
/// whole-function run applies it) on `constants`, in pre-order, all of
/// them scoped to the body of `fn`: the first constant of each key stays
/// where it is if it leads the entry block or follows a constant kept
/// before it, and otherwise moves to the top of the entry block; a later
/// one of the same key is replaced by the first. A constant moved from
/// another block, and one that took a duplicate's uses, gets an unknown
/// location.
void placeConstants(Operation *fn,
                    ArrayRef<std::pair<Operation *, Attribute>> constants,
                    RewriterBase::Listener *listener) {
  Block &entry = fn->getRegion(0).front();
  Location unknown = UnknownLoc::get(fn->getContext());
  llvm::DenseMap<ConstantKey, Operation *> first;
  llvm::SmallPtrSet<Operation *, 16> kept;
  for (auto [op, value] : constants) {
    auto [it, fresh] = first.try_emplace(
        ConstantKey{op->getDialect(), value, op->getResult(0).getType()}, op);
    if (!fresh) {
      noteUsers(op->getResult(0)); // the uses that change
      op->getResult(0).replaceAllUsesWith(it->second->getResult(0));
      if (listener)
        listener->notifyOperationErased(op);
      eraseOp(op);
      it->second->setLoc(unknown);
      continue;
    }
    if (op->getBlock() != &entry) {
      op->moveBefore(&entry.front());
      op->setLoc(unknown);
      noteChanged(op);
    } else if (&entry.front() != op && !kept.contains(op->getPrevNode())) {
      op->moveBefore(&entry.front());
      noteChanged(op);
    }
    // Its users need no check: the front of the entry block dominates
    // every op of the function.
    kept.insert(op);
  }
}

} // namespace

/// The constant pass keeps a constant that is unique (dialect, value,
/// type) and in the leading run of constants of the function's entry
/// block, moves any other unique constant to the top and replaces a
/// duplicate by the first one. Example: `%c = arith.constant 1 : index` in
/// a loop body moves.
lk::tileas::CleanupSurvey::CleanupSurvey(Operation *fn, LayoutEquality &eq)
    : fn(fn),
      entry(fn->getRegion(0).empty() ? nullptr : &fn->getRegion(0).front()),
      eq(&eq) {}

/// Whether a pattern may rewrite `cvt` as the function is now: its types
/// are one placement (FoldIdentityConversion; whether its users accept
/// the source is left to the driver), or its source is a conversion
/// (MergeConversionChain; the memory kinds are left to the driver, since
/// the inner conversion's source may change before `cvt` is reached).
/// Both depend only on `cvt`'s operand, its type and the type of the
/// operand, which no rewrite changes without modifying `cvt` (the driver
/// then visits it again), so a conversion for which this is false now is
/// left as it is by a driver that starts from it.
bool lk::tileas::CleanupSurvey::mayRewrite(Operation *conversion) {
  auto cvt = cast<ConvertLayoutOp>(conversion);
  Value source = cvt.getSource();
  Type from = source.getType();
  return from == cvt.getType() || source.getDefiningOp<ConvertLayoutOp>() ||
         eq->equal(from, cvt.getType());
}

/// The constant's value when `op` is a constant of one result.
static Attribute constantValue(Operation *op) {
  Attribute value;
  if (op->getNumResults() == 1 && matchPattern(op, m_Constant(&value)))
    return value;
  return {};
}

/// One op of the walk: its size; a constant, to the constants; a
/// conversion a pattern may rewrite (mayRewrite) or a trivially dead op,
/// to the work list.
void lk::tileas::CleanupSurvey::visit(Operation *op) {
  ++size;
  if (op == fn)
    return;
  Attribute value = constantValue(op);
  if (!value) {
    if ((isa<ConvertLayoutOp>(op) && mayRewrite(op)) ||
        (op->use_empty() && isOpTriviallyDead(op)))
      work.push_back(op);
    return;
  }
  constants.push_back({op, value});
  if (op->getBlock() != entry)
    nestedScope |= foldScopeBelow(op, fn);
}

/// The lists in pre-order (a backward walk found them in reverse), and
/// whether a constant moves: one that is not in the leading run of
/// constants of the entry block (in pre-order those come first, the run's
/// length `k` of them), or one whose (dialect, value, type) came before.
void lk::tileas::CleanupSurvey::finish() {
  if (backward) {
    std::reverse(constants.begin(), constants.end());
    std::reverse(work.begin(), work.end());
    backward = false;
  }
  size_t k = 0;
  if (!entry) // a declaration: no body, no constants
    return;
  for (Operation &op : *entry) {
    if (k == constants.size() || constants[k].first != &op)
      break;
    ++k;
  }
  llvm::DenseSet<std::tuple<Dialect *, Attribute, Type>> seen;
  for (size_t i = 0; i < constants.size() && !constantsMove; ++i) {
    auto [op, value] = constants[i];
    constantsMove = i >= k || !seen.insert({op->getDialect(), value,
                                            op->getResult(0).getType()})
                                   .second;
  }
}

namespace {

/// The reverse of MLIR's forward walk with stages (which has no backward
/// form): regions, blocks and ops last to first, `visit(op, first, last)`
/// once for an op without regions (first and last both set), else before
/// its regions (first) and after them (last). In reverse, the `last`
/// visits are a forward pre-order walk and the `first` visits a forward
/// post-order walk. Recursion: one level per nesting level, as in MLIR's
/// walks, whose depth the inputs bound (InputBounds.h).
template <class Visit> void walkBackward(Operation *op, Visit &visit) {
  if (op->getNumRegions() == 0)
    return visit(op, true, true);
  visit(op, true, false);
  for (Region &region : llvm::reverse(op->getRegions()))
    for (Block &block : llvm::reverse(region))
      for (Operation &nested : llvm::reverse(block))
        walkBackward(&nested, visit);
  visit(op, false, true);
}

} // namespace

LogicalResult lk::tileas::cleanupConversions(Operation *fn, LayoutEquality &eq,
                                             bool *changed,
                                             RewriterBase::Listener *listener,
                                             CleanupSurvey *given) {
  MLIRContext *ctx = fn->getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<FoldIdentityConversion>(ctx, eq);
  patterns.add<MergeConversionChain>(ctx);
  // The step bound: thirty rewrites per op of the function.
  std::optional<CleanupSurvey> local;
  if (!given) {
    // The walk goes backward: the pass before the cleanup usually ended
    // near the function's end, whose ops are then still in cache, and
    // the driver after it starts at the function's top, which the walk
    // touched last.
    local.emplace(fn, eq);
    local->backward = true;
    // Inside the pipeline the walk also makes the function's RegionOps
    // when they are stale (RegionOps.h), before anything changes.
    RegionOps *regionOps = regionOpsToFill(fn);
    auto visit = [&](Operation *op, bool first, bool last) {
      if (regionOps)
        regionOps->visitBackward(op, first, last);
      if (last)
        local->visit(op);
    };
    walkBackward(fn, visit);
    if (regionOps)
      regionOps->finishBackward();
  }
  CleanupSurvey &found = given ? *given : *local;
  found.finish();
  // Inside the pipeline, what the rewrites do is noted (ChangeLog.h).
  ChangeLogListener noting(listener);
  if (activeChangeLog())
    listener = &noting;
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .enableFolding(false)
      .setMaxIterations(GreedyRewriteConfig::kNoLimit)
      .setMaxNumRewrites(30 * found.size + 64)
      .setListener(listener);
  bool rewrote = false;
  if (found.nestedScope) {
    // A constant scoped below the function: MLIR's whole-function driver,
    // whose constant pass knows every scope.
    config.enableConstantCSE(true);
    LogicalResult result =
        applyPatternsGreedily(fn, std::move(patterns), config, &rewrote);
    if (changed && (rewrote || found.constantsMove))
      *changed = true;
    return result;
  }
  if (found.constantsMove)
    placeConstants(fn, found.constants, listener);
  // Only the surveyed ops and those a rewrite touches (the users of a
  // replaced conversion, the operands of an erased op, new conversions)
  // can change, so the driver starts from those alone instead of every op
  // of the function, and scans once. Its worklist pops from the back:
  // reversed, the conversions come top-down.
  LogicalResult result = success();
  if (!found.work.empty()) {
    std::reverse(found.work.begin(), found.work.end());
    config.enableConstantCSE(false).setScope(&fn->getRegion(0));
    result = applyOpPatternsGreedily(found.work, std::move(patterns), config,
                                     &rewrote);
  }
  if (changed && (rewrote || found.constantsMove))
    *changed = true;
  return result;
}

LogicalResult lk::tileas::cleanupConversions(Operation *fn, bool *changed) {
  LayoutEquality eq;
  return cleanupConversions(fn, eq, changed);
}
