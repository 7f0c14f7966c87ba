//===- PaddedPlan.cpp - Converting layouts of non-power-of-two shapes -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/PaddedPlan.h"

namespace lk::plan {

using linear::PaddedLayout;

std::string PaddedPlan::describe() const {
  std::string s = plan.describe() + "\nsource: " + srcWaste.str() +
                  "\ndestination: " + dstWaste.str();
  if (plan.smem)
    s += "\nbuffer: " + std::to_string(maskedSmemOffsets) + " of " +
         std::to_string(smemOffsets) +
         " offsets hold padding (never written or read); " +
         std::to_string(unusedBufferSlots) + " of " +
         std::to_string(bufferSlots) + " slots unused in every iteration (" +
         std::to_string(unusedBufferBytes) + " bytes)";
  return s;
}

namespace {

/// The buffer part of the waste: offsets of the memory layout holding
/// padding, and slots (offset mod buffer elements) holding it in every
/// iteration and CTA.
Status bufferWaste(PaddedPlan &p) {
  const SharedMemoryPlan &sp = *p.plan.smem;
  LK_TRY(PaddedLayout mem, PaddedLayout::make(sp.memory, p.logicalShape));
  LK_TRY(linear::Waste w, mem.waste());
  p.smemOffsets = w.slots;
  p.maskedSmemOffsets = w.maskedSlots;
  p.bufferSlots = sp.bytes / sp.elementBytes;
  if (p.bufferSlots <= 0)
    return Diagnostic::error("the plan's buffer holds no element");
  std::vector<int64_t> validUses(size_t(p.bufferSlots), 0);
  for (uint64_t o = 0; o < uint64_t(w.slots); ++o)
    if (mem.validIn(o))
      ++validUses[size_t(int64_t(o) % p.bufferSlots)];
  for (int64_t u : validUses)
    p.unusedBufferSlots += u == 0;
  p.unusedBufferBytes = p.unusedBufferSlots * sp.elementBytes;
  return Ok{};
}

} // namespace

Expected<PaddedPlan> maskPlan(Plan plan, std::span<const int64_t> logical) {
  PaddedPlan p;
  p.logicalShape.assign(logical.begin(), logical.end());
  LK_TRY(PaddedLayout src, PaddedLayout::make(plan.layouts.src, logical));
  LK_TRY(PaddedLayout dst, PaddedLayout::make(plan.layouts.dst, logical));
  LK_TRY(p.srcWaste, src.waste());
  LK_TRY(p.dstWaste, dst.waste());
  p.plan = std::move(plan);
  if (p.plan.smem)
    LK_CHECK(bufferWaste(p));
  return p;
}

Expected<PaddedPlan> planPaddedConversion(const PaddedLayout &src,
                                          const PaddedLayout &dst,
                                          int64_t elementBits,
                                          PlanOptions options) {
  std::vector<int64_t> a(src.logicalShape().begin(), src.logicalShape().end()),
      b(dst.logicalShape().begin(), dst.logicalShape().end());
  if (a != b)
    return Diagnostic::error("the layouts have different logical shapes: " +
                             src.str() + " and " + dst.str());
  if (src.isPadded())
    options.matrixInstructions = false; // whole rows: cannot skip padding
  LK_TRY(Plan plan,
         planConversion(src.layout(), dst.layout(), elementBits, options));
  return maskPlan(std::move(plan), a);
}

Expected<SimulationResult> simulatePadded(const PaddedPlan &p, hw::Arch arch) {
  return simulate(p.plan, arch, SimulationMask{p.logicalShape});
}

} // namespace lk::plan
