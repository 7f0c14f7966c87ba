//===- fuzz_mlir_parser.cpp - The MLIR parser with the tileas dialect -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Feeds fuzzed text to the MLIR parser with the tileas, func, arith and scf
// dialects loaded (so #tileas.layout goes through LayoutKit's attribute
// parser and every tileas op through its parser and verifier). What parses
// is verified; what verifies goes through tileas-layout-pipeline, whose
// output must verify again and print text that parses back. Built by
// scripts/fuzz.sh when MLIR is found (mlir/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Passes.h"
#include "layoutkit-mlir/TileAS.h"

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

/// allow_user_poisoning=0, as scripts/sanitize.sh sets it: the dialect is
/// instrumented, libMLIR is not, and both use LLVM's BumpPtrAllocator; the
/// instrumented copy poisons each new slab and the library's copy hands out
/// pieces without unpoisoning them (a false "use-after-poison").
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

namespace {

MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    lk::tileas::registerProgramDialects(registry);
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    // Diagnostics of malformed input are expected: keep them quiet.
    c->getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
    return c;
  }();
  return *ctx;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  MLIRContext &ctx = context();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
  if (!m || failed(verify(*m)))
    return 0;
  PassManager pm(&ctx);
  lk::tileas::buildTileASLayoutPipeline(pm);
  if (failed(pm.run(*m)))
    return 0;
  if (failed(verify(*m))) {
    std::fprintf(stderr, "pipeline output does not verify:\n%s\n",
                 text.c_str());
    std::abort();
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  m->print(os);
  if (!parseSourceString<ModuleOp>(out, &ctx)) {
    std::fprintf(stderr, "pipeline output does not parse back:\n%s\n",
                 out.c_str());
    std::abort();
  }
  return 0;
}
