//===- RandomPipelineTest.cpp - The pipeline on random functions ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// For each seed (LK_RANDOM_SEEDS, default 2000; LK_RANDOM_FIRST_SEED,
// default 1): generate a function (RandomProgram.h), verify it, interpret
// it on random inputs, run tileas-layout-pipeline, verify, interpret again
// and compare the results and the global buffers element by element, run
// the pipeline a second time and compare the printed IR, which must parse
// back (types built by the passes pass the type verifiers). A failure prints
// the seed and the function; the test is deterministic. Three hand-checked
// functions come first: buffers through views and selects, a while loop
// and agent handoff, and a loop before and after tileas-slicing. It also
// counts the seeds that drew each shape the passes handle (agent handoffs,
// scf.while, dead scf.if results, selects of two views, affine.apply lower
// bounds of sliced loops, loops yielding a view or select of their carried
// buffer, a gather and a scatter of one buffer, a tiled_atomic) and fails
// when one
// of them was never drawn.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Interpreter.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/RandomProgram.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;
using lk::tileas::InterpValue;

namespace {

std::string print(ModuleOp m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m.print(os);
  return s;
}

/// Inputs of seed `seed`: flag, n, two global buffers, a register tile.
/// Values are small integers so sums and products stay exact.
std::vector<InterpValue> inputs(uint64_t seed) {
  uint64_t s = seed * 2654435761u + 7;
  auto next = [&] {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return static_cast<double>(static_cast<int64_t>(s % 5) - 2);
  };
  std::vector<InterpValue> in;
  in.push_back(InterpValue::make({}, {static_cast<double>(seed & 1)}));
  in.push_back(InterpValue::make({}, {2}));
  for (int k = 0; k < 3; ++k) {
    std::vector<double> v(64 * 64);
    for (double &x : v)
      x = next();
    in.push_back(InterpValue::make({64, 64}, v));
  }
  return in;
}

/// The returned tiles and the two global buffers after the call.
LogicalResult run(ModuleOp m, uint64_t seed,
                  std::vector<std::vector<double>> &out, std::string &err) {
  auto fn = m.lookupSymbol<func::FuncOp>("f");
  std::vector<InterpValue> in = inputs(seed), res;
  if (failed(lk::tileas::interpret(fn, in, res, err)))
    return failure();
  out.clear();
  for (const InterpValue &r : res)
    out.push_back(r.elements());
  out.push_back(in[2].elements());
  out.push_back(in[3].elements());
  return success();
}

LogicalResult pipeline(ModuleOp m) {
  PassManager pm(m.getContext());
  lk::tileas::buildTileASLayoutPipeline(pm, /*checkChangeReports=*/true);
  return pm.run(m);
}

/// How many seeds exercised each shape the passes handle (the generator's
/// coverage, printed at the end and required to be non-zero).
struct Coverage {
  int agentHandoffs = 0;  // a register tile handed over into an agent
  int whiles = 0;         // an scf.while with dead and carried arguments
  int deadIfResults = 0;  // an scf.if with a result nothing uses
  int selectsOfViews = 0; // a select of two views of one allocation
  int affineBounds = 0;   // a sliced loop whose lower bound is affine.apply
  int bodyAliases = 0;    // a loop yielding a view (or select) of its buffer
  int scatters = 0;       // a gather and a scatter of one buffer
  int atomics = 0;        // a tiled_atomic into a buffer
};

bool contains(const std::string &text, const char *what) {
  return text.find(what) != std::string::npos;
}

/// One seed; returns an empty string or what went wrong.
std::string check(MLIRContext &ctx, uint64_t seed, std::string &diag,
                  Coverage &cov) {
  std::string text = lk::tileas::randomProgram(seed, 12);
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
  if (!m)
    return "generated text does not parse\n" + text;
  if (failed(verify(*m)))
    return "generated function does not verify\n" + text;
  std::vector<std::vector<double>> before, after;
  std::string err;
  if (failed(run(*m, seed, before, err)))
    return "interpreter: " + err + "\n" + text;
  if (failed(pipeline(*m)))
    return "pipeline failed\n" + text;
  if (failed(verify(*m)))
    return "pipeline output does not verify\n" + print(*m);
  if (failed(run(*m, seed, after, err)))
    return "interpreter after the pipeline: " + err + "\n" + print(*m);
  if (before != after)
    return "results differ after the pipeline\n" + text + "--- after:\n" +
           print(*m);
  cov.agentHandoffs += contains(print(*m), "tileas.consume_one");
  cov.whiles += contains(text, "scf.while");
  cov.deadIfResults += contains(text, ":2 = scf.if");
  cov.selectsOfViews += contains(text, "{offset = 12288}");
  cov.affineBounds += contains(text, "affine.apply");
  cov.bodyAliases += contains(text, "{offset = 0}");
  cov.scatters += contains(text, "tileas.scatter");
  cov.atomics += contains(text, "tileas.tiled_atomic");
  if (std::getenv("LK_RANDOM_FIXPOINT")) {
    std::string prev = print(*m);
    for (int k = 1; k <= 6; ++k) {
      (void)pipeline(*m);
      std::string cur = print(*m);
      if (cur == prev) {
        std::printf("fixpoint after %d extra runs\n", k - 1);
        break;
      }
      prev = cur;
    }
  }
  std::string once = print(*m);
  // The printed output reads back: every type a pass built passes the type
  // verifiers (the encoding's verifyEncoding), which release builds of MLIR
  // skip in RankedTensorType::get.
  if (!parseSourceString<ModuleOp>(once, &ctx))
    return "pipeline output does not parse back\n" + once;
  if (failed(pipeline(*m)))
    return "second pipeline run failed\n" + once;
  std::string twice = print(*m);
  if (once != twice)
    return "second pipeline run changed the IR\n" + once + "--- twice:\n" +
           twice;
  (void)diag;
  return {};
}

/// The interpreter on a hand-checked function: x = [[1,2],[3,4]] stored
/// through a view at offset 4 of a buffer (elements 4..7 of its storage)
/// reads back through a view at 4 of a select of the buffer and itself,
/// while the buffer's own first tile (elements 0..3) stays zero; the add
/// doubles the loaded tile. Expected: [2,4,6,8] and [0,0,0,0].
bool interpreterSelfCheck(MLIRContext &ctx) {
  const char *text = R"(
    #smem = #tileas.encoding<smem, shared>
    func.func @f(%flag: i1, %x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
      %a = tileas.alloc_tensor : tensor<2x2xf32, #smem>
      %v = tileas.view %a {offset = 4} : tensor<2x2xf32, #smem> -> tensor<2x2xf32, #smem>
      tileas.tiled_store %x, %v : tensor<2x2xf32> -> tensor<2x2xf32, #smem>
      %s = tileas.select %flag, %a, %a : tensor<2x2xf32, #smem>
      %w = tileas.view %s {offset = 4} : tensor<2x2xf32, #smem> -> tensor<2x2xf32, #smem>
      %l = tileas.tiled_load %w : tensor<2x2xf32, #smem> -> tensor<2x2xf32>
      %m = tileas.tiled_load %a : tensor<2x2xf32, #smem> -> tensor<2x2xf32>
      %d = arith.addf %l, %l : tensor<2x2xf32>
      return %d, %m : tensor<2x2xf32>, tensor<2x2xf32>
    })";
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
  if (!m || failed(verify(*m)))
    return false;
  std::vector<InterpValue> in{InterpValue::make({}, {1}),
                              InterpValue::make({2, 2}, {1, 2, 3, 4})},
      res;
  std::string err;
  if (failed(lk::tileas::interpret(m->lookupSymbol<func::FuncOp>("f"), in, res,
                                   err)) ||
      res.size() != 2)
    return false;
  return res[0].elements() == std::vector<double>{2, 4, 6, 8} &&
         res[1].elements() == std::vector<double>{0, 0, 0, 0};
}

/// The interpreter on a hand-checked while loop and agent handoff: the
/// while doubles x = [1,2,3,4] while i < 3 (i = 0, 1, 2: three rounds,
/// x * 8 = [8,16,24,32]) and returns i = 3; the result travels through a
/// slot (produce_one, consume_one) into an agent that stores it into %g,
/// and the store into the produced buffer after the handoff does not reach
/// the slot's snapshot. Expected: %g = [8,16,24,32], i = 3.
bool whileAndHandoffSelfCheck(MLIRContext &ctx) {
  const char *text = R"(
    #smem = #tileas.encoding<smem, shared>
    #gmem = #tileas.encoding<global, linear>
    func.func @f(%x: tensor<2x2xf32>, %g: tensor<2x2xf32, #gmem>) -> index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %r:2 = scf.while (%i = %c0, %t = %x) : (index, tensor<2x2xf32>) -> (index, tensor<2x2xf32>) {
        %go = arith.cmpi slt, %i, %c3 : index
        scf.condition(%go) %i, %t : index, tensor<2x2xf32>
      } do {
      ^bb0(%j: index, %u: tensor<2x2xf32>):
        %n = arith.addi %j, %c1 : index
        %d = arith.addf %u, %u : tensor<2x2xf32>
        scf.yield %n, %d : index, tensor<2x2xf32>
      }
      %buf = tileas.alloc_tensor : tensor<2x2xf32, #smem>
      %w = tileas.copy %r#1, %buf {atom = "universal"} : tensor<2x2xf32>, tensor<2x2xf32, #smem> -> tensor<2x2xf32, #smem>
      %slot = tileas.produce_one %w {depth = 1} : tensor<2x2xf32, #smem> -> tensor<2x2xf32, #smem>
      tileas.tiled_store %x, %buf : tensor<2x2xf32> -> tensor<2x2xf32, #smem>
      tileas.async.pipeline.agent_switch {
        %c = tileas.consume_one %slot : tensor<2x2xf32, #smem> -> tensor<2x2xf32, #smem>
        %v = tileas.convert_layout %c : tensor<2x2xf32, #smem> -> tensor<2x2xf32>
        tileas.tiled_store %v, %g : tensor<2x2xf32> -> tensor<2x2xf32, #gmem>
        tileas.async.pipeline.yield
      }
      return %r#0 : index
    })";
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
  if (!m || failed(verify(*m)))
    return false;
  std::vector<InterpValue> in{InterpValue::make({2, 2}, {1, 2, 3, 4}),
                              InterpValue::make({2, 2}, {0, 0, 0, 0})},
      res;
  std::string err;
  if (failed(lk::tileas::interpret(m->lookupSymbol<func::FuncOp>("f"), in, res,
                                   err)) ||
      res.size() != 1)
    return false;
  return res[0].elements() == std::vector<double>{3} &&
         in[1].elements() == std::vector<double>{8, 16, 24, 32};
}

/// The interpreter on a loop and on its slices: a = 2a + (i mod 4) for
/// i = 1, 3, 5 from a = 0 gives 1, 5, 11. tileas-slicing with sliceCount 3
/// (trip count 3) makes three loops [1,3), [3,5), [5,7), each starting
/// from the previous result: 11 again. Order matters (2a + m is not
/// commutative in the iterations), so slices run out of order or from the
/// init would give another value.
bool slicedSelfCheck(MLIRContext &ctx) {
  const char *text = R"(
    func.func @f(%x: index) -> index {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %r = scf.for %i = %c1 to %c7 step %c2 iter_args(%a = %x) -> (index) {
        %m = arith.remui %i, %c4 : index
        %d = arith.muli %a, %c2 : index
        %s = arith.addi %d, %m : index
        scf.yield %s : index
      } {sliceCount = 3 : i32}
      return %r : index
    })";
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
  auto value = [&](std::vector<double> &out) {
    std::vector<InterpValue> res;
    std::string err;
    if (failed(lk::tileas::interpret(m->lookupSymbol<func::FuncOp>("f"),
                                     {InterpValue::make({}, {0})}, res, err)) ||
        res.size() != 1)
      return false;
    out = res[0].elements();
    return true;
  };
  std::vector<double> before, after;
  if (!m || failed(verify(*m)) || !value(before))
    return false;
  PassManager pm(&ctx);
  pm.nest<func::FuncOp>().addPass(lk::tileas::createTileASSlicing());
  int loops = 0;
  if (failed(pm.run(*m)) || failed(verify(*m)) || !value(after))
    return false;
  m->walk([&](scf::ForOp) { ++loops; });
  return loops == 3 && before == std::vector<double>{11} && after == before;
}

uint64_t envOr(const char *name, uint64_t dflt) {
  const char *v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 10) : dflt;
}

} // namespace

int main() {
  DialectRegistry registry;
  lk::tileas::registerProgramDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::string diag;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    diag += d.str() + "\n";
    return success();
  });
  if (!interpreterSelfCheck(ctx)) {
    std::printf("the interpreter's hand-checked function gives wrong values\n");
    return 1;
  }
  if (!whileAndHandoffSelfCheck(ctx)) {
    std::printf("the interpreter's hand-checked while loop and handoff give "
                "wrong values\n");
    return 1;
  }
  if (!slicedSelfCheck(ctx)) {
    std::printf("the interpreter gives a sliced loop another value than the "
                "hand-checked 11\n");
    return 1;
  }
  uint64_t first = envOr("LK_RANDOM_FIRST_SEED", 1);
  uint64_t count = envOr("LK_RANDOM_SEEDS", 2000);
  int failures = 0;
  Coverage cov;
  for (uint64_t seed = first; seed < first + count; ++seed) {
    diag.clear();
    std::string what = check(ctx, seed, diag, cov);
    if (what.empty())
      continue;
    std::printf("seed %llu: %s\ndiagnostics:\n%s\n",
                static_cast<unsigned long long>(seed), what.c_str(),
                diag.c_str());
    if (++failures == static_cast<int>(envOr("LK_RANDOM_MAX_FAILURES", 3)))
      break;
  }
  std::printf("%llu seeds, %d failed\n", static_cast<unsigned long long>(count),
              failures);
  std::printf("seeds with: agent handoffs %d, scf.while %d, dead scf.if "
              "results %d, selects of two views %d, affine lower bounds "
              "%d, aliases through loop bodies %d, gathers and scatters %d, "
              "atomics %d\n",
              cov.agentHandoffs, cov.whiles, cov.deadIfResults,
              cov.selectsOfViews, cov.affineBounds, cov.bodyAliases,
              cov.scatters, cov.atomics);
  // With the default seeds, every shape must have been drawn.
  bool covered =
      count < 100 ||
      (cov.agentHandoffs > 0 && cov.whiles > 0 && cov.deadIfResults > 0 &&
       cov.selectsOfViews > 0 && cov.affineBounds > 0 && cov.bodyAliases > 0 &&
       cov.scatters > 0 && cov.atomics > 0);
  if (!covered)
    std::printf("the generator missed a shape\n");
  return failures == 0 && covered ? 0 : 1;
}
