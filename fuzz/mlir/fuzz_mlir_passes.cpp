//===- fuzz_mlir_passes.cpp - The tileas passes on generated programs -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Fuzzed text seldom parses into a program the passes have work on (that
// is fuzz_mlir_parser's part), so this target lets the bytes choose a
// well-formed program and the passes instead: bytes 0-7 are the seed of
// randomProgram (RandomProgram.h), byte 8 its size (1-16 statements), and
// every further byte one pass to run, in order (the six tileas passes,
// canonicalize and cse; a repeat is allowed). The program must parse and
// verify (the generator's contract); after the passes, whether they
// succeeded or refused, the module must verify and print text that parses
// back. When the bytes end in the full layout pipeline (byte 0xFF), the
// program is also interpreted before and after (on 64 x 64 tiles, the
// slow part of an input, so only then): the results must be equal (what
// tests/mlir/RandomPipelineTest checks per seed). Built by scripts/fuzz.sh when
// MLIR is found (mlir/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Interpreter.h"
#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/RandomProgram.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace mlir;

/// allow_user_poisoning=0, as scripts/sanitize.sh sets it: the dialect is
/// instrumented, libMLIR is not, and both use LLVM's BumpPtrAllocator; the
/// instrumented copy poisons each new slab and the library's copy hands out
/// pieces without unpoisoning them (a false "use-after-poison").
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
using lk::tileas::InterpValue;

namespace {

MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    lk::tileas::registerProgramDialects(registry);
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    registerCanonicalizerPass();
    registerCSEPass();
    lk::tileas::registerTileASPasses();
    // The passes' remarks and refusals are expected: keep them quiet.
    c->getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
    return c;
  }();
  return *ctx;
}

/// The passes a byte chooses (byte % 8), as pass-pipeline text.
const char *const kPasses[] = {
    "func.func(tileas-assign-load-store-layouts)",
    "func.func(tileas-remove-layout-conversions)",
    "tileas-report-conversions",
    "func.func(tileas-remove-buffer-alias)",
    "func.func(tileas-remove-dead-args)",
    "func.func(tileas-resolve-agent-boundary)",
    "func.func(tileas-slicing)",
    "canonicalize,cse",
};

[[noreturn]] void fail(const char *what, const std::string &text) {
  std::fprintf(stderr, "%s:\n%s\n", what, text.c_str());
  std::abort();
}

std::string print(ModuleOp m) {
  std::string out;
  llvm::raw_string_ostream os(out);
  m.print(os);
  return out;
}

/// Inputs of the generated signature (flag, n, two global buffers, a
/// register tile), small integers so that sums and products stay exact.
std::vector<InterpValue> inputs(uint64_t seed) {
  std::vector<InterpValue> in;
  in.push_back(InterpValue::make({}, {double(seed & 1)}));
  in.push_back(InterpValue::make({}, {2}));
  uint64_t s = seed | 1;
  for (int k = 0; k < 3; ++k) {
    std::vector<double> v(
        size_t(lk::tileas::kRandomTile * lk::tileas::kRandomTile));
    for (double &x : v) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      x = double(int64_t(s % 5) - 2);
    }
    in.push_back(InterpValue::make(
        {lk::tileas::kRandomTile, lk::tileas::kRandomTile}, v));
  }
  return in;
}

/// The returned tiles and the two global buffers after a call of @f; an
/// empty list when the interpreter refuses (an op it does not model).
std::vector<std::vector<double>> run(ModuleOp m, uint64_t seed) {
  auto fn = m.lookupSymbol<func::FuncOp>("f");
  if (!fn)
    return {};
  std::vector<InterpValue> in = inputs(seed), res;
  std::string err;
  if (failed(lk::tileas::interpret(fn, in, res, err)))
    return {};
  std::vector<std::vector<double>> out;
  for (const InterpValue &r : res)
    out.push_back(r.elements());
  out.push_back(in[2].elements());
  out.push_back(in[3].elements());
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 9 || size > 64)
    return 0;
  uint64_t seed;
  std::memcpy(&seed, data, 8);
  int ops = 1 + data[8] % 16;
  MLIRContext &ctx = context();
  std::string text = lk::tileas::randomProgram(seed, ops);
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
  if (!m || failed(verify(*m)))
    fail("a generated program does not parse or verify", text);
  const bool fullPipeline = data[size - 1] == 0xFF;
  std::vector<std::vector<double>> before;
  if (fullPipeline)
    before = run(*m, seed);
  std::string pipeline = "builtin.module(";
  for (size_t i = 9; i < size - (fullPipeline ? 1 : 0); ++i)
    pipeline += std::string(i > 9 ? "," : "") + kPasses[data[i] % 8];
  pipeline += ")";
  PassManager pm(&ctx);
  if (size > 9 + (fullPipeline ? 1 : 0) &&
      failed(parsePassPipeline(pipeline, pm)))
    fail("a pass pipeline does not parse", pipeline);
  if (fullPipeline)
    lk::tileas::buildTileASLayoutPipeline(pm);
  (void)pm.run(*m); // a refusal is allowed; the module must stay valid
  if (failed(verify(*m)))
    fail(("the passes " + pipeline + " leave a module that does not verify")
             .c_str(),
         text);
  std::string out = print(*m);
  if (!parseSourceString<ModuleOp>(out, &ctx))
    fail("the passes' output does not parse back", out);
  if (!fullPipeline)
    return 0;
  std::vector<std::vector<double>> after = run(*m, seed);
  if (!before.empty() && !after.empty() && before != after)
    fail(("the layout pipeline after " + pipeline + " changes the results of")
             .c_str(),
         text);
  return 0;
}
