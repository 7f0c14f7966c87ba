//===- ReportConversions.cpp - tileas-report-conversions ------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// A remark on every convert_layout: the strategy and cost LayoutKit's
// conversion planner (api::planConversion) gives it, in the words of
// `layoutkit plan` ("strategy: ...", "cost: ..."), or why it is not
// planned. The planner moves register values: a conversion is planned when
// both sides are register values whose encodings carry a (thread, value)
// layout (LayoutEquality.h, placementOf). The pass changes nothing.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/LayoutEquality.h"
#include "layoutkit-mlir/Passes.h"

#include "layoutkit/api/Plan.h"
#include "layoutkit/cute/ElementType.h"
#include "layoutkit/hw/Machine.h"

namespace lk::tileas {
#define GEN_PASS_DEF_TILEASREPORTCONVERSIONS
#include "layoutkit-mlir/Passes.h.inc"
} // namespace lk::tileas

using namespace mlir;
using namespace lk::tileas;

namespace {

std::string printed(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// The two lines `layoutkit plan` prints first, joined by "; ".
std::string describe(const lk::plan::Plan &p) {
  return "strategy: " + std::string(lk::plan::strategyName(p.strategy)) +
         "; cost: " + lk::plan::costText(p.cost);
}

/// The remark's text for `cvt`: the plan, or "not planned: <why>".
std::string report(ConvertLayoutOp cvt, const lk::plan::PlanOptions &options) {
  Type from = cvt.getSource().getType(), to = cvt.getType();
  MemKind a = memKindOf(from), b = memKindOf(to);
  if (a != b)
    return "not planned: a conversion between memory kinds (" +
           stringifyMemKind(a).str() + " -> " + stringifyMemKind(b).str() +
           ") is a load or a store, not a register conversion";
  if (isMemory(a))
    return "not planned: the planner moves register values; " +
           stringifyMemKind(a).str() + " -> " + stringifyMemKind(b).str() +
           " is a copy between buffers";
  lk::Expected<Placement> src = placementOf(from);
  if (!src)
    return "not planned: the source " + printed(from) + " has no placement (" +
           src.error().message + ")";
  lk::Expected<Placement> dst = placementOf(to);
  if (!dst)
    return "not planned: the target " + printed(to) + " has no placement (" +
           dst.error().message + ")";
  std::string elem = printed(cast<RankedTensorType>(from).getElementType());
  lk::Expected<lk::cute::ElementType> type =
      lk::cute::ElementTypeRegistry::global().lookup(elem);
  if (!type)
    return "not planned: " + type.error().message;
  lk::api::ReportOptions forms;
  forms.memoryForms = false;
  lk::Expected<lk::api::PlanReport> plan = lk::api::planConversion(
      *src->function, *dst->function, *type, options, forms);
  if (!plan)
    return "not planned: " + plan.error().message;
  return describe(plan->plan);
}

struct ReportConversions
    : lk::tileas::impl::TileASReportConversionsBase<ReportConversions> {
  using Base::Base;
  void runOnOperation() override {
    lk::Expected<lk::hw::Arch> target = lk::hw::parseArch(std::string(arch));
    if (!target) {
      getOperation()->emitError()
          << "tileas-report-conversions: arch: " << target.error().message;
      return signalPassFailure();
    }
    lk::plan::PlanOptions options;
    options.arch = *target;
    getOperation()->walk(
        [&](ConvertLayoutOp cvt) { cvt.emitRemark() << report(cvt, options); });
    markAllAnalysesPreserved();
  }
};

} // namespace
