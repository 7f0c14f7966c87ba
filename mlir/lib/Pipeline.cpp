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

/// One round of the family, in order.
static void addFamily(OpPassManager &fn) {
  using namespace lk::tileas;
  fn.addPass(createTileASAssignLoadStoreLayouts());
  fn.addPass(createTileASRemoveLayoutConversions());
  fn.addPass(createTileASRemoveBufferAlias());
  fn.addPass(createTileASRemoveDeadArgs());
  fn.addPass(createTileASResolveAgentBoundary());
  fn.addPass(createTileASSlicing());
}

/// The family runs until the function stops changing (FixedPoint.h), so
/// that a second run of the pipeline changes nothing.
void lk::tileas::buildTileASLayoutPipeline(OpPassManager &pm,
                                           bool checkChangeReports) {
  pm.nest<func::FuncOp>().addPass(
      createFixedPointPass(addFamily, 6, checkChangeReports));
}

void lk::tileas::registerTileASLayoutPipeline() {
  PassPipelineRegistration<>(
      "tileas-layout-pipeline",
      "the TileAS layout and buffer passes in the family's order",
      [](OpPassManager &pm) { buildTileASLayoutPipeline(pm); });
}
