//===- Shuffle.cpp - Round-optimal warp-shuffle plans and the cost model --===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// planWarpShuffle implements the intra-warp exchange of the linear-layouts
// paper (§5.4) as documented in Plan.h and docs/plan.md; estimatedCycles
// and cheaperPlan are the cost model planConversion uses to choose between warp
// shuffles and shared memory, costText its summary.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Plan.h"

#include "F2.h"
#include "Preconditions.h"

#include "layoutkit/core/Join.h"
#include "layoutkit/linear/Analysis.h"

#include <cstdio>
#include <string>
#include <vector>

namespace lk::plan {

using namespace detail;

using linear::DimId;
using linear::LinearLayout;
namespace dims = linear::dims;

bool ShuffleRound::laneLocal() const {
  for (size_t l = 0; l < srcLane.size(); ++l)
    if (srcLane[l] != int64_t(l))
      return false;
  return true;
}

double estimatedCycles(const Cost &c) {
  return CostModel::kMoveCycles * double(c.registerMoves + c.selects) +
         CostModel::kShuffleCycles * double(c.shuffles) +
         CostModel::kWavefrontCycles * double(c.wavefronts) +
         CostModel::kBarrierCycles * double(c.barriers);
}

std::string costText(const Cost &c) {
  char cycles[32];
  std::snprintf(cycles, sizeof cycles, "%.1f", c.cycles);
  return counted(c.instructions, "instruction") + " (" +
         counted(c.registerMoves, "register move") + ", " +
         counted(c.selects, "select") + ", " + counted(c.shuffles, "shuffle") +
         "), " + counted(c.wavefronts, "wavefront") + ", " +
         counted(c.barriers, "barrier") + ", " + std::to_string(c.smemBytes) +
         " B of shared memory, " + cycles + " estimated cycles";
}

Expected<Plan> cheaperPlan(Expected<Plan> first, Expected<Plan> second) {
  if (first)
    first->cost.cycles = estimatedCycles(first->cost);
  if (second)
    second->cost.cycles = estimatedCycles(second->cost);
  if (!first)
    return second;
  if (!second)
    return first;
  if (second->cost.cycles < first->cost.cycles)
    return second;
  return first;
}

namespace {

int bitOf(uint64_t unit) { return __builtin_ctzll(unit); }

/// The preconditions of a warp-shuffle plan (Plan.h) on the aligned pair:
/// no data crossing warps or blocks, distributed surjective layouts and at
/// most 2^16 registers per thread.
Status checkShuffleable(const AlignedPair &p) {
  for (DimId d : {dims::kWarp, dims::kBlock}) {
    Columns a = dimColumns(p.src, d), b = dimColumns(p.dst, d);
    for (size_t j = 0; j < a.size(); ++j)
      if (a[j] != b[j]) {
        const std::string name(linear::dimName(d));
        return Diagnostic::error(
            "data moves between " + name + "s: " + name + " basis " +
            std::to_string(j) + " is " + columnText(p.src, a[j]) +
            " in the source and " + columnText(p.src, b[j]) +
            " in the destination (warp shuffles move data within a warp)");
      }
  }
  for (const LinearLayout *l : {&p.src, &p.dst})
    if (!linear::isDistributed(*l))
      return Diagnostic::error("warp shuffles need distributed layouts "
                               "(every column a distinct logical bit or "
                               "zero); not: " +
                               l->str());
  LK_CHECK(checkCovers(p.src, "source"));
  LK_CHECK(checkCovers(p.dst, "destination"));
  // Register files of more than 2^16 registers per thread are refused (no
  // hardware has them, and the copies below enumerate the registers).
  for (const LinearLayout *l : {&p.src, &p.dst})
    if (l->inDimLog2(dims::kRegister) > 16)
      return Diagnostic::error("a warp-shuffle plan needs at most 2^16 "
                               "registers per thread; the layout has 2^" +
                               std::to_string(l->inDimLog2(dims::kRegister)) +
                               ": " + l->str());
  return Ok{};
}

/// The register and lane columns of both sides, and where each side holds
/// each logical bit (its only non-zero column, as the layouts are
/// distributed): a register bit, a lane bit, or -1.
struct BitHomes {
  Columns aReg, aLane, bReg, bLane;
  std::vector<int> aRegOf, aLaneOf, bRegOf;

  explicit BitHomes(const AlignedPair &p)
      : aReg(dimColumns(p.src, dims::kRegister)),
        aLane(dimColumns(p.src, dims::kLane)),
        bReg(dimColumns(p.dst, dims::kRegister)),
        bLane(dimColumns(p.dst, dims::kLane)) {
    const size_t n = size_t(p.src.totalOutBits());
    aRegOf.assign(n, -1);
    aLaneOf.assign(n, -1);
    bRegOf.assign(n, -1);
    for (size_t i = 0; i < aReg.size(); ++i)
      if (aReg[i])
        aRegOf[size_t(bitOf(aReg[i]))] = int(i);
    for (size_t j = 0; j < aLane.size(); ++j)
      if (aLane[j])
        aLaneOf[size_t(bitOf(aLane[j]))] = int(j);
    for (size_t i = 0; i < bReg.size(); ++i)
      if (bReg[i])
        bRegOf[size_t(bitOf(bReg[i]))] = int(i);
  }
};

Diagnostic bitNowhere(int bit) {
  return Diagnostic::error("internal error: logical bit " +
                           std::to_string(bit) +
                           " is in no register or lane of the source");
}

/// Step 1 (docs/plan.md, "Warp shuffles"): V, the register bits both sides
/// share, at most 32 bits of elements; fills sp's vector fields and returns the
/// mask of B's register bits in V.
uint64_t chooseVectorBits(const BitHomes &h, int64_t elementBits,
                          WarpShufflePlan &sp) {
  const int maxV = elementBits >= 32 ? 0 : (elementBits == 16 ? 1 : 2);
  uint64_t bVecMask = 0;
  for (size_t i = 0; i < h.aReg.size() && int(sp.vecBits.size()) < maxV; ++i) {
    if (!h.aReg[i])
      continue;
    int bit = bitOf(h.aReg[i]);
    int rb = h.bRegOf[size_t(bit)];
    if (rb < 0)
      continue;
    sp.vecBits.push_back(bit);
    sp.srcVecRegBits.push_back(int(i));
    sp.dstVecRegBits.push_back(rb);
    bVecMask |= uint64_t(1) << rb;
  }
  sp.vectorElements = int64_t(1) << sp.vecBits.size();
  sp.wordsPerVector = elementBits == 64 ? 2 : 1;
  return bVecMask;
}

/// Step 2: the round bits R (B's non-zero register bits outside V) and
/// where A holds each (phi: an A register bit or an A lane bit); bRegZero
/// marks B's zero register bits.
struct RoundBits {
  std::vector<int> bits;
  std::vector<uint64_t> phiReg, phiLane;
  uint64_t bRegZero = 0;
};

Expected<RoundBits> roundBitsOf(const BitHomes &h, uint64_t bVecMask) {
  RoundBits r;
  for (size_t i = 0; i < h.bReg.size(); ++i) {
    if (!h.bReg[i]) {
      r.bRegZero |= uint64_t(1) << i;
      continue;
    }
    if (bVecMask >> i & 1)
      continue;
    int bit = bitOf(h.bReg[i]);
    r.bits.push_back(int(i));
    if (h.aRegOf[size_t(bit)] >= 0) {
      r.phiReg.push_back(uint64_t(1) << h.aRegOf[size_t(bit)]);
      r.phiLane.push_back(0);
    } else if (h.aLaneOf[size_t(bit)] >= 0) {
      r.phiReg.push_back(0);
      r.phiLane.push_back(uint64_t(1) << h.aLaneOf[size_t(bit)]);
    } else {
      return bitNowhere(bit);
    }
  }
  return r;
}

/// Steps 3 and 4: per lane bit j of B, rho[j] (the B register bits the
/// received register depends on) and psiLane[j] / psiReg[j] (the sender's
/// lane and register offsets); sigma, the sender's register offset as a
/// function of its lane offset.
struct LaneMaps {
  std::vector<uint64_t> rho, psiLane, psiReg, sigma;
};

Expected<LaneMaps> laneMapsOf(const BitHomes &h, const RoundBits &r) {
  std::vector<int> eRegBits, eLaneBits; // E: round bits held in A's lanes
  for (size_t q = 0; q < r.bits.size(); ++q)
    if (r.phiLane[q]) {
      eRegBits.push_back(r.bits[q]);
      eLaneBits.push_back(bitOf(r.phiLane[q]));
    }
  std::vector<int> zeroALanes;
  for (size_t j = 0; j < h.aLane.size(); ++j)
    if (!h.aLane[j])
      zeroALanes.push_back(int(j));
  const size_t laneBits = h.bLane.size();
  LaneMaps m;
  m.rho.assign(laneBits, 0);
  m.psiLane.assign(laneBits, 0);
  m.psiReg.assign(laneBits, 0);
  size_t nextE = 0, nextZ = 0;
  for (size_t j = 0; j < laneBits; ++j) {
    if (!h.bLane[j])
      continue; // B broadcasts over this lane bit: read what its twin reads
    int bit = bitOf(h.bLane[j]);
    if (h.aLaneOf[size_t(bit)] >= 0) { // I
      m.psiLane[j] = uint64_t(1) << h.aLaneOf[size_t(bit)];
      continue;
    }
    if (h.aRegOf[size_t(bit)] < 0)
      return bitNowhere(bit);
    m.psiReg[j] = uint64_t(1) << h.aRegOf[size_t(bit)]; // F
    if (nextE < eRegBits.size()) {
      m.rho[j] = uint64_t(1) << eRegBits[nextE];
      m.psiLane[j] = uint64_t(1) << eLaneBits[nextE];
      ++nextE;
    } else if (nextZ < zeroALanes.size()) {
      m.psiLane[j] = uint64_t(1) << zeroALanes[nextZ];
      ++nextZ;
    } else {
      return Diagnostic::error("internal error: more lane bits of the "
                               "destination in source registers than lane "
                               "bits to pair them with");
    }
  }
  m.sigma.assign(h.aLane.size(), 0);
  for (size_t j = 0; j < laneBits; ++j)
    if (m.psiLane[j])
      m.sigma[size_t(bitOf(m.psiLane[j]))] = m.psiReg[j];
  return m;
}

/// The XOR of the v[k] whose bit k is set in `sel`.
uint64_t xorOver(const std::vector<uint64_t> &v, uint64_t sel) {
  uint64_t r = 0;
  for (size_t k = 0; k < v.size(); ++k)
    if (sel >> k & 1)
      r ^= v[k];
  return r;
}

/// The register offset of each element of a vector whose element bits are
/// the register bits `regBits`.
std::vector<int64_t> vectorOffsets(const std::vector<int> &regBits,
                                   int64_t vectorElements) {
  std::vector<int64_t> off(size_t(vectorElements), 0);
  for (int64_t e = 0; e < vectorElements; ++e)
    for (size_t k = 0; k < regBits.size(); ++k)
      if (e >> k & 1)
        off[size_t(e)] ^= int64_t(1) << regBits[k];
  return off;
}

/// The 2^|R| rounds (steps 2 and 3): in round t, lane l reads lane
/// phiLane(t) ^ psiLane(l), sends the vector of sender register
/// phiReg(t) ^ sigma(its lane ^ phiLane(t)) and receives into register
/// R(t) ^ rho(l).
std::vector<ShuffleRound> shuffleRounds(const RoundBits &r, const LaneMaps &m,
                                        const WarpShufflePlan &sp) {
  const std::vector<int64_t> srcOff =
      vectorOffsets(sp.srcVecRegBits, sp.vectorElements);
  const std::vector<int64_t> dstOff =
      vectorOffsets(sp.dstVecRegBits, sp.vectorElements);
  const int64_t lanes = int64_t(1) << m.rho.size();
  const int64_t rounds = int64_t(1) << r.bits.size();
  std::vector<ShuffleRound> out;
  for (int64_t t = 0; t < rounds; ++t) {
    uint64_t regB = 0;
    for (size_t q = 0; q < r.bits.size(); ++q)
      if (t >> q & 1)
        regB |= uint64_t(1) << r.bits[q];
    const uint64_t lanePhi = xorOver(r.phiLane, uint64_t(t));
    const uint64_t regPhi = xorOver(r.phiReg, uint64_t(t));
    ShuffleRound round;
    round.srcLane.resize(size_t(lanes));
    round.sendRegisters.resize(size_t(lanes));
    round.dstRegisters.resize(size_t(lanes));
    for (int64_t l = 0; l < lanes; ++l) {
      round.srcLane[size_t(l)] =
          int64_t(lanePhi ^ xorOver(m.psiLane, uint64_t(l)));
      const uint64_t dstBase = regB ^ xorOver(m.rho, uint64_t(l));
      const uint64_t sendBase =
          regPhi ^ xorOver(m.sigma, uint64_t(l) ^ lanePhi);
      auto &sendRegs = round.sendRegisters[size_t(l)];
      auto &dstRegs = round.dstRegisters[size_t(l)];
      for (int64_t e = 0; e < sp.vectorElements; ++e) {
        sendRegs.push_back(int64_t(sendBase) ^ srcOff[size_t(e)]);
        dstRegs.push_back(int64_t(dstBase) ^ dstOff[size_t(e)]);
      }
    }
    out.push_back(std::move(round));
  }
  return out;
}

/// The cost of a shuffle plan (Plan.h, "Cost"): shuffles of the rounds that
/// are not lane-local, selects, and register moves.
Cost shuffleCost(const Plan &plan, const WarpShufflePlan &sp) {
  const int64_t warps = plan.layouts.dst.inDimSize(dims::kWarp);
  const int64_t rounds = int64_t(plan.rounds.size());
  const int64_t words = rounds * sp.wordsPerVector;
  int64_t shuffled = 0; // rounds that are not lane-local
  for (const ShuffleRound &r : plan.rounds)
    shuffled += !r.laneLocal();
  Cost c;
  c.shuffles = shuffled * sp.wordsPerVector * warps;
  c.selects = int64_t(sp.sendSelectBits + sp.receiveSelectBits) * words * warps;
  // A lane-local round moves each element (each 32-bit half of an f64)
  // from its sent register to its received one: a register move.
  const int64_t local = rounds - shuffled;
  c.registerMoves = (shuffled * 2 * (sp.vectorElements - 1) +
                     local * sp.vectorElements * sp.wordsPerVector +
                     int64_t(sp.registerCopies.size())) *
                    warps;
  c.instructions = c.shuffles + c.selects + c.registerMoves;
  c.cycles = estimatedCycles(c);
  return c;
}

} // namespace

Expected<Plan> planWarpShuffle(const LinearLayout &src, const LinearLayout &dst,
                               int64_t elementBits) {
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 &&
      elementBits != 64)
    return Diagnostic::error("element width " + std::to_string(elementBits) +
                             " bits is not supported (allowed: 8, 16, 32, 64)");
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  LK_CHECK(checkShuffleable(p));
  const BitHomes h(p);
  WarpShufflePlan sp;
  const uint64_t bVecMask = chooseVectorBits(h, elementBits, sp);
  LK_TRY(RoundBits r, roundBitsOf(h, bVecMask));
  LK_TRY(LaneMaps m, laneMapsOf(h, r));

  Plan plan;
  plan.strategy = Strategy::WarpShuffle;
  plan.layouts = p;
  plan.elementBits = elementBits;
  plan.rounds = shuffleRounds(r, m, sp);
  // 5. Duplicated destination registers.
  for (int64_t reg = 0; reg < int64_t(1) << h.bReg.size(); ++reg)
    if (uint64_t(reg) & r.bRegZero)
      sp.registerCopies.push_back({reg, int64_t(uint64_t(reg) & ~r.bRegZero)});
  sp.sendSelectBits = rankF2(m.sigma);
  sp.receiveSelectBits = rankF2(m.rho);
  plan.cost = shuffleCost(plan, sp);
  plan.shuffle = std::move(sp);
  return plan;
}

} // namespace lk::plan
