//===- FixedPoint.cpp - Run a pass list until nothing changes -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/FixedPoint.h"
#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/RegionOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using lk::tileas::FamilyPass;

namespace {

/// An empty analysis that stays cached on the function while a pass
/// preserves all analyses, i.e. reports that it changed nothing (MLIR's
/// contract: a pass that changes the IR does not preserve all).
struct StepUnchanged {
  explicit StepUnchanged(Operation *) {}
};

/// First and last pass of a step: the first caches StepUnchanged, the
/// last records in `*unchanged` whether it is still cached. (A dynamic
/// pipeline clears the function's analyses when it ends, so the check is
/// made inside the step.) Both change nothing.
struct StepMarker : PassWrapper<StepMarker, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StepMarker)

  StepMarker(bool *unchanged, bool first)
      : unchanged(unchanged), first(first) {}

  StringRef getArgument() const override {
    return first ? "tileas-step-begin" : "tileas-step-end";
  }
  StringRef getName() const override {
    return first ? "TileASStepBegin" : "TileASStepEnd";
  }
  void runOnOperation() override {
    if (first)
      (void)getAnalysis<StepUnchanged>();
    else
      *unchanged = getCachedAnalysis<StepUnchanged>().has_value();
    // A pass that logged its change preserved "all" analyses only to skip
    // the whole-function verifier (ChangeLog.h): none cached before the
    // change may outlive it.
    if (!first && lk::tileas::activeChangeLog() &&
        lk::tileas::activeChangeLog()->changed)
      getAnalysisManager().clear();
    markAllAnalysesPreserved();
  }

  bool *unchanged;
  bool first;
};

struct FixedPointPass
    : PassWrapper<FixedPointPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FixedPointPass)

  FixedPointPass(std::vector<FamilyPass> family, int maxRounds,
                 bool checkReports, bool verifyChanges)
      : family(std::move(family)), maxRounds(maxRounds),
        checkReports(checkReports), verifyChanges(verifyChanges) {
    buildSteps();
  }
  FixedPointPass(const FixedPointPass &other)
      : PassWrapper(other), family(other.family), maxRounds(other.maxRounds),
        checkReports(other.checkReports), verifyChanges(other.verifyChanges) {
    buildSteps();
  }

  /// One pipeline per pass of the family: the pass between two markers.
  void buildSteps() {
    for (const FamilyPass &member : family) {
      OpPassManager step(func::FuncOp::getOperationName());
      step.addPass(std::make_unique<StepMarker>(&unchanged, true));
      step.addPass(member.make());
      step.addPass(std::make_unique<StepMarker>(&unchanged, false));
      steps.push_back(std::move(step));
    }
  }

  StringRef getArgument() const override { return "tileas-fixed-point"; }
  StringRef getDescription() const override {
    return "runs the tileas family until the function stops changing";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    for (const OpPassManager &step : steps)
      step.getDependentDialects(registry);
  }

  /// The family's passes in order, round after round, until `n` passes in
  /// a row (n the family's size) changed nothing: each of them then ran
  /// on the function as it is now and left it so, and as every pass is a
  /// function of the IR, another run of any of them changes nothing too.
  /// Pass k % n is skipped, and the loop ends, when the n - 1 passes before
  /// it changed nothing after it changed the function (quiet == n - 1 and
  /// some pass changed it) and it is idempotent: the function is its own
  /// output. At most maxRounds x n passes run.
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    const size_t n = steps.size();
    size_t quiet = 0; // passes in a row that changed nothing
    bool anyChange = false;
    regionOps.reset(); // the lists of the function run before, if any
    for (size_t k = 0; k < size_t(maxRounds) * n && quiet < n; ++k) {
      if (anyChange && quiet + 1 == n && family[k % n].idempotent)
        break;
      FailureOr<bool> changed = runStep(fn, k % n, /*firstRound=*/k < n);
      if (failed(changed) || (*changed && failed(checkIdempotent(fn, k % n))))
        return signalPassFailure();
      quiet = *changed ? 0 : quiet + 1;
      anyChange |= *changed;
    }
    regionOps.reset();
    // The noted ops were verified after each pass; the whole function is
    // verified once, after the last change (FixedPoint.h).
    if (verifyChanges && anyChange && failed(verify(fn)))
      return signalPassFailure();
    // Unchanged, or verified after its last change: no verifier run after
    // this pass. A changed function keeps no cached analysis (they would
    // describe the IR before the pipeline), so preserving "all" of them
    // preserves none.
    if (anyChange)
      getAnalysisManager().clear();
    markAllAnalysesPreserved();
  }

  /// With checkReports, pass `i`, idempotent and having just changed `fn`,
  /// runs again and must change nothing.
  LogicalResult checkIdempotent(func::FuncOp fn, size_t i) {
    if (!checkReports || !family[i].idempotent)
      return success();
    FailureOr<bool> again = runStep(fn, i, /*firstRound=*/false);
    if (failed(again))
      return failure();
    if (*again) {
      Pass &pass = *std::next(steps[i].getPasses().begin());
      return fn.emitError() << "the pass " << pass.getName()
                            << " is marked idempotent but a second run "
                               "changed the function";
    }
    return success();
  }

  /// Runs pass `i` of the family once; true when it changed `fn`.
  FailureOr<bool> runStep(func::FuncOp fn, size_t i, bool firstRound) {
    std::optional<OperationFingerPrint> before;
    if (checkReports)
      before.emplace(fn);
    unchanged = false;
    log.clear();
    LogicalResult result = runLogged(fn, i, firstRound);
    // A pass that noted its change preserved all analyses (ChangeLog.h).
    bool changed = !unchanged || log.changed;
    // Noted changes kept the RegionOps up to date (RegionOps.h).
    if (failed(result) || (changed && !verifyChanges))
      regionOps.reset();
    if (failed(result))
      return failure();
    Pass &pass = *std::next(steps[i].getPasses().begin());
    if (checkReports && !changed && OperationFingerPrint(fn) != *before) {
      fn.emitError() << "the pass " << pass.getName()
                     << " changed the function but preserved all analyses "
                        "(reported no change)";
      return failure();
    }
    if (changed && failed(verifyNoted(fn, pass)))
      return failure();
    return changed;
  }

  /// Runs pass `i`'s step, noting its changes in `log` when the driver
  /// verifies them.
  LogicalResult runLogged(func::FuncOp fn, size_t i, bool firstRound) {
    std::optional<lk::tileas::ActiveChangeLog> logging;
    if (verifyChanges)
      logging.emplace(&log);
    // The passes share the function's RegionOps (RegionOps.h).
    lk::tileas::RegionOpsCache shared(fn, &regionOps);
    if (firstRound)
      return runPipeline(steps[i], fn);
    // Later rounds: errors only (a warning was the first round's).
    ScopedDiagnosticHandler quiet(&getContext(), [](Diagnostic &d) {
      return success(d.getSeverity() != DiagnosticSeverity::Error);
    });
    return runPipeline(steps[i], fn);
  }

  /// After `pass` changed `fn`: the ops it noted verify (ChangeLog.h);
  /// with checkReports the whole function does too, so that a change the
  /// pass did not note shows here, named, and not only at the end.
  LogicalResult verifyNoted(func::FuncOp fn, Pass &pass) {
    if (!verifyChanges)
      return success();
    if (failed(log.verify()))
      return fn.emitError()
             << "the function is invalid after the pass " << pass.getName();
    if (checkReports && failed(verify(fn)))
      return fn.emitError()
             << "the function is invalid after the pass " << pass.getName()
             << ", outside the ops it noted as changed";
    return success();
  }

  std::vector<FamilyPass> family;
  int maxRounds;
  bool checkReports;
  /// The passes note their changes, verified after each (ChangeLog.h).
  bool verifyChanges;
  lk::tileas::ChangeLog log;
  /// Written by a step's last pass.
  bool unchanged = false;
  /// The function's RegionOps, kept while the passes note their changes,
  /// else while no pass changed it (RegionOps.h).
  std::optional<lk::tileas::RegionOps> regionOps;
  std::vector<OpPassManager> steps;
};

} // namespace

std::unique_ptr<Pass>
lk::tileas::createFixedPointPass(std::vector<FamilyPass> family, int maxRounds,
                                 bool checkChangeReports, bool verifyChanges) {
  return std::make_unique<FixedPointPass>(std::move(family), maxRounds,
                                          checkChangeReports, verifyChanges);
}
