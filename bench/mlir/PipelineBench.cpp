//===- PipelineBench.cpp - tileas-layout-pipeline on 1k..300k ops ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Times tileas-layout-pipeline on functions of about 1k to 300k ops
// (docs/performance.md, "The MLIR pipeline"): the kernel-like functions of
// BenchProgram.h (seed 1), whose blocks load, convert, compute and store
// tiles, stage them through selects of views of smem rings, gather and
// scatter, and nest sliced loops with dead arguments in loops and ifs, so
// that every pass has work. The text is parsed before the timer starts.
// With LK_PIPELINE_TIMING set in the environment, MLIR's pass timing
// report follows each run; with LK_PIPELINE_NO_VERIFY set, nothing is
// verified (neither the ops each pass changed, nor the whole function at
// the end, ChangeLog.h); with LK_PIPELINE_STEPS set, each run of a family
// pass prints a line "step K NAME CPU_MS" (its process CPU time, without
// the verification of its changes, which the driver does after the step),
// in the order the passes ran.
//
// BM_Verify times one run of MLIR's verifier on the same functions: one
// walk of the IR that does the same work per op at every size, so its time
// per op shows what the machine's caches alone do to a walk as the
// function grows; BM_Walk times a bare walk (each op's operand count).
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/BenchProgram.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>

using namespace mlir;
namespace ta = lk::tileas;

namespace {

/// The benchmark's function of about `ops` ops (BenchProgram.h, seed 1),
/// parsed; null (with the reason on stderr) when it cannot be made.
OwningOpRef<ModuleOp> build(MLIRContext &ctx, int64_t ops) {
  lk::Expected<std::string> text = ta::benchProgram(1, ops);
  if (!text) {
    llvm::errs() << text.error().message << "\n";
    return {};
  }
  return parseSourceString<ModuleOp>(*text, &ctx);
}

/// A single-threaded context with the program dialects loaded. Warnings
/// (a value converted to two layout families, docs/design.md §4.1, which
/// the generator draws) are dropped unprinted; errors are printed.
std::unique_ptr<MLIRContext> benchContext() {
  DialectRegistry registry;
  ta::registerProgramDialects(registry);
  auto ctx =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  ctx->getDiagEngine().registerHandler([](Diagnostic &d) {
    return success(d.getSeverity() != DiagnosticSeverity::Error);
  });
  return ctx;
}

/// Process CPU milliseconds.
double cpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

/// LK_PIPELINE_STEPS: one line per run of a family pass (the tileas
/// passes, not the step markers nor the driver), its CPU time.
struct StepTimes : PassInstrumentation {
  void runBeforePass(Pass *pass, Operation *) override { start = cpuMs(); }
  void runAfterPass(Pass *pass, Operation *) override {
    StringRef name = pass->getName();
    if (!name.starts_with("TileAS") || name.starts_with("TileASStep"))
      return;
    std::printf("step %2d %-32s %8.2f\n", ++k, name.str().c_str(),
                cpuMs() - start);
  }
  double start = 0;
  int k = 0;
};

void BM_Pipeline(benchmark::State &state) {
  std::unique_ptr<MLIRContext> owned = benchContext();
  MLIRContext &ctx = *owned;
  int64_t opCount = 0;
  // Declared outside the loop so that freeing the function (as costly as
  // a walk) and the pass manager (with LK_PIPELINE_TIMING, printing its
  // report) happen while the timer is paused, not inside the timed run.
  OwningOpRef<ModuleOp> m;
  std::unique_ptr<PassManager> owner;
  for (auto _ : state) {
    state.PauseTiming();
    owner.reset();
    m = build(ctx, state.range(0));
    if (!m) {
      state.SkipWithError("the function could not be built");
      state.ResumeTiming();
      continue;
    }
    opCount = 0;
    m->walk([&](Operation *) { ++opCount; });
    owner = std::make_unique<PassManager>(&ctx);
    PassManager &pm = *owner;
    const bool noVerify = std::getenv("LK_PIPELINE_NO_VERIFY") != nullptr;
    ta::buildTileASLayoutPipeline(pm, /*checkChangeReports=*/false,
                                  /*verifyChanges=*/!noVerify);
    if (std::getenv("LK_PIPELINE_TIMING"))
      pm.enableTiming();
    if (noVerify)
      pm.enableVerifier(false);
    if (std::getenv("LK_PIPELINE_STEPS"))
      pm.addInstrumentation(std::make_unique<StepTimes>());
    state.ResumeTiming();
    if (failed(pm.run(*m)))
      state.SkipWithError("pipeline failed");
  }
  state.counters["ops"] = static_cast<double>(opCount);
}

/// Times `body(module)` on a freshly built function per iteration
/// (building untimed; the module is freed untimed, as in BM_Pipeline).
template <class Body> void timeOnBuilt(benchmark::State &state, Body body) {
  std::unique_ptr<MLIRContext> owned = benchContext();
  MLIRContext &ctx = *owned;
  OwningOpRef<ModuleOp> m;
  for (auto _ : state) {
    state.PauseTiming();
    m = build(ctx, state.range(0));
    if (!m) {
      state.SkipWithError("the function could not be built");
      state.ResumeTiming();
      continue;
    }
    state.ResumeTiming();
    body(*m);
  }
}

/// One run of MLIR's verifier on the function.
void BM_Verify(benchmark::State &state) {
  timeOnBuilt(state, [&](ModuleOp m) {
    if (failed(verify(m)))
      state.SkipWithError("verify failed");
  });
}

/// One walk of the function that reads each op's operand count: the least
/// a pass that looks at every op does, so its time per op is what a walk
/// of the IR costs at each size.
void BM_Walk(benchmark::State &state) {
  int64_t operands = 0;
  timeOnBuilt(state, [&](ModuleOp m) {
    operands = 0;
    m->walk([&](Operation *op) { operands += op->getNumOperands(); });
    benchmark::DoNotOptimize(operands);
  });
  state.counters["operands"] = static_cast<double>(operands);
}

} // namespace

BENCHMARK(BM_Walk)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(30000)
    ->Arg(100000)
    ->Arg(300000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK(BM_Verify)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(30000)
    ->Arg(100000)
    ->Arg(300000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK(BM_Pipeline)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(30000)
    ->Arg(100000)
    ->Arg(300000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_MAIN();
