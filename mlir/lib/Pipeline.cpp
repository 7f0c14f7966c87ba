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

/// The family, in order.
static std::vector<lk::tileas::PassFactory> family() {
  using namespace lk::tileas;
  return {[] { return createTileASAssignLoadStoreLayouts(); },
          [] { return createTileASRemoveLayoutConversions(); },
          [] { return createTileASRemoveBufferAlias(); },
          [] { return createTileASRemoveDeadArgs(); },
          [] { return createTileASResolveAgentBoundary(); },
          [] { return createTileASSlicing(); }};
}

/// The family runs until the function stops changing (FixedPoint.h), so
/// that a second run of the pipeline changes nothing.
void lk::tileas::buildTileASLayoutPipeline(OpPassManager &pm,
                                           bool checkChangeReports) {
  pm.nest<func::FuncOp>().addPass(
      createFixedPointPass(family(), 6, checkChangeReports));
}

void lk::tileas::registerTileASLayoutPipeline() {
  PassPipelineRegistration<>(
      "tileas-layout-pipeline",
      "the TileAS layout and buffer passes in the family's order",
      [](OpPassManager &pm) { buildTileASLayoutPipeline(pm); });
}
