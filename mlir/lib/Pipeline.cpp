//===- Pipeline.cpp - tileas-layout-pipeline ------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void lk::tileas::buildTileASLayoutPipeline(OpPassManager &pm) {
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(createTileASAssignLoadStoreLayouts());
  fn.addPass(createTileASRemoveLayoutConversions());
  fn.addPass(createTileASRemoveBufferAlias());
  fn.addPass(createTileASRemoveDeadArgs());
}

void lk::tileas::registerTileASLayoutPipeline() {
  PassPipelineRegistration<>(
      "tileas-layout-pipeline",
      "the TileAS layout and buffer passes in the family's order",
      buildTileASLayoutPipeline);
}
