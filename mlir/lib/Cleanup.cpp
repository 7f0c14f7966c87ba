//===- Cleanup.cpp - The conversion cleanup shared by the passes ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// MLIR's greedy rewrite driver, top-down, with two patterns on
// convert_layout: an identity (two types of one placement, LayoutEquality,
// whose users take the source) goes, and a chain of two conversions
// within one memory kind becomes one. The driver erases the ops left dead
// and deduplicates constants, hoisting them to the top of the function (the
// first one seen stays); folding of other ops and region simplification
// are off, so the cleanup changes conversions, dead ops and constants
// only. Top-down, a conversion is visited after the conversion it
// converts, which has already merged with its own chain, so a chain of n
// conversions takes O(n) rewrites. The rewrite bound (ten per op and
// operand of the function) turns a fault into a failure instead of a
// hang.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/LayoutEquality.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

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

/// The size of `fn` (ops and operands, for the step bound) and whether
/// the driver's constant pass will change it. That pass (enableConstantCSE)
/// runs before the patterns and is not counted in the driver's `changed`:
/// it keeps a constant that is unique (dialect, value, type) and in the
/// leading run of constants of the function's entry block, moves any other
/// unique constant to the top and replaces a duplicate by the first one.
/// Example: `%c = arith.constant 1 : index` in a loop body moves.
std::pair<int64_t, bool> sizeAndConstantMoves(Operation *fn) {
  int64_t size = 0;
  bool moves = false, leading = true;
  Block *entry = &fn->getRegion(0).front();
  llvm::DenseSet<std::tuple<Dialect *, Attribute, Type>> seen;
  fn->walk<WalkOrder::PreOrder>([&](Operation *op) {
    size += 1 + op->getNumOperands();
    if (op == fn)
      return;
    Attribute value;
    bool constant = op->getNumResults() == 1 &&
                    matchPattern(op, m_Constant(&value));
    bool inEntry = op->getBlock() == entry;
    if (inEntry && !constant)
      leading = false;
    if (constant && (!(inEntry && leading) ||
                     !seen.insert({op->getDialect(), value,
                                   op->getResult(0).getType()})
                          .second))
      moves = true;
  });
  return {size, moves};
}

} // namespace

LogicalResult lk::tileas::cleanupConversions(Operation *fn,
                                             LayoutEquality &eq,
                                             bool *changed) {
  MLIRContext *ctx = fn->getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<FoldIdentityConversion>(ctx, eq);
  patterns.add<MergeConversionChain>(ctx);
  // The step bound: ten rewrites per op and operand of the function.
  auto [size, constantsMove] = sizeAndConstantMoves(fn);
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .enableFolding(false)
      .enableConstantCSE(true)
      .setMaxIterations(GreedyRewriteConfig::kNoLimit)
      .setMaxNumRewrites(10 * size + 64);
  bool rewrote = false;
  LogicalResult result =
      applyPatternsGreedily(fn, std::move(patterns), config, &rewrote);
  if (changed && (rewrote || constantsMove))
    *changed = true;
  return result;
}

LogicalResult lk::tileas::cleanupConversions(Operation *fn, bool *changed) {
  LayoutEquality eq;
  return cleanupConversions(fn, eq, changed);
}
