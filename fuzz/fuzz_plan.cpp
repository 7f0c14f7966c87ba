//===- fuzz_plan.cpp - Fuzz the conversion planner end to end -------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Builds two distributed layouts of one 2-D tensor from the input bytes,
/// plans the conversion with every planner entry point (planConversion,
/// planSharedMemory, planWarpShuffle) under the options the input picks, and
/// checks every plan that comes back:
///
///  * the warp simulator (plan/Simulator.h) runs it and every destination
///    register holds exactly its element;
///  * the simulator's counts equal the plan's predictions (instructions,
///    shuffles, barriers, shared-memory wavefronts), and no shared-memory
///    side beats its wavefront lower bound;
///  * the CUDA emitter (plan/EmitCuda.h) accepts it;
///  * a refusal carries a message;
///  * where planConversion chose between warp shuffles and shared memory,
///    it costs no more than either.
///
/// Input bytes, in order (missing bytes read as 0):
///   0: element width (bits 0-1: 8, 16, 32, 64), bit 2 matrix instructions
///      off, bit 3 sm_80 instead of sm_90, bits 4-5 a shared-memory budget
///      of the tile / 2^k (k = 0: unlimited), bit 6 a block bit shared by
///      both layouts (two CTAs);
///   1: logical bits of dim 0 (low 3 bits) and dim 1 (bits 3-5), each
///      0..7, the total clamped to m .. m + 3 with m = 5 + warp bits +
///      block bit (at most 3 register bits of data);
///   2: warp bits (0..2), an extra zero register column of the source
///      (bit 2) and of the destination (bit 4);
///   3..: a permutation of the logical bits over the source's slots
///      (registers, then lanes, then warps), then one over the
///      destination's: slot s takes the bit chosen by byte values as a
///      Fisher-Yates draw; slots left over are zero columns (broadcast).
/// The warp columns of the destination are the source's when bit 7 of
/// byte 2 is set (an intra-warp pair, where warp shuffles apply).
///
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/plan/EmitCuda.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Simulator.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace lk;
using linear::DimSize;
using linear::LinearLayout;
namespace dims = linear::dims;

namespace {

/// Register bits that hold data, at most (each layout may add one zero
/// register column): at most 2^4 registers per thread and 2^11 elements.
/// Larger inputs only slow the fuzzer down; the planners' size limits have
/// their own unit tests.
constexpr int kMaxRegBits = 3;

struct Bytes {
  const uint8_t *data;
  size_t size, at = 0;
  uint8_t next() { return at < size ? data[at++] : 0; }
};

/// A distributed layout: `slots` columns (registers, then 5 lanes, then
/// warps, then blocks), the logical bits `bits` placed by a Fisher-Yates
/// draw from the input over the slots, the rest zero.
LinearLayout build(Bytes &in, int regSlots, int warpBits, int blockBits,
                   std::vector<uint64_t> bits, std::vector<uint64_t> fixedWarp,
                   uint64_t blockCol, int dim0Bits, int dim1Bits) {
  const int freeSlots = regSlots + 5 + (fixedWarp.empty() ? warpBits : 0);
  std::vector<uint64_t> slots(static_cast<size_t>(freeSlots), 0);
  // Place each logical bit in a distinct slot.
  std::vector<int> open;
  for (int s = 0; s < freeSlots; ++s)
    open.push_back(s);
  for (uint64_t b : bits) {
    size_t k = in.next() % open.size();
    slots[size_t(open[k])] = b;
    open.erase(open.begin() + std::ptrdiff_t(k));
  }
  std::vector<uint64_t> cols(slots.begin(), slots.begin() + regSlots + 5);
  if (fixedWarp.empty())
    cols.insert(cols.end(), slots.begin() + regSlots + 5, slots.end());
  else
    cols.insert(cols.end(), fixedWarp.begin(), fixedWarp.end());
  if (blockBits)
    cols.push_back(blockCol);
  std::vector<DimSize> ins = {{dims::kRegister, regSlots},
                              {dims::kLane, 5},
                              {dims::kWarp, warpBits},
                              {dims::kBlock, blockBits}};
  std::vector<DimSize> outs = {{dims::dim(0), dim0Bits},
                               {dims::dim(1), dim1Bits}};
  Expected<LinearLayout> l = LinearLayout::fromColumns(ins, outs, cols);
  LK_FUZZ_CHECK(l.hasValue(), "building a layout: %s",
                l.error().message.c_str());
  return std::move(*l);
}

void checkPlan(const plan::Plan &p, hw::Arch arch, const char *entry,
               const std::string &what) {
  Expected<plan::SimulationResult> s = plan::simulate(p, arch);
  LK_FUZZ_CHECK(s.hasValue(), "%s: simulate refused the plan: %s\n  %s", entry,
                s.error().message.c_str(), what.c_str());
  LK_FUZZ_CHECK(s->correct, "%s: wrong result: %s\n  %s\n  %s", entry,
                s->firstMismatch.c_str(), what.c_str(), p.describe().c_str());
  const int64_t ctas = p.layouts.src.inDimSize(dims::kBlock);
  LK_FUZZ_CHECK(s->shuffles == ctas * p.cost.shuffles,
                "%s: %lld shuffles simulated, %lld predicted\n  %s", entry,
                (long long)s->shuffles, (long long)p.cost.shuffles,
                what.c_str());
  if (p.smem) {
    const plan::SharedMemoryPlan &sp = *p.smem;
    // The simulator counts every CTA; the plan one.
    LK_FUZZ_CHECK(s->storeWavefronts == ctas * sp.store.wavefronts &&
                      s->loadWavefronts == ctas * sp.load.wavefronts,
                  "%s: wavefronts %lld + %lld simulated, %lld + %lld "
                  "predicted\n  %s\n  %s",
                  entry, (long long)s->storeWavefronts,
                  (long long)s->loadWavefronts, (long long)sp.store.wavefronts,
                  (long long)sp.load.wavefronts, what.c_str(),
                  p.describe().c_str());
    LK_FUZZ_CHECK(sp.store.wavefronts >= sp.store.lowerBound &&
                      sp.load.wavefronts >= sp.load.lowerBound,
                  "%s: a side beats its bound\n  %s\n  %s", entry, what.c_str(),
                  p.describe().c_str());
    LK_FUZZ_CHECK(s->barriers == ctas * sp.barriers,
                  "%s: %lld barriers simulated, %lld planned\n  %s", entry,
                  (long long)s->barriers, (long long)sp.barriers, what.c_str());
    LK_FUZZ_CHECK(arch != hw::Arch::Sm80 || !sp.store.matrixInstruction,
                  "%s: stmatrix in an sm_80 plan\n  %s", entry, what.c_str());
  }
  Expected<std::string> code = plan::emitCuda(p);
  LK_FUZZ_CHECK(code.hasValue(), "%s: emitCuda refused the plan: %s\n  %s",
                entry, code.error().message.c_str(), what.c_str());
}

void checkRefusal(const Diagnostic &d, const char *entry,
                  const std::string &what) {
  LK_FUZZ_CHECK(!d.message.empty(), "%s: refusal without a message\n  %s",
                entry, what.c_str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Bytes in{data, size};
  const uint8_t b0 = in.next(), b1 = in.next(), b2 = in.next();
  const int elementBits = 8 << (b0 & 3);
  plan::PlanOptions options;
  options.matrixInstructions = !(b0 & 4);
  options.arch = (b0 & 8) ? hw::Arch::Sm80 : hw::Arch::Sm90;
  const int budgetShift = (b0 >> 4) & 3;
  const int blockBits = (b0 >> 6) & 1;
  const int warpBits = (b2 & 3) % 3;
  int dim0Bits = b1 & 7, dim1Bits = (b1 >> 3) & 7;
  // At least the lanes, the warps and the block bit; at most kMaxRegBits
  // more (the registers), so the work per input stays small.
  const int minBits = 5 + warpBits + blockBits;
  while (dim0Bits + dim1Bits < minBits)
    ++(dim0Bits <= dim1Bits ? dim0Bits : dim1Bits);
  while (dim0Bits + dim1Bits > minBits + kMaxRegBits)
    --(dim0Bits >= dim1Bits ? dim0Bits : dim1Bits);
  const int n = dim0Bits + dim1Bits;
  const int srcExtra = (b2 >> 2) & 1, dstExtra = (b2 >> 4) & 1;
  const bool sameWarps = b2 & 0x80;

  // The block bit (two CTAs) is the same logical bit in both layouts.
  std::vector<uint64_t> bits;
  for (int b = 0; b < n; ++b)
    bits.push_back(uint64_t(1) << b);
  uint64_t blockCol = 0;
  if (blockBits) {
    size_t k = in.next() % bits.size();
    blockCol = bits[k];
    bits.erase(bits.begin() + std::ptrdiff_t(k));
  }
  const int placed = int(bits.size());
  const int srcRegs = placed - 5 - warpBits + srcExtra;
  const int dstRegs = placed - 5 - warpBits + dstExtra;
  if (srcRegs < 0 || dstRegs < 0)
    return 0;

  LinearLayout src = build(in, srcRegs, warpBits, blockBits, bits, {}, blockCol,
                           dim0Bits, dim1Bits);
  std::vector<uint64_t> srcWarp;
  const int warpShift = src.inShift(src.inDimIndex(dims::kWarp));
  for (int w = 0; w < warpBits; ++w)
    srcWarp.push_back(src.column(warpShift + w));
  // With sameWarps the destination keeps the source's warp columns and
  // places the other bits (in dstRegs + zeroWarps + 5 slots, enough).
  std::vector<uint64_t> dstBits = bits;
  if (sameWarps)
    for (uint64_t c : srcWarp)
      dstBits.erase(std::remove(dstBits.begin(), dstBits.end(), c),
                    dstBits.end());
  // Source warp columns that are zero leave their bits to the registers.
  const int zeroWarps =
      sameWarps ? int(std::count(srcWarp.begin(), srcWarp.end(), 0)) : 0;
  LinearLayout dst =
      build(in, dstRegs + zeroWarps, warpBits, blockBits, dstBits,
            sameWarps ? srcWarp : std::vector<uint64_t>{}, blockCol, dim0Bits,
            dim1Bits);

  std::string what =
      src.str() + " -> " + dst.str() + " f" + std::to_string(elementBits);
  if (budgetShift) {
    const int64_t tile = (int64_t(elementBits) / 8) << (n - blockBits);
    options.smemBudgetBytes = tile >> budgetShift;
    what += " budget " + std::to_string(options.smemBudgetBytes);
  }
  if (options.arch == hw::Arch::Sm80)
    what += " sm_80";
  if (!options.matrixInstructions)
    what += " no-matrix";

  auto check = [&](const Expected<plan::Plan> &p, const char *entry) {
    if (p)
      checkPlan(*p, options.arch, entry, what);
    else
      checkRefusal(p.error(), entry, what);
  };
  Expected<plan::Plan> c = plan::planConversion(src, dst, elementBits, options);
  check(c, "planConversion");
  Expected<plan::Plan> s =
      plan::planSharedMemory(src, dst, elementBits, options);
  check(s, "planSharedMemory");
  Expected<plan::Plan> w = plan::planWarpShuffle(src, dst, elementBits);
  check(w, "planWarpShuffle");
  // A plan never costs more than the strategies it chose between (NoOp and
  // RegisterPermutation are taken whenever they apply: Plan.h).
  const bool compared = c && (c->strategy == plan::Strategy::WarpShuffle ||
                              c->strategy == plan::Strategy::SharedMemory);
  if (compared && s)
    LK_FUZZ_CHECK(c->cost.cycles <= s->cost.cycles,
                  "planConversion (%.1f cycles) dearer than shared memory "
                  "(%.1f)\n  %s",
                  c->cost.cycles, s->cost.cycles, what.c_str());
  if (compared && w)
    LK_FUZZ_CHECK(c->cost.cycles <= w->cost.cycles,
                  "planConversion (%.1f cycles) dearer than shuffles "
                  "(%.1f)\n  %s",
                  c->cost.cycles, w->cost.cycles, what.c_str());
  return 0;
}
