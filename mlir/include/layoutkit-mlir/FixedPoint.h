//===- FixedPoint.h - Run a pass list until nothing changes ------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A function pass that runs a family of passes in order, round after
/// round, until n passes in a row (n the family's size) changed nothing,
/// at most `maxRounds` rounds. Each of those n passes then ran on the
/// function as it is and left it so; the passes being functions of the
/// IR, a further round would change nothing either. Example: with the
/// family a, b, c, the rounds a* b* c*, a* b c, a stop after that last a
/// (* marks a change): b and c need not run again on the function they
/// left unchanged. A pass marked idempotent (a second run on its own
/// output changes nothing) is not run again when the n - 1 passes after
/// its last change changed nothing: the function is still its output, so
/// the rounds a* b* c*, a* b c stop before that last a when a is
/// idempotent. A pass reports that it changed nothing by preserving all
/// analyses (MLIR's contract; it also spares the verifier run after it),
/// and, with `verifyChanges`, that it changed the function by telling the
/// change log (see Verification below); each pass runs in a dynamic
/// pipeline between two marker passes, TileASStepBegin and TileASStepEnd,
/// that read the report from the analysis manager. The passes must keep
/// that contract;
/// `checkChangeReports` checks it with the function's OperationFingerPrint
/// around each pass (an error names the pass), and checks each idempotent
/// pass that changed the function by running it again at once (an error
/// names it when that second run changes the function), as the randomized
/// test does. Without it no pass costs a hash of the IR.
/// `tileas-layout-pipeline` runs the family this way, because a later pass
/// opens work for an earlier one (a removed iter-arg makes two conversions a
/// chain, a conversion removed frees a store's layout choice); the randomized
/// test finds a fixed point within four rounds, so a second run of the pipeline
/// changes nothing (docs/mlir.md, "The randomized test").
///
/// Verification (`verifyChanges`, on by default): the family's passes note
/// the ops they change in the driver's ChangeLog (ChangeLog.h); a pass that
/// changed the function says so to the log and preserves all analyses, so
/// that the pass manager does not verify the whole function after it, and
/// the driver verifies the noted ops instead (an error names the pass),
/// and the whole function once after the last change, before it returns;
/// it then preserves all analyses itself, so that the pass manager does
/// not verify that function again. With `checkChangeReports` the driver
/// also verifies the whole function after each changing pass, so that a
/// change a pass failed to note is reported with the pass's name. Without
/// `verifyChanges` the passes report as MLIR's contract says, and the pass
/// manager's verifier, when on, checks the whole function after each pass
/// that changed it. (Each step's pipeline clears the function's analyses
/// when it ends, so no analysis of the function is cached to go stale.)
///
/// The driver keeps the function's RegionOps (RegionOps.h) for its passes
/// from the first that asks for them until one changes the function.
///
/// Rounds after the first report only errors: warnings and remarks are the
/// first round's.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_MLIR_FIXEDPOINT_H
#define LAYOUTKIT_MLIR_FIXEDPOINT_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <memory>
#include <vector>

namespace lk::tileas {

/// Makes one pass of the family (a func.func pass).
using PassFactory = std::function<std::unique_ptr<mlir::Pass>()>;

/// A pass of the family: its factory, and whether a second run of the
/// pass on its own output changes nothing (see above).
struct FamilyPass {
  PassFactory make;
  bool idempotent = false;
};

/// The pass over `family`, in order.
std::unique_ptr<mlir::Pass>
createFixedPointPass(std::vector<FamilyPass> family, int maxRounds,
                     bool checkChangeReports = false,
                     bool verifyChanges = true);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_FIXEDPOINT_H
