//===- PipelineTime.cpp - The MLIR pipeline timed without a framework -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// BM_Verify and BM_Pipeline of PipelineBench.cpp as a plain program (no
/// Google Benchmark), so that it links statically and runs on a machine
/// without MLIR (docs/performance.md, "The MLIR pipeline"): for the
/// generator's seed-1 functions of 1k, 10k and 100k ops, REPS times each,
/// the process CPU and wall milliseconds of one verifier walk and of the
/// whole `tileas-layout-pipeline`. Parsing happens before the clocks start.
/// LK_PIPELINE_NO_VERIFY=1 turns verification off (the pipeline's checks
/// of each pass's changes and the pass manager's verifier).
///
///   lk_mlir_pipeline_time [REPS]     (default 3)
///
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/BenchProgram.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

/// Milliseconds on clock `c`.
double now(clockid_t c) {
  timespec t;
  clock_gettime(c, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char **argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 3;
  if (reps < 1 || reps > 100) {
    std::fprintf(stderr,
                 "usage: lk_mlir_pipeline_time [REPS], 1 <= REPS <= 100\n");
    return 2;
  }
  const bool noVerify = std::getenv("LK_PIPELINE_NO_VERIFY") != nullptr;
  mlir::DialectRegistry registry;
  lk::tileas::registerProgramDialects(registry);
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  // Warnings (a value converted to two layout families, docs/design.md
  // §4.1, which the generator draws) are dropped unprinted.
  ctx.getDiagEngine().registerHandler([](mlir::Diagnostic &d) {
    return mlir::success(d.getSeverity() != mlir::DiagnosticSeverity::Error);
  });
  for (int64_t ops : {1000, 10000, 100000}) {
    const std::string text = *lk::tileas::benchProgram(1, ops);
    for (int r = 0; r < reps; ++r) {
      mlir::OwningOpRef<mlir::ModuleOp> m =
          mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
      const double c0 = now(CLOCK_PROCESS_CPUTIME_ID),
                   w0 = now(CLOCK_MONOTONIC);
      if (mlir::failed(mlir::verify(*m)))
        return 1;
      const double c1 = now(CLOCK_PROCESS_CPUTIME_ID),
                   w1 = now(CLOCK_MONOTONIC);
      mlir::PassManager pm(&ctx);
      lk::tileas::buildTileASLayoutPipeline(pm, /*checkChangeReports=*/false,
                                            /*verifyChanges=*/!noVerify);
      if (noVerify)
        pm.enableVerifier(false);
      const double c2 = now(CLOCK_PROCESS_CPUTIME_ID),
                   w2 = now(CLOCK_MONOTONIC);
      if (mlir::failed(pm.run(*m)))
        return 2;
      const double c3 = now(CLOCK_PROCESS_CPUTIME_ID),
                   w3 = now(CLOCK_MONOTONIC);
      std::printf("ops %6lld rep %d verify cpu %8.2f wall %8.2f | pipeline "
                  "cpu %8.2f wall %8.2f\n",
                  (long long)ops, r, c1 - c0, w1 - w0, c3 - c2, w3 - w2);
      std::fflush(stdout);
    }
  }
  return 0;
}
