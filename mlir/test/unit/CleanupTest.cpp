//===- CleanupTest.cpp - The conversion cleanup on wide and deep inputs ---===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Inputs too large to write as lit cases, each with the answer derived
// from the cleanup's rules (docs/mlir.md, "Cleanup"):
//
//  * fan-out: one value with N identity conversions (T -> T, folded) and N
//    conversions to another memory kind (never folded), all returned: N
//    conversions remain, and the cleanup's work follows the conversions
//    it folds, not N per fold (it must stay within its step bound);
//  * a chain of 2N conversions register blocked -> dot operand -> blocked
//    ... ending in the argument's own type: chains merge into one
//    conversion T -> T, an identity, so none remains and the function
//    returns its argument;
//  * a second cleanup changes nothing.
//
// Exit status 0 when every check holds.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstdio>
#include <string>

using namespace mlir;

namespace {

constexpr int kN = 400;
const char *kReg = "tensor<64x64xf16, #tileas.encoding<register, blocked>>";
const char *kDot =
    "tensor<64x64xf16, #tileas.encoding<register, dot_operand, opIdx = 0>>";
const char *kSmem = "tensor<64x64xf16, #tileas.encoding<smem, shared>>";

std::string fanOut() {
  std::string results, body, ret, types;
  for (int i = 0; i < 2 * kN; ++i) {
    bool identity = i % 2 == 0;
    const char *to = identity ? kReg : kSmem;
    body += "  %c" + std::to_string(i) + " = tileas.convert_layout %x : " +
            kReg + " -> " + to + "\n";
    ret += std::string(i ? ", " : "") + "%c" + std::to_string(i);
    types += std::string(i ? ", " : "") + to;
  }
  return "func.func @fan(%x: " + std::string(kReg) + ") -> (" + types +
         ") {\n" + body + "  return " + ret + " : " + types + "\n}\n";
}

std::string chain() {
  std::string body;
  std::string prev = "%x";
  for (int i = 0; i < 2 * kN; ++i) {
    bool toDot = i % 2 == 0;
    std::string v = "%c" + std::to_string(i);
    body += "  " + v + " = tileas.convert_layout " + prev + " : " +
            (toDot ? kReg : kDot) + " -> " + (toDot ? kDot : kReg) + "\n";
    prev = v;
  }
  return "func.func @chain(%x: " + std::string(kReg) + ") -> " + kReg +
         " {\n" + body + "  return " + prev + " : " + kReg + "\n}\n";
}

int conversions(Operation *fn) {
  int n = 0;
  fn->walk([&](lk::tileas::ConvertLayoutOp) { ++n; });
  return n;
}

int failures = 0;

void expect(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n", what);
    ++failures;
  }
}

/// Runs the cleanup twice on the only function of `text`; returns it.
func::FuncOp cleanTwice(MLIRContext &ctx, const std::string &text,
                        OwningOpRef<ModuleOp> &module) {
  module = parseSourceString<ModuleOp>(text, &ctx);
  expect(bool(module), "the input parses");
  if (!module)
    return {};
  auto fn = *module->getOps<func::FuncOp>().begin();
  bool changed = false;
  expect(succeeded(lk::tileas::cleanupConversions(fn, &changed)),
         "the cleanup converges within its bound");
  expect(changed, "the first cleanup reports a change");
  bool again = false;
  expect(succeeded(lk::tileas::cleanupConversions(fn, &again)) && !again,
         "a second cleanup changes nothing");
  return fn;
}

} // namespace

int main() {
  DialectRegistry registry;
  registry.insert<lk::tileas::TileASDialect, func::FuncDialect>();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  OwningOpRef<ModuleOp> fanModule, chainModule;
  if (auto fn = cleanTwice(ctx, fanOut(), fanModule))
    expect(conversions(fn) == kN,
           "fan-out: the N conversions to smem remain, the N identities go");
  if (auto fn = cleanTwice(ctx, chain(), chainModule)) {
    expect(conversions(fn) == 0, "chain: no conversion remains");
    auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
    expect(ret.getOperand(0) == fn.getArgument(0),
           "chain: the function returns its argument");
  }
  std::printf("%s\n", failures ? "cleanup test failed" : "cleanup test passed");
  return failures ? 1 : 0;
}
