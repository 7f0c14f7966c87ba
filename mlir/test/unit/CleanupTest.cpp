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
//  * a chain of 3N conversions through three register encodings in turn
//    (dot operand 0, dot operand 1, blocked), every link also returned:
//    link i becomes convert(x) to its type, an identity for the blocked
//    links, so 2N conversions remain, all of the argument; top-down each
//    link merges once, within the step bound;
//  * a dead loop goes with everything only it used, in one cleanup: the
//    producers of its operands and the values its body took from outside
//    (a constant the cleanup hoists out of the body, an add);
//  * a constant in a live loop body, the only work: the cleanup hoists it
//    to the top of the function and reports a change (the greedy
//    driver's own report leaves out its constant pass); so does a
//    duplicate constant of the entry block, which goes; constants already
//    unique at the top: no change reported;
//  * a second cleanup changes nothing.
//
// Exit status 0 when every check holds.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/Cleanup.h"
#include "layoutkit-mlir/TileAS.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
    body += "  %c" + std::to_string(i) +
            " = tileas.convert_layout %x : " + kReg + " -> " + to + "\n";
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
  return "func.func @chain(%x: " + std::string(kReg) + ") -> " + kReg + " {\n" +
         body + "  return " + prev + " : " + kReg + "\n}\n";
}

std::string sharedChain() {
  const char *types[3] = {
      kDot,
      "tensor<64x64xf16, #tileas.encoding<register, dot_operand, "
      "opIdx = 1>>",
      kReg};
  std::string body, ret, rtypes, prev = "%x";
  const char *from = kReg;
  for (int i = 0; i < 3 * kN; ++i) {
    std::string v = "%c" + std::to_string(i);
    const char *to = types[i % 3];
    body += "  " + v + " = tileas.convert_layout " + prev + " : " + from +
            " -> " + to + "\n";
    ret += std::string(i ? ", " : "") + v;
    rtypes += std::string(i ? ", " : "") + to;
    prev = v;
    from = to;
  }
  return "func.func @shared(%x: " + std::string(kReg) + ") -> (" + rtypes +
         ") {\n" + body + "  return " + ret + " : " + rtypes + "\n}\n";
}

const char *kDeadLoop = R"(
func.func @dead_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.muli %n, %n : index
  %w = arith.addi %n, %n : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %v) -> (index) {
    %k = arith.constant 7 : index
    %t = arith.addi %a, %k : index
    %u = arith.addi %t, %w : index
    scf.yield %u : index
  }
  return
}
)";

// Only the constant moves (the loop is live: its result is returned).
const char *kLoopConstant = R"(
func.func @loop_constant(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %n) -> (index) {
    %k = arith.constant 7 : index
    %t = arith.addi %a, %k : index
    scf.yield %t : index
  }
  return %r : index
}
)";

// Only the duplicate %d goes (its use becomes %c).
const char *kDuplicateConstant = R"(
func.func @duplicate(%n: index) -> (index, index) {
  %c = arith.constant 7 : index
  %s = arith.addi %n, %c : index
  %d = arith.constant 7 : index
  %t = arith.addi %s, %d : index
  return %s, %t : index, index
}
)";

// Nothing to do: one constant of each value, at the top.
const char *kConstantsInPlace = R"(
func.func @in_place(%n: index) -> index {
  %c = arith.constant 7 : index
  %d = arith.constant 8 : index
  %s = arith.addi %n, %c : index
  %t = arith.addi %s, %d : index
  return %t : index
}
)";

int constants(Operation *fn) {
  int n = 0;
  fn->walk([&](arith::ConstantOp) { ++n; });
  return n;
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
  lk::tileas::registerProgramDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  OwningOpRef<ModuleOp> fanModule, chainModule, sharedModule, loopModule;
  if (auto fn = cleanTwice(ctx, fanOut(), fanModule))
    expect(conversions(fn) == kN,
           "fan-out: the N conversions to smem remain, the N identities go");
  if (auto fn = cleanTwice(ctx, chain(), chainModule)) {
    expect(conversions(fn) == 0, "chain: no conversion remains");
    auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
    expect(ret.getOperand(0) == fn.getArgument(0),
           "chain: the function returns its argument");
  }
  if (auto fn = cleanTwice(ctx, sharedChain(), sharedModule)) {
    bool allOfX = true;
    fn->walk([&](lk::tileas::ConvertLayoutOp c) {
      allOfX &= c.getSource() == fn.getArgument(0);
    });
    expect(conversions(fn) == 2 * kN && allOfX,
           "shared chain: 2N conversions remain, each of the argument");
  }
  if (auto fn = cleanTwice(ctx, kDeadLoop, loopModule))
    expect(fn.getBody().front().getOperations().size() == 1,
           "dead loop: only the return remains");
  OwningOpRef<ModuleOp> constModule, dupModule, placedModule;
  if (auto fn = cleanTwice(ctx, kLoopConstant, constModule)) {
    Operation *first = &fn.getBody().front().front();
    auto c = dyn_cast<arith::ConstantOp>(first);
    expect(constants(fn) == 3 && c &&
               cast<IntegerAttr>(c.getValue()).getInt() == 7,
           "loop constant: 7 is hoisted to the top, three constants remain");
  }
  if (auto fn = cleanTwice(ctx, kDuplicateConstant, dupModule))
    expect(constants(fn) == 1, "duplicate constant: one 7 remains");
  placedModule = parseSourceString<ModuleOp>(kConstantsInPlace, &ctx);
  if (placedModule) {
    auto fn = *placedModule->getOps<func::FuncOp>().begin();
    bool changed = false;
    expect(succeeded(lk::tileas::cleanupConversions(fn, &changed)) && !changed,
           "constants in place: no change reported");
  }
  std::printf("%s\n", failures ? "cleanup test failed" : "cleanup test passed");
  return failures ? 1 : 0;
}
