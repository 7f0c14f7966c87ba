//===- FixedPoint.cpp - Run a pass list until nothing changes -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/FixedPoint.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;

namespace {

struct FixedPointPass
    : PassWrapper<FixedPointPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FixedPointPass)

  FixedPointPass(std::function<void(OpPassManager &)> build, int maxRounds)
      : build(std::move(build)), maxRounds(maxRounds),
        rounds(func::FuncOp::getOperationName()) {
    this->build(rounds);
  }
  FixedPointPass(const FixedPointPass &other)
      : PassWrapper(other), build(other.build), maxRounds(other.maxRounds),
        rounds(func::FuncOp::getOperationName()) {
    build(rounds);
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
    for (int round = 0; round < maxRounds; ++round) {
      OperationFingerPrint before(fn);
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
        return signalPassFailure();
      if (OperationFingerPrint(fn) == before)
        return;
    }
  }

  std::function<void(OpPassManager &)> build;
  int maxRounds;
  OpPassManager rounds;
};

} // namespace

std::unique_ptr<Pass>
lk::tileas::createFixedPointPass(std::function<void(OpPassManager &)> build,
                                 int maxRounds) {
  return std::make_unique<FixedPointPass>(std::move(build), maxRounds);
}
