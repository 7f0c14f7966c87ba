//===- FixedPoint.h - Run a pass list until nothing changes ------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A function pass that runs a nested pass list again and again until a
/// round changes nothing, at most `maxRounds` rounds. A pass reports that
/// it changed nothing by preserving all analyses (MLIR's contract; it also
/// spares the verifier run after it): the round is unchanged when every
/// one of its passes did. The rounds' passes must keep that contract;
/// `checkChangeReports` checks it with the function's OperationFingerPrint
/// around each round (an error names the broken promise), as the
/// randomized test does. Without it a round costs no hashing of the IR. `tileas-layout-pipeline`
/// runs the family this way, because a later pass opens work for an earlier
/// one (a removed iter-arg makes two conversions a chain, a conversion
/// removed frees a store's layout choice); the randomized test finds a
/// fixed point within four rounds, so a second run of the pipeline changes
/// nothing (docs/mlir.md, "The randomized test").
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

namespace lk::tileas {

/// The pass; `build` adds the round's passes to a func.func pass manager.
std::unique_ptr<mlir::Pass>
createFixedPointPass(std::function<void(mlir::OpPassManager &)> build,
                     int maxRounds, bool checkChangeReports = false);

} // namespace lk::tileas

#endif // LAYOUTKIT_MLIR_FIXEDPOINT_H
