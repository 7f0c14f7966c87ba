//===- FixedPoint.cpp - Run a pass list until nothing changes -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/FixedPoint.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// An empty analysis that stays cached on the function while every pass of
/// a round preserves all analyses, i.e. reports that it changed nothing
/// (MLIR's contract: a pass that changes the IR does not preserve all).
struct RoundUnchanged {
  explicit RoundUnchanged(Operation *) {}
};

/// First and last pass of a round: the first caches RoundUnchanged, the
/// last records in `*unchanged` whether it is still cached. (A dynamic
/// pipeline clears the function's analyses when it ends, so the check is
/// made inside the round.) Both change nothing.
struct RoundMarker : PassWrapper<RoundMarker, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RoundMarker)

  RoundMarker(bool *unchanged, bool first)
      : unchanged(unchanged), first(first) {}

  StringRef getArgument() const override {
    return first ? "tileas-round-begin" : "tileas-round-end";
  }
  StringRef getName() const override {
    return first ? "TileASRoundBegin" : "TileASRoundEnd";
  }
  void runOnOperation() override {
    if (first)
      (void)getAnalysis<RoundUnchanged>();
    else
      *unchanged = getCachedAnalysis<RoundUnchanged>().has_value();
    markAllAnalysesPreserved();
  }

  bool *unchanged;
  bool first;
};

struct FixedPointPass
    : PassWrapper<FixedPointPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FixedPointPass)

  FixedPointPass(std::function<void(OpPassManager &)> build, int maxRounds,
                 bool checkReports)
      : build(std::move(build)), maxRounds(maxRounds),
        checkReports(checkReports),
        rounds(func::FuncOp::getOperationName()) {
    buildRounds();
  }
  FixedPointPass(const FixedPointPass &other)
      : PassWrapper(other), build(other.build), maxRounds(other.maxRounds),
        checkReports(other.checkReports),
        rounds(func::FuncOp::getOperationName()) {
    buildRounds();
  }

  void buildRounds() {
    rounds.addPass(std::make_unique<RoundMarker>(&unchanged, true));
    build(rounds);
    rounds.addPass(std::make_unique<RoundMarker>(&unchanged, false));
  }

  StringRef getArgument() const override { return "tileas-fixed-point"; }
  StringRef getDescription() const override {
    return "runs the tileas family until the function stops changing";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    rounds.getDependentDialects(registry);
  }

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    bool anyChange = false;
    for (int round = 0; round < maxRounds; ++round) {
      std::optional<OperationFingerPrint> before;
      if (checkReports)
        before.emplace(fn);
      FailureOr<bool> changed = runRound(fn, round);
      if (failed(changed))
        return signalPassFailure();
      if (checkReports && !*changed && OperationFingerPrint(fn) != *before) {
        fn.emitError("a pass of the round changed the function but "
                     "preserved all analyses (reported no change)");
        return signalPassFailure();
      }
      if (!*changed)
        break;
      anyChange = true;
    }
    if (!anyChange)
      markAllAnalysesPreserved();
  }

  /// Runs the round's passes once; true when one of them changed `fn`.
  FailureOr<bool> runRound(func::FuncOp fn, int round) {
    unchanged = false;
    LogicalResult result = success();
    if (round == 0) {
      result = runPipeline(rounds, fn);
    } else {
      // Later rounds: errors only (a warning was the first round's).
      ScopedDiagnosticHandler quiet(&getContext(), [](Diagnostic &d) {
        return success(d.getSeverity() != DiagnosticSeverity::Error);
      });
      result = runPipeline(rounds, fn);
    }
    if (failed(result))
      return failure();
    return !unchanged;
  }

  std::function<void(OpPassManager &)> build;
  int maxRounds;
  bool checkReports;
  /// Written by the round's last pass.
  bool unchanged = false;
  OpPassManager rounds;
};

} // namespace

std::unique_ptr<Pass>
lk::tileas::createFixedPointPass(std::function<void(OpPassManager &)> build,
                                 int maxRounds, bool checkChangeReports) {
  return std::make_unique<FixedPointPass>(std::move(build), maxRounds,
                                          checkChangeReports);
}
