//===- Pipeline.cpp - tileas-layout-pipeline ------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/FixedPoint.h"
#include "layoutkit-mlir/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// The family, in order, each marked idempotent (FixedPoint.h): a second
/// run on its own output changes nothing.
static std::vector<lk::tileas::FamilyPass> family() {
  using namespace lk::tileas;
  return {{[] { return createTileASAssignLoadStoreLayouts(); }, true},
          {[] { return createTileASRemoveLayoutConversions(); }, false},
          {[] { return createTileASRemoveBufferAlias(); }, true},
          {[] { return createTileASRemoveDeadArgs(); }, true},
          {[] { return createTileASResolveAgentBoundary(); }, true},
          {[] { return createTileASSlicing(); }, true}};
}

/// The family runs until the function stops changing (FixedPoint.h), so
/// that a second run of the pipeline changes nothing.
void lk::tileas::buildTileASLayoutPipeline(OpPassManager &pm,
                                           bool checkChangeReports,
                                           bool verifyChanges) {
  pm.nest<func::FuncOp>().addPass(
      createFixedPointPass(family(), 6, checkChangeReports, verifyChanges));
}

void lk::tileas::registerTileASLayoutPipeline() {
  PassPipelineRegistration<>(
      "tileas-layout-pipeline",
      "the TileAS layout and buffer passes in the family's order",
      [](OpPassManager &pm) { buildTileASLayoutPipeline(pm); });
}
