//===- Plan.cpp - Distributed layouts and conversion plans ----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Plan.h"

#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/bridge/LinearTile.h"
#include "layoutkit/bridge/TileCute.h"
#include "layoutkit/core/Bits.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/hw/LaneWarp.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/Padded.h"

namespace lk::api {

using linear::LinearLayout;
namespace dims = linear::dims;

Expected<LinearLayout> tvToLinear(const cute::Layout &tv,
                                  std::span<const int64_t> shape,
                                  std::string_view shapeName) {
  if (tv.rank() != 2)
    return Diagnostic::error(
        "a distributed cute layout is a TV layout (thread, value) -> element "
        "index with 2 top-level modes; " +
        tv.str() + " has " + std::to_string(tv.rank()));
  if (shape.empty())
    return Diagnostic::error("a cute TV layout needs " +
                             std::string(shapeName) +
                             ", the tensor's extents its element index is "
                             "split over (colex), e.g. (16,16)");
  bridge::CuteToLinearDims d;
  const linear::DimId thread = linear::internDim("thread");
  d.inDims = {thread, dims::kRegister};
  for (size_t i = 0; i < shape.size(); ++i)
    d.outDims.push_back({dims::dim(int(i)), shape[i]});
  LK_TRY(LinearLayout l, bridge::cuteToLinear(tv, d));
  return hw::splitThreadDim(l, thread);
}

namespace {

/// Checks that a layout given with its own out-dims agrees with the shape.
Status checkShape(const LinearLayout &l, std::span<const int64_t> shape,
                  const std::string &shapeName) {
  bool same = l.numOutDims() == int(shape.size());
  for (int i = 0; same && i < l.numOutDims(); ++i)
    same = l.outDim(i).size() == shape[size_t(i)];
  if (same)
    return Ok{};
  std::vector<int64_t> own;
  for (int i = 0; i < l.numOutDims(); ++i)
    own.push_back(l.outDim(i).size());
  return Diagnostic::error("the layout's logical dims have extents (" +
                           joinIntegers(own, ",") + "), not the " + shapeName +
                           " given, (" + excerpt(joinIntegers(shape, ",")) +
                           ")")
      .about("shape");
}

std::vector<int64_t> leavesOf(const std::optional<IntTuple> &shape) {
  std::vector<int64_t> v;
  if (shape)
    for (const IntTuple::Node &n : shape->leaves())
      v.push_back(n.value);
  return v;
}

} // namespace

Expected<LinearLayout> distributedLayout(const AnyLayout &l,
                                         const ParseOptions &options) {
  std::vector<int64_t> shape = leavesOf(options.shape);
  if (const LinearLayout *ll = l.linear()) {
    if (options.shape && l.syntax != Syntax::StandardParams &&
        l.syntax != Syntax::TtgirText)
      LK_CHECK(checkShape(*ll, shape, options.shapeName));
    return *ll;
  }
  if (const tile::SwizzledTileLayout *t = l.tile()) {
    if (!t->swizzle().isIdentity())
      return Diagnostic::error("a distributed layout has no swizzle; " +
                               t->str() + " has one");
    bridge::TileToLinearDims d;
    d.shape = shape;
    return bridge::tileToLinear(t->tile(), d);
  }
  const cute::ComposedLayout &c = *l.cute();
  if (!c.swizzle.isIdentity() || c.offset != 0)
    return Diagnostic::error("a distributed layout has no swizzle or offset; " +
                             c.str() + " has one");
  return tvToLinear(c.layout, shape, options.shapeName);
}

Expected<LinearLayout> parseDistributed(std::string_view text,
                                        const ParseOptions &options) {
  Expected<AnyLayout> any = parseLayout(text, options);
  if (!any)
    return any.error();
  Expected<LinearLayout> l = distributedLayout(*any, options);
  if (!l) {
    Diagnostic d = std::move(l).error();
    d.notes.push_back(readAsNote(any->syntax));
    return d;
  }
  return l;
}

Expected<cute::ElementType>
callElementType(const std::optional<cute::ElementType> &given,
                std::span<const std::optional<cute::ElementType>> named,
                const std::optional<cute::ElementType> &fallback,
                std::string_view dtypeName) {
  std::string option(dtypeName);
  std::optional<cute::ElementType> first;
  for (const std::optional<cute::ElementType> &n : named) {
    if (n && first && n->name != first->name)
      return Diagnostic::error("the layouts' element types " + first->name +
                               " and " + n->name +
                               " disagree (one operation, one element type)");
    if (n && !first)
      first = n;
  }
  if (given && first && first->name != given->name)
    return Diagnostic::error(option + " " + given->name +
                             " and the layout's element type " + first->name +
                             " disagree");
  if (given)
    return *given;
  if (first)
    return *first;
  if (fallback)
    return *fallback;
  return Diagnostic::error(
      option +
      " is required: the element type decides the vector width "
      "and the banks, e.g. " +
      option + " f16 (a Triton tensor type names its own)");
}

Expected<cute::ElementType>
conversionElementType(const std::optional<cute::ElementType> &given,
                      const std::optional<cute::ElementType> &src,
                      const std::optional<cute::ElementType> &dst,
                      std::string_view dtypeName) {
  if (src && dst && src->name != dst->name)
    return Diagnostic::error("the source's element type " + src->name +
                             " and the destination's " + dst->name +
                             " disagree (a conversion keeps its elements)");
  const std::optional<cute::ElementType> sides[] = {src, dst};
  return callElementType(given, sides, std::nullopt, dtypeName);
}

MemoryForms memoryForms(const LinearLayout &memory) {
  MemoryForms f;
  Expected<LinearLayout> toOffset = memory.invert();
  if (!toOffset)
    return f;
  f.cute = swizzledForm(*toOffset);
  // Row-major: the last logical dim in the lowest bits, as one in-dim.
  std::vector<linear::DimId> reversed;
  for (int i = toOffset->numInDims(); i-- > 0;)
    reversed.push_back(toOffset->inDim(i).id);
  Expected<LinearLayout> rowMajor = toOffset->transposeIns(reversed);
  if (!rowMajor)
    return f;
  std::optional<cute::ComposedLayout> flat =
      swizzledForm(rowMajor->flattenIns());
  if (!flat)
    return f;
  Expected<tile::SwizzleLayout> sw = bridge::swizzleFromCute(flat->swizzle);
  tile::Axis m = tile::Axis::m();
  Expected<tile::TileLayout> t =
      bridge::cuteToTile(flat->layout, std::span<const tile::Axis>(&m, 1));
  if (sw && t)
    f.tile = tile::SwizzledTileLayout(*sw, std::move(*t));
  return f;
}

namespace {

/// "stmatrix.x2.trans" when used, else `plain`.
std::string instructionName(bool matrix, const char *op, bool trans,
                            int64_t count, const char *plain) {
  if (!matrix)
    return plain;
  return std::string(op) + ".x" + std::to_string(count) +
         (trans ? ".trans" : "");
}

} // namespace

namespace {

/// `axis` names one of `l`'s output dims.
Status checkAxis(const LinearLayout &l, int64_t axis) {
  int64_t rank = l.numOutDims();
  if (axis < 0 || axis >= rank)
    return Diagnostic::error("axis " + std::to_string(axis) +
                             ": expected 0 to " + std::to_string(rank - 1) +
                             " (the layout has " + std::to_string(rank) +
                             " output dims)");
  return Ok{};
}

} // namespace

Expected<ReductionReport> reduce(const LinearLayout &layout, int64_t axis,
                                 const cute::ElementType &type,
                                 bool eliminateDuplicates) {
  LK_CHECK(checkAxis(layout, axis));
  // Linear layouts have 2^k registers; k itself keeps 2^64 unwrapped.
  int registerBits = layout.inDimLog2(dims::kRegister);
  if (int64_t(1) << std::min(registerBits, 62) > kMaxReduceRegisters)
    return Diagnostic::error(
        "a reduction over 2^" + std::to_string(registerBits) +
        " registers per thread; at most " +
        std::to_string(kMaxReduceRegisters) + " (2^14) are planned");
  ReductionReport r;
  LK_TRY(r.plan, plan::planReduction(layout, int(axis), type.bits,
                                     eliminateDuplicates));
  LK_TRY(r.simulation, plan::simulateReduction(r.plan));
  return r;
}

Expected<plan::GatherPlan> gather(const LinearLayout &src,
                                  const LinearLayout &index, int64_t axis,
                                  const cute::ElementType &type) {
  LK_CHECK(checkAxis(src, axis));
  return plan::planGather(src, index, int(axis), type.bits);
}

namespace {

/// `options` with the shared-memory budget resolved: the one given, else
/// (0) the target's shared memory per CTA. A budget is a byte count; a
/// negative one, or one over the target's, is refused whatever strategy
/// the plan would take.
Expected<plan::PlanOptions> withTargetBudget(plan::PlanOptions options) {
  const hw::Machine &target = hw::machine(options.arch);
  const int64_t given = options.smemBudgetBytes;
  if (given < 0)
    return Diagnostic::error("shared-memory budget " + std::to_string(given) +
                             " bytes; expected >= 0 (0: all the target's "
                             "shared memory per CTA)")
        .about("smem_budget");
  if (given > target.sharedBytesPerCta)
    return Diagnostic::error("shared-memory budget " + std::to_string(given) +
                             " bytes is more than the " +
                             std::to_string(target.sharedBytesPerCta) +
                             " bytes " + std::string(target.name) +
                             " gives one CTA")
        .about("smem_budget");
  if (given == 0)
    options.smemBudgetBytes = target.sharedBytesPerCta;
  return options;
}

} // namespace

Expected<PlanReport> planConversion(const LinearLayout &src,
                                    const LinearLayout &dst,
                                    const cute::ElementType &type,
                                    const plan::PlanOptions &options,
                                    const ReportOptions &report) {
  LK_TRY(plan::PlanOptions budgeted, withTargetBudget(options));
  // The planner bounds its work itself, before it starts
  // (plan::checkPlanSize: registers, lanes, threads, blocks).
  Expected<plan::Plan> planned =
      plan::planConversion(src, dst, type.bits, budgeted);
  if (!planned) {
    Diagnostic d = std::move(planned).error();
    d.notes.push_back("planning SRC -> DST for " + type.name + " (" +
                      std::to_string(type.bits) + "-bit elements)");
    return d;
  }
  PlanReport r;
  r.plan = std::move(*planned);
  r.dtype = type.name;
  r.arch = options.arch;
  if (const std::optional<plan::SharedMemoryPlan> &m = r.plan.smem) {
    if (report.memoryForms)
      r.memory = memoryForms(m->memory);
    r.storeInstruction =
        instructionName(m->store.matrixInstruction, "stmatrix", m->store.trans,
                        m->matrixCount, "st.shared");
    r.loadInstruction =
        instructionName(m->load.matrixInstruction, "ldmatrix", m->load.trans,
                        m->matrixCount, "ld.shared");
  }
  return r;
}

Expected<PaddedPlanReport>
planPaddedConversion(const LinearLayout &src, const LinearLayout &dst,
                     const cute::ElementType &type,
                     std::span<const int64_t> logical,
                     plan::PlanOptions options, const ReportOptions &report) {
  // The logical shape is checked before planning; ldmatrix / stmatrix move
  // whole rows, so a pair with padding plans without them.
  LK_TRY(linear::PaddedLayout a, linear::PaddedLayout::make(src, logical));
  LK_TRY(linear::PaddedLayout b, linear::PaddedLayout::make(dst, logical));
  if (a.isPadded() || b.isPadded())
    options.matrixInstructions = false;
  LK_TRY(PlanReport r, planConversion(src, dst, type, options, report));
  LK_TRY(plan::PaddedPlan padded, plan::maskPlan(r.plan, logical));
  return PaddedPlanReport{std::move(r), std::move(padded)};
}

Expected<TensorPlanReport> planTensorConversion(
    const LinearLayout &src, const LinearLayout &dst,
    const cute::ElementType &type, std::span<const int64_t> logical,
    const plan::PlanOptions &options, const ReportOptions &report) {
  if (logical.empty()) {
    LK_TRY(PlanReport r, planConversion(src, dst, type, options, report));
    return TensorPlanReport{std::move(r), std::nullopt};
  }
  LK_TRY(PaddedPlanReport r,
         planPaddedConversion(src, dst, type, logical, options, report));
  return TensorPlanReport{std::move(r.report), std::move(r.padded)};
}

} // namespace lk::api
