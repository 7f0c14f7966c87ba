//===- Simulator.cpp - Executes a conversion plan on a simulated CTA -----===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Simulator.h"

#include <vector>

namespace lk::plan {

using linear::LinearLayout;
namespace dims = linear::dims;

namespace {

/// Per warp, per lane, per register values.
struct RegisterFile {
  int64_t warps = 0, lanes = 0, regs = 0;
  std::vector<uint64_t> v;
  RegisterFile(int64_t w, int64_t l, int64_t r)
      : warps(w), lanes(l), regs(r), v(size_t(w * l * r), 0) {}
  uint64_t &at(int64_t w, int64_t l, int64_t r) {
    return v[size_t((w * lanes + l) * regs + r)];
  }
};

/// Flattened input of an aligned layout (register, lane, warp, block=0).
uint64_t hwIndex(const LinearLayout &l, int64_t r, int64_t lane, int64_t w) {
  return uint64_t(r) | uint64_t(lane) << l.inShift(1) |
         uint64_t(w) << l.inShift(2);
}

uint64_t dimFreeMask(const LinearLayout &l, int dimIndex) {
  return l.freeVariableMasks()[size_t(dimIndex)];
}

} // namespace

Expected<SimulationResult> simulate(const Plan &plan, hw::Arch arch) {
  const LinearLayout &src = plan.layouts.src, &dst = plan.layouts.dst;
  const hw::Machine &m = hw::machine(arch);
  const int64_t warps = src.inDimSize(dims::kWarp);
  const int64_t lanes = src.inDimSize(dims::kLane);
  const int64_t srcRegs = src.inDimSize(dims::kRegister);
  const int64_t dstRegs = dst.inDimSize(dims::kRegister);
  if (src.inDimSize(dims::kBlock) != 1)
    return Diagnostic::error("the simulator runs one CTA (block size 1)");
  if (lanes > m.warpSize)
    return Diagnostic::error("more lanes than the warp size");

  SimulationResult res;
  RegisterFile in(warps, lanes, srcRegs), out(warps, lanes, dstRegs);
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < srcRegs; ++r)
        in.at(w, l, r) = src.applyFlat(hwIndex(src, r, l, w)) + 1;

  switch (plan.strategy) {
  case Strategy::NoOp:
    if (srcRegs != dstRegs)
      return Diagnostic::error("no-op plan with different register counts");
    out.v = in.v;
    break;
  case Strategy::RegisterPermutation: {
    if (int64_t(plan.registerSource.size()) != dstRegs)
      return Diagnostic::error("register permutation of the wrong size");
    for (int64_t r = 0; r < dstRegs; ++r) {
      int64_t s = plan.registerSource[size_t(r)];
      if (s < 0 || s >= srcRegs)
        return Diagnostic::error("register source out of range");
      if (s != r)
        res.registerMoves += warps;
      for (int64_t w = 0; w < warps; ++w)
        for (int64_t l = 0; l < lanes; ++l)
          out.at(w, l, r) = in.at(w, l, s);
    }
    break;
  }
  case Strategy::WarpShuffle:
    for (const ShuffleRound &round : plan.rounds) {
      if (round.sendRegister < 0 || round.sendRegister >= srcRegs ||
          round.dstRegister < 0 || round.dstRegister >= dstRegs ||
          int64_t(round.srcLane.size()) != lanes ||
          int64_t(round.keep.size()) != lanes)
        return Diagnostic::error("malformed shuffle round");
      for (int64_t w = 0; w < warps; ++w) {
        // All lanes offer their value first, then all read (one shfl).
        std::vector<uint64_t> offered(static_cast<size_t>(lanes));
        for (int64_t l = 0; l < lanes; ++l)
          offered[size_t(l)] = in.at(w, l, round.sendRegister);
        for (int64_t l = 0; l < lanes; ++l) {
          int64_t from = round.srcLane[size_t(l)];
          if (from < 0 || from >= lanes)
            return Diagnostic::error("shuffle source lane out of range");
          if (round.keep[size_t(l)])
            out.at(w, l, round.dstRegister) = offered[size_t(from)];
        }
        ++res.shuffles;
      }
    }
    break;
  case Strategy::SharedMemory: {
    if (!plan.smem)
      return Diagnostic::error("shared-memory plan without its step");
    const SharedMemoryPlan &sp = *plan.smem;
    LK_TRY(LinearLayout inv, sp.memory.invert());
    const int64_t eb = sp.elementBytes;
    const int64_t vecN = sp.vectorElements;
    const int64_t width = eb * vecN;
    LK_TRY(hw::LaneGrouping grp, m.smem.grouping(width));
    (void)grp;
    std::vector<uint64_t> smem(size_t(sp.memory.totalInSize()), 0);
    // The register index of vector element j relative to the first one.
    auto vecRegOffset = [](const std::vector<int> &bits, int64_t j) {
      int64_t r = 0;
      for (size_t k = 0; k < bits.size(); ++k)
        if (j >> k & 1)
          r |= int64_t(1) << bits[k];
      return r;
    };
    int64_t srcVecMask = 0, dstVecMask = 0;
    for (int b : sp.srcVecRegBits)
      srcVecMask |= int64_t(1) << b;
    for (int b : sp.dstVecRegBits)
      dstVecMask |= int64_t(1) << b;
    // Offset of the element at (r, l, w) of layout `lay`.
    auto offsetOf = [&](const LinearLayout &lay, int64_t r, int64_t l,
                        int64_t w) {
      return int64_t(inv.applyFlat(lay.applyFlat(hwIndex(lay, r, l, w))));
    };
    // Base offset of a vector; error when not contiguous and aligned.
    auto vectorBase = [&](const LinearLayout &lay, const std::vector<int> &bits,
                          int64_t r, int64_t l,
                          int64_t w) -> Expected<int64_t> {
      int64_t base = offsetOf(lay, r, l, w);
      if (base % vecN)
        return Diagnostic::error("vector at offset " + std::to_string(base) +
                                 " is not aligned to " + std::to_string(vecN));
      for (int64_t j = 1; j < vecN; ++j)
        if (offsetOf(lay, r | vecRegOffset(bits, j), l, w) != base + j)
          return Diagnostic::error("vector is not contiguous in memory");
      return base;
    };
    // Store: skip duplicated registers, warps; lanes that duplicate are
    // inactive.
    uint64_t srcRegFree = dimFreeMask(src, 0), srcLaneFree = dimFreeMask(src, 1),
             srcWarpFree = dimFreeMask(src, 2);
    std::vector<int64_t> addrs(static_cast<size_t>(lanes), -1);
    for (int64_t w = 0; w < warps; ++w) {
      if (uint64_t(w) & srcWarpFree)
        continue;
      for (int64_t r = 0; r < srcRegs; ++r) {
        if ((uint64_t(r) & srcRegFree) || (r & srcVecMask))
          continue;
        for (int64_t l = 0; l < lanes; ++l) {
          if (uint64_t(l) & srcLaneFree) {
            addrs[size_t(l)] = -1;
            continue;
          }
          LK_TRY(int64_t base, vectorBase(src, sp.srcVecRegBits, r, l, w));
          addrs[size_t(l)] = base * eb;
          for (int64_t j = 0; j < vecN; ++j)
            smem[size_t(base + j)] =
                in.at(w, l, r | vecRegOffset(sp.srcVecRegBits, j));
        }
        LK_TRY(int64_t wf, m.smem.wavefronts(addrs, width));
        res.storeWavefronts += wf;
        ++res.storeInstructions;
      }
    }
    ++res.barriers;
    // Load each distinct destination register once, then copy duplicates.
    uint64_t dstRegFree = dimFreeMask(dst, 0);
    for (int64_t w = 0; w < warps; ++w)
      for (int64_t r = 0; r < dstRegs; ++r) {
        if ((uint64_t(r) & dstRegFree) || (r & dstVecMask))
          continue;
        for (int64_t l = 0; l < lanes; ++l) {
          LK_TRY(int64_t base, vectorBase(dst, sp.dstVecRegBits, r, l, w));
          addrs[size_t(l)] = base * eb;
          for (int64_t j = 0; j < vecN; ++j)
            out.at(w, l, r | vecRegOffset(sp.dstVecRegBits, j)) =
                smem[size_t(base + j)];
        }
        LK_TRY(int64_t wf, m.smem.wavefronts(addrs, width));
        res.loadWavefronts += wf;
        ++res.loadInstructions;
      }
    // A free register bit of a distributed layout is a zero column: the
    // register with those bits cleared holds the same element.
    for (int64_t w = 0; w < warps; ++w)
      for (int64_t r = 0; r < dstRegs; ++r) {
        if (!(uint64_t(r) & dstRegFree))
          continue;
        ++res.registerMoves;
        for (int64_t l = 0; l < lanes; ++l)
          out.at(w, l, r) = out.at(w, l, int64_t(uint64_t(r) & ~dstRegFree));
      }
    break;
  }
  }
  res.instructions = res.registerMoves + res.shuffles + res.storeInstructions +
                     res.loadInstructions;
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < dstRegs; ++r) {
        ++res.checked;
        uint64_t want = dst.applyFlat(hwIndex(dst, r, l, w)) + 1;
        uint64_t got = out.at(w, l, r);
        if (got != want) {
          if (!res.mismatches)
            res.firstMismatch = "warp " + std::to_string(w) + " lane " +
                                std::to_string(l) + " register " +
                                std::to_string(r) + ": holds " +
                                std::to_string(int64_t(got) - 1) +
                                ", wants " + std::to_string(int64_t(want) - 1);
          ++res.mismatches;
        }
      }
  res.correct = res.mismatches == 0;
  return res;
}

} // namespace lk::plan
