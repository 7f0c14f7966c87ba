//===- layoutkit-opt.cpp - The tileas MLIR driver -------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the tileas dialect, the upstream func / arith / scf /
// affine dialects, every tileas pass and the pipeline `tileas-layout-pipeline`
// (docs/mlir.md).
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  lk::tileas::registerProgramDialects(registry);
  registry.insert<mlir::affine::AffineDialect>();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  lk::tileas::registerTileASPasses();
  lk::tileas::registerTileASLayoutPipeline();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "LayoutKit tileas optimizer driver\n", registry));
}
