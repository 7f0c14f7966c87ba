//===- PipelineBench.cpp - tileas-layout-pipeline on 1k..300k ops ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Times tileas-layout-pipeline on functions of about 1k to 300k ops built
// with the OpBuilder (docs/performance.md, "The MLIR pipeline"). The
// function repeats a block of 11 ops: a conversion to a register encoding,
// an elementwise add in it, a loop of 4 iterations carrying sliceCount = 2
// (an add in its body), a conversion back, a buffer, a view of it at an
// offset, a select of the two, a store into the select and a load of the
// buffer, so every pass has work. With LK_PIPELINE_TIMING set in the
// environment, MLIR's pass timing report follows each run; with
// LK_PIPELINE_NO_VERIFY set, the verifier does not run after each pass.
//
// BM_Verify times one run of MLIR's verifier on the same functions: one
// walk of the IR that does the same work per op at every size, so its time
// per op shows what the machine's caches alone do to a walk as the
// function grows.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>

using namespace mlir;
namespace ta = lk::tileas;

namespace {

/// scf.for 0 to 4 step 1 carrying `init` through an add, sliceCount = 2.
Value slicedLoop(OpBuilder &b, Location loc, Value init, Value c0, Value c1,
                 Value c4) {
  auto loop = scf::ForOp::create(
      b, loc, c0, c4, c1, ValueRange{init},
      [](OpBuilder &nb, Location l, Value, ValueRange args) {
        Value s = arith::AddFOp::create(nb, l, args[0], args[0]);
        scf::YieldOp::create(nb, l, s);
      });
  loop->setAttr("sliceCount", b.getI32IntegerAttr(2));
  return loop.getResult(0);
}

/// A module with one function of about `ops` ops (11 per block).
OwningOpRef<ModuleOp> build(MLIRContext &ctx, int64_t ops) {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> m = ModuleOp::create(loc);
  Type f32 = b.getF32Type();
  auto reg = RankedTensorType::get({64, 64}, f32);
  auto blocked = RankedTensorType::get(
      {64, 64}, f32,
      ta::EncodingAttr::get(&ctx, ta::MemKind::Register,
                            ta::LayoutFamily::Blocked, ta::LayoutAttr(), "",
                            std::nullopt));
  auto smem = RankedTensorType::get(
      {64, 64}, f32,
      ta::EncodingAttr::get(&ctx, ta::MemKind::Smem, ta::LayoutFamily::Shared,
                            ta::LayoutAttr(), "", std::nullopt));
  b.setInsertionPointToEnd(m->getBody());
  auto fnType = b.getFunctionType({b.getI1Type(), reg}, {reg});
  auto fn = func::FuncOp::create(b, loc, "f", fnType);
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  Value flag = entry->getArgument(0), x = entry->getArgument(1);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value c4 = arith::ConstantIndexOp::create(b, loc, 4);
  for (int64_t i = 0; i < ops / 11; ++i) {
    Value c = ta::ConvertLayoutOp::create(b, loc, blocked, x);
    Value s = arith::AddFOp::create(b, loc, c, c);
    Value l = slicedLoop(b, loc, s, c0, c1, c4);
    Value back = ta::ConvertLayoutOp::create(b, loc, reg, l);
    Value buf = ta::AllocTensorOp::create(b, loc, smem);
    Value view = ta::ViewOp::create(b, loc, smem, buf, Value(),
                                    b.getI64IntegerAttr(4096));
    Value sel = ta::SelectOp::create(b, loc, smem, flag, buf, view);
    ta::TiledStoreOp::create(b, loc, back, sel, ValueRange());
    x = ta::TiledLoadOp::create(b, loc, reg, buf, ValueRange());
  }
  func::ReturnOp::create(b, loc, x);
  return m;
}

/// A single-threaded context with the program dialects loaded.
std::unique_ptr<MLIRContext> benchContext() {
  DialectRegistry registry;
  ta::registerProgramDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry,
                                           MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  return ctx;
}

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
    opCount = 0;
    m->walk([&](Operation *) { ++opCount; });
    owner = std::make_unique<PassManager>(&ctx);
    PassManager &pm = *owner;
    ta::buildTileASLayoutPipeline(pm);
    if (std::getenv("LK_PIPELINE_TIMING"))
      pm.enableTiming();
    if (std::getenv("LK_PIPELINE_NO_VERIFY"))
      pm.enableVerifier(false);
    state.ResumeTiming();
    if (failed(pm.run(*m)))
      state.SkipWithError("pipeline failed");
  }
  state.counters["ops"] = static_cast<double>(opCount);
}

/// One run of MLIR's verifier on the function (building is not timed).
void BM_Verify(benchmark::State &state) {
  std::unique_ptr<MLIRContext> owned = benchContext();
  MLIRContext &ctx = *owned;
  OwningOpRef<ModuleOp> m; // freed untimed, as in BM_Pipeline
  for (auto _ : state) {
    state.PauseTiming();
    m = build(ctx, state.range(0));
    state.ResumeTiming();
    if (failed(verify(*m)))
      state.SkipWithError("verify failed");
  }
}

} // namespace

BENCHMARK(BM_Verify)->Arg(1000)->Arg(10000)->Arg(30000)->Arg(100000)
    ->Arg(300000)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK(BM_Pipeline)->Arg(1000)->Arg(10000)->Arg(30000)->Arg(100000)
    ->Arg(300000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
