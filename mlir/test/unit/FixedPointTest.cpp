//===- FixedPointTest.cpp - The fixed-point driver's order of passes ------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The driver of FixedPoint.h on families of toy passes whose changes are
// scripted: pass X changes the function (sets an attribute to a new value)
// on its first `changes` runs and reports no change after. Each run is
// logged as X, or X* when it changed; the expected logs follow from the
// driver's rule (FixedPoint.h):
//
//  * a (idempotent, 1 change), b, c: a* b c, then a is back after the two
//    quiet passes and is its own output: a* b c;
//  * the same with a not idempotent: a runs again, a* b c a;
//  * a, b both idempotent, 1 change each, c: a* b* c a, then b would be
//    next after two quiet passes: a* b* c a;
//  * a, b, c never changing: one round, a b c;
//  * a (not idempotent, 2 changes), b: a* b a* b a (the quiet count
//    starts again after each change);
//  * with checkChangeReports, an idempotent a that changes once runs
//    again at once: a* a b c; one that changes twice is reported, naming
//    the pass, and the pipeline fails.
//
// Verification (ChangeLog.h): a pass "break" retypes the i32 result of
// `arith.addi %a, %b : i32` to i64, which its verifier rejects (operands
// and result of one type), and tells the log it changed the function
// (so that the pass manager does not verify it):
//
//  * noting the retyped value: the driver reports the addi's error and
//    names the pass (the return, noted after the addi as its user, is
//    invalid too; the log checks its ops last noted first, but reports
//    the first invalid one in noted order: the addi's error alone);
//  * not noting it (a pass that forgets a change): the driver's one
//    whole-function verification at the end reports the addi's error, and
//    with checkChangeReports the driver names the pass and says that the
//    invalid op is outside what it noted;
//  * with the driver's verification and the pass manager's verifier off,
//    nothing reports it (what the two checks above catch is the change).
//
// The driver's RegionOps (RegionOps.h) under a change log, on
//
//   func { for L1 { for L2 {} }  for L3 {} }
//
// pre-order fn L1 L2 L3, post-order L2 L1 L3 fn (by the two walk orders):
//
//  * L3 noted as changed (in place): the lists stay, not stale;
//  * L1 erased (L2 with it): the lists drop both, pre-order fn L3,
//    post-order L3 fn, still not stale (no walk);
//  * a loop L4 created after L3 by a noting builder: stale, and the next
//    request walks: pre-order fn L3 L4, post-order L3 L4 fn.
//
// Exit status 0 when every check holds.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/FixedPoint.h"
#include "layoutkit-mlir/ChangeLog.h"
#include "layoutkit-mlir/RegionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdio>
#include <string>

using namespace mlir;

namespace {

/// Changes the function on its first `changes` runs; logs each run.
struct ToyPass : PassWrapper<ToyPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ToyPass)

  ToyPass(std::string name, int changes, std::string *log)
      : name(std::move(name)), changes(changes), log(log) {}
  ToyPass(const ToyPass &other) = default;

  StringRef getArgument() const override { return "lk-toy"; }
  StringRef getName() const override { return name; }
  void runOnOperation() override {
    bool change = runs++ < changes;
    *log += (log->empty() ? "" : " ") + name + (change ? "*" : "");
    if (!change)
      return markAllAnalysesPreserved();
    func::FuncOp fn = getOperation();
    fn->setAttr("lk.toy." + name,
                IntegerAttr::get(IntegerType::get(&getContext(), 64), runs));
  }

  std::string name;
  int changes;
  int runs = 0;
  std::string *log;
};

/// Retypes the result of the function's first op to i64 (see above),
/// noting it in the driver's log when `note` is set.
struct BreakPass : PassWrapper<BreakPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BreakPass)

  explicit BreakPass(bool note) : note(note) {}
  BreakPass(const BreakPass &other) = default;

  StringRef getArgument() const override { return "lk-break"; }
  StringRef getName() const override { return "break"; }
  void runOnOperation() override {
    Value sum = getOperation().getBody().front().front().getResult(0);
    sum.setType(IntegerType::get(&getContext(), 64));
    if (note)
      lk::tileas::noteRetyped(sum);
    if (lk::tileas::logChange())
      markAllAnalysesPreserved();
  }

  bool note;
};

/// The errors of the driver running BreakPass once on a valid function;
/// `failedRun` tells whether the pipeline failed.
std::string driveBreak(MLIRContext &ctx, bool note, bool check, bool verify,
                       bool &failedRun) {
  OwningOpRef<ModuleOp> m =
      parseSourceString<ModuleOp>("func.func @f(%a: i32, %b: i32) -> i32 {\n"
                                  "  %s = arith.addi %a, %b : i32\n"
                                  "  return %s : i32\n"
                                  "}",
                                  &ctx);
  std::vector<lk::tileas::FamilyPass> family = {
      {[note] { return std::make_unique<BreakPass>(note); }, false}};
  PassManager pm(&ctx);
  pm.enableVerifier(verify);
  pm.nest<func::FuncOp>().addPass(lk::tileas::createFixedPointPass(
      std::move(family), 1, check, /*verifyChanges=*/verify));
  std::string diag;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    diag += d.str() + "\n";
    return success();
  });
  failedRun = failed(pm.run(*m));
  return diag;
}

struct Member {
  const char *name;
  int changes;
  bool idempotent;
};

int failures = 0;

void expect(bool ok, const std::string &what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  }
}

/// The log of the driver on `members`; `failedRun` tells whether the
/// pipeline failed and `diag` collects its errors.
std::string drive(MLIRContext &ctx, const std::vector<Member> &members,
                  bool check, bool &failedRun, std::string &diag) {
  OwningOpRef<ModuleOp> m =
      parseSourceString<ModuleOp>("func.func @f() { return }", &ctx);
  std::string log;
  std::vector<lk::tileas::FamilyPass> family;
  for (const Member &mb : members) {
    std::string name = mb.name;
    int changes = mb.changes;
    family.push_back({[name, changes, &log] {
                        return std::make_unique<ToyPass>(name, changes, &log);
                      },
                      mb.idempotent});
  }
  PassManager pm(&ctx);
  pm.nest<func::FuncOp>().addPass(
      lk::tileas::createFixedPointPass(std::move(family), 6, check));
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    diag += d.str() + "\n";
    return success();
  });
  failedRun = failed(pm.run(*m));
  return log;
}

void expectLog(MLIRContext &ctx, const std::vector<Member> &members, bool check,
               const std::string &want, const char *what) {
  bool failedRun = false;
  std::string diag;
  std::string got = drive(ctx, members, check, failedRun, diag);
  expect(!failedRun && got == want, std::string(what) + ": want '" + want +
                                        "', got '" + got + "' " + diag);
}

} // namespace

/// The names (the "name" attribute; "fn" for the function) of `ops`,
/// space-separated.
std::string names(const std::vector<Operation *> &ops) {
  std::string out;
  for (Operation *op : ops) {
    auto name = op->getAttrOfType<StringAttr>("name");
    out += (out.empty() ? "" : " ") + (name ? name.str() : std::string("fn"));
  }
  return out;
}

/// The RegionOps checks of the file comment.
void expectRegionOpsKept(MLIRContext &ctx) {
  const char *src = R"mlir(
    func.func @f(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        scf.for %j = %c0 to %n step %c1 {
        } {name = "L2"}
      } {name = "L1"}
      scf.for %k = %c0 to %n step %c1 {
      } {name = "L3"}
      return
    })mlir";
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(src, &ctx);
  auto fn = cast<func::FuncOp>(&m->getBody()->front());
  lk::tileas::ChangeLog log;
  lk::tileas::ActiveChangeLog logging(&log);
  std::optional<lk::tileas::RegionOps> cache, local;
  lk::tileas::RegionOpsCache shared(fn, &cache);
  const lk::tileas::RegionOps &r = lk::tileas::regionOpsOf(fn, local);
  expect(&r == &*cache && !local, "the driver's cache holds the lists");
  expect(names(r.preOrder) == "fn L1 L2 L3" &&
             names(r.postOrder) == "L2 L1 L3 fn",
         "lists of the parsed function: " + names(r.preOrder) + " / " +
             names(r.postOrder));
  SmallVector<scf::ForOp> loops(fn.getBody().getOps<scf::ForOp>());
  lk::tileas::noteChanged(loops[1]);
  expect(!cache->stale, "a listed op changed in place keeps the lists");
  lk::tileas::eraseOp(loops[0]);
  expect(!cache->stale, "an erasure keeps the lists");
  lk::tileas::regionOpsOf(fn, local);
  expect(names(cache->preOrder) == "fn L3" &&
             names(cache->postOrder) == "L3 fn",
         "erased L1 and L2 leave the lists: " + names(cache->preOrder) + " / " +
             names(cache->postOrder));
  OpBuilder b(&ctx, lk::tileas::insertionNoter());
  b.setInsertionPointAfter(loops[1]);
  auto l4 = b.clone(*loops[1]);
  l4->setAttr("name", b.getStringAttr("L4"));
  expect(cache->stale, "a created loop makes the lists stale");
  lk::tileas::regionOpsOf(fn, local);
  expect(!cache->stale && names(cache->preOrder) == "fn L3 L4" &&
             names(cache->postOrder) == "L3 L4 fn",
         "the stale lists are walked again: " + names(cache->preOrder) + " / " +
             names(cache->postOrder));
}

int main() {
  DialectRegistry registry;
  registry.insert<func::FuncDialect, arith::ArithDialect, scf::SCFDialect>();
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();

  expectLog(ctx, {{"a", 1, true}, {"b", 0, true}, {"c", 0, true}}, false,
            "a* b c", "idempotent last change, not run again");
  expectLog(ctx, {{"a", 1, false}, {"b", 0, true}, {"c", 0, true}}, false,
            "a* b c a", "last change by a pass not idempotent");
  expectLog(ctx, {{"a", 1, true}, {"b", 1, true}, {"c", 0, true}}, false,
            "a* b* c a", "second pass changed last");
  expectLog(ctx, {{"a", 0, true}, {"b", 0, true}, {"c", 0, true}}, false,
            "a b c", "no change: one round");
  expectLog(ctx, {{"a", 2, false}, {"b", 0, true}}, false, "a* b a* b a",
            "a changed again in the second round");
  expectLog(ctx, {{"a", 1, true}, {"b", 0, true}, {"c", 0, true}}, true,
            "a* a b c", "checkChangeReports runs an idempotent pass again");

  bool failedRun = false;
  std::string diag;
  std::string got =
      drive(ctx, {{"a", 2, true}, {"b", 0, true}}, true, failedRun, diag);
  expect(failedRun && got == "a* a*" &&
             diag == "the pass a is marked idempotent but a second run "
                     "changed the function\n",
         "a false idempotence mark is reported: got '" + got + "' " + diag);

  // MLIR's verifier on the retyped addi (the SameOperandsAndResultType
  // trait), then the driver's error naming the pass.
  const std::string addi = "'arith.addi' op requires the same type for all "
                           "operands and results\n";
  diag = driveBreak(ctx, /*note=*/true, false, true, failedRun);
  expect(failedRun && diag == addi + "the function is invalid after the "
                                     "pass break\n",
         "a noted invalid change is reported, naming the pass: " + diag);
  diag = driveBreak(ctx, /*note=*/false, false, true, failedRun);
  expect(failedRun && diag == addi,
         "an unnoted invalid change is reported at the end: " + diag);
  diag = driveBreak(ctx, /*note=*/false, true, true, failedRun);
  expect(failedRun && diag == addi + "the function is invalid after the "
                                     "pass break, outside the ops it noted "
                                     "as changed\n",
         "checkChangeReports names a pass that left an unnoted invalid op: " +
             diag);
  diag = driveBreak(ctx, /*note=*/true, false, false, failedRun);
  expect(!failedRun && diag.empty(),
         "with no verification the invalid change passes: " + diag);

  expectRegionOpsKept(ctx);

  if (failures == 0)
    std::printf("all passed\n");
  return failures == 0 ? 0 : 1;
}
