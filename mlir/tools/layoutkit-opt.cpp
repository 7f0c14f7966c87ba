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
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<lk::tileas::TileASDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                  mlir::affine::AffineDialect>();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  lk::tileas::registerTileASPasses();
  lk::tileas::registerTileASLayoutPipeline();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "LayoutKit tileas optimizer driver\n", registry));
}
