//===- Shuffle.cpp - Round-optimal warp-shuffle plans and the cost model --===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// planWarpShuffle implements the intra-warp exchange of the linear-layouts
// paper (§5.4) as documented in Plan.h; estimatedCycles and cheaperPlan are
// the cost model planConversion uses to choose between warp shuffles and
// shared memory.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Plan.h"

#include "F2.h"

#include "layoutkit/linear/Analysis.h"

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

} // namespace

Expected<Plan> planWarpShuffle(const LinearLayout &src, const LinearLayout &dst,
                               int64_t elementBits) {
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 &&
      elementBits != 64)
    return Diagnostic::error("element width " + std::to_string(elementBits) +
                             " bits is not supported (allowed: 8, 16, 32, 64)");
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
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
  if (!p.src.isSurjective())
    return Diagnostic::error("source layout does not cover the tensor: " +
                             p.src.str());
  if (!p.dst.isSurjective())
    return Diagnostic::error("destination layout does not cover the "
                             "tensor: " +
                             p.dst.str());

  // Register files of more than 2^16 registers per thread are refused (no
  // hardware has them, and the copies below enumerate the registers).
  for (const LinearLayout *l : {&p.src, &p.dst})
    if (l->inDimLog2(dims::kRegister) > 16)
      return Diagnostic::error("a warp-shuffle plan needs at most 2^16 "
                               "registers per thread; the layout has 2^" +
                               std::to_string(l->inDimLog2(dims::kRegister)) +
                               ": " + l->str());
  const Columns aReg = dimColumns(p.src, dims::kRegister),
                              aLane = dimColumns(p.src, dims::kLane),
                              bReg = dimColumns(p.dst, dims::kRegister),
                              bLane = dimColumns(p.dst, dims::kLane);
  const int n = p.src.totalOutBits();
  // Where A holds each logical bit (its only non-zero column, as A is
  // distributed): register bit, lane bit, or -1.
  std::vector<int> aRegOf(size_t(n), -1), aLaneOf(size_t(n), -1),
      bRegOf(size_t(n), -1);
  for (size_t i = 0; i < aReg.size(); ++i)
    if (aReg[i])
      aRegOf[size_t(bitOf(aReg[i]))] = int(i);
  for (size_t j = 0; j < aLane.size(); ++j)
    if (aLane[j])
      aLaneOf[size_t(bitOf(aLane[j]))] = int(j);
  for (size_t i = 0; i < bReg.size(); ++i)
    if (bReg[i])
      bRegOf[size_t(bitOf(bReg[i]))] = int(i);

  WarpShufflePlan sp;
  // 1. V: common register bits, at most 32 bits of elements.
  const int maxV = elementBits >= 32 ? 0 : (elementBits == 16 ? 1 : 2);
  uint64_t bVecMask = 0;
  for (size_t i = 0; i < aReg.size() && int(sp.vecBits.size()) < maxV; ++i) {
    if (!aReg[i])
      continue;
    int bit = bitOf(aReg[i]);
    int rb = bRegOf[size_t(bit)];
    if (rb < 0)
      continue;
    sp.vecBits.push_back(bit);
    sp.srcVecRegBits.push_back(int(i));
    sp.dstVecRegBits.push_back(rb);
    bVecMask |= uint64_t(1) << rb;
  }
  sp.vectorElements = int64_t(1) << sp.vecBits.size();
  sp.wordsPerVector = elementBits == 64 ? 2 : 1;

  // 2. Round bits R: B's non-zero register bits outside V; where A holds
  // each (phi of a round bit: an A register or an A lane bit).
  std::vector<int> roundBits;
  std::vector<uint64_t> phiReg, phiLane;
  uint64_t bRegZero = 0;
  for (size_t i = 0; i < bReg.size(); ++i) {
    if (!bReg[i]) {
      bRegZero |= uint64_t(1) << i;
      continue;
    }
    if (bVecMask >> i & 1)
      continue;
    int bit = bitOf(bReg[i]);
    roundBits.push_back(int(i));
    if (aRegOf[size_t(bit)] >= 0) {
      phiReg.push_back(uint64_t(1) << aRegOf[size_t(bit)]);
      phiLane.push_back(0);
    } else if (aLaneOf[size_t(bit)] >= 0) {
      phiReg.push_back(0);
      phiLane.push_back(uint64_t(1) << aLaneOf[size_t(bit)]);
    } else {
      return Diagnostic::error("internal error: logical bit " +
                               std::to_string(bit) +
                               " is in no register or lane of the source");
    }
  }

  // 3./4. Per lane bit j of B: rho (B register bits the received register
  // depends on), psiLane / psiReg (the sender's lane and register offsets).
  std::vector<int> eRegBits, eLaneBits; // E: round bits held in A's lanes
  for (size_t q = 0; q < roundBits.size(); ++q)
    if (phiLane[q]) {
      eRegBits.push_back(roundBits[q]);
      eLaneBits.push_back(bitOf(phiLane[q]));
    }
  std::vector<int> zeroALanes;
  for (size_t j = 0; j < aLane.size(); ++j)
    if (!aLane[j])
      zeroALanes.push_back(int(j));
  const size_t laneBits = bLane.size();
  std::vector<uint64_t> rho(laneBits, 0), psiLane(laneBits, 0),
      psiReg(laneBits, 0);
  size_t nextE = 0, nextZ = 0;
  for (size_t j = 0; j < laneBits; ++j) {
    if (!bLane[j])
      continue; // B broadcasts over this lane bit: read what its twin reads
    int bit = bitOf(bLane[j]);
    if (aLaneOf[size_t(bit)] >= 0) { // I
      psiLane[j] = uint64_t(1) << aLaneOf[size_t(bit)];
      continue;
    }
    if (aRegOf[size_t(bit)] < 0)
      return Diagnostic::error("internal error: logical bit " +
                               std::to_string(bit) +
                               " is in no register or lane of the source");
    psiReg[j] = uint64_t(1) << aRegOf[size_t(bit)]; // F
    if (nextE < eRegBits.size()) {
      rho[j] = uint64_t(1) << eRegBits[nextE];
      psiLane[j] = uint64_t(1) << eLaneBits[nextE];
      ++nextE;
    } else if (nextZ < zeroALanes.size()) {
      psiLane[j] = uint64_t(1) << zeroALanes[nextZ];
      ++nextZ;
    } else {
      return Diagnostic::error("internal error: more lane bits of the "
                               "destination in source registers than lane "
                               "bits to pair them with");
    }
  }
  // sigma: the sender's register offset as a function of its lane offset.
  std::vector<uint64_t> sigma(aLane.size(), 0);
  for (size_t j = 0; j < laneBits; ++j)
    if (psiLane[j])
      sigma[size_t(bitOf(psiLane[j]))] = psiReg[j];
  auto xorOver = [](const std::vector<uint64_t> &v, uint64_t sel) {
    uint64_t r = 0;
    for (size_t k = 0; k < v.size(); ++k)
      if (sel >> k & 1)
        r ^= v[k];
    return r;
  };
  auto vecOffsets = [&](const std::vector<int> &regBits) {
    std::vector<int64_t> off(size_t(sp.vectorElements), 0);
    for (int64_t e = 0; e < sp.vectorElements; ++e)
      for (size_t k = 0; k < regBits.size(); ++k)
        if (e >> k & 1)
          off[size_t(e)] ^= int64_t(1) << regBits[k];
    return off;
  };
  const std::vector<int64_t> srcOff = vecOffsets(sp.srcVecRegBits),
                             dstOff = vecOffsets(sp.dstVecRegBits);

  Plan plan;
  plan.strategy = Strategy::WarpShuffle;
  plan.layouts = p;
  plan.elementBits = elementBits;
  const int64_t lanes = int64_t(1) << laneBits;
  const int64_t rounds = int64_t(1) << roundBits.size();
  for (int64_t t = 0; t < rounds; ++t) {
    uint64_t regB = 0;
    for (size_t q = 0; q < roundBits.size(); ++q)
      if (t >> q & 1)
        regB |= uint64_t(1) << roundBits[q];
    const uint64_t lanePhi = xorOver(phiLane, uint64_t(t));
    const uint64_t regPhi = xorOver(phiReg, uint64_t(t));
    ShuffleRound round;
    round.srcLane.resize(size_t(lanes));
    round.sendRegisters.resize(size_t(lanes));
    round.dstRegisters.resize(size_t(lanes));
    for (int64_t l = 0; l < lanes; ++l) {
      round.srcLane[size_t(l)] =
          int64_t(lanePhi ^ xorOver(psiLane, uint64_t(l)));
      const uint64_t dstBase = regB ^ xorOver(rho, uint64_t(l));
      const uint64_t sendBase = regPhi ^ xorOver(sigma, uint64_t(l) ^ lanePhi);
      auto &sendRegs = round.sendRegisters[size_t(l)];
      auto &dstRegs = round.dstRegisters[size_t(l)];
      for (int64_t e = 0; e < sp.vectorElements; ++e) {
        sendRegs.push_back(int64_t(sendBase) ^ srcOff[size_t(e)]);
        dstRegs.push_back(int64_t(dstBase) ^ dstOff[size_t(e)]);
      }
    }
    plan.rounds.push_back(std::move(round));
  }
  // 5. Duplicated destination registers.
  for (int64_t r = 0; r < int64_t(1) << bReg.size(); ++r)
    if (uint64_t(r) & bRegZero)
      sp.registerCopies.push_back({r, int64_t(uint64_t(r) & ~bRegZero)});

  sp.sendSelectBits = rankF2(sigma);
  sp.receiveSelectBits = rankF2(rho);
  const int64_t warps = p.dst.inDimSize(dims::kWarp);
  const int64_t words = rounds * sp.wordsPerVector;
  int64_t shuffled = 0; // rounds that are not lane-local
  for (const ShuffleRound &r : plan.rounds)
    shuffled += !r.laneLocal();
  plan.cost.shuffles = shuffled * sp.wordsPerVector * warps;
  plan.cost.selects =
      int64_t(sp.sendSelectBits + sp.receiveSelectBits) * words * warps;
  // A lane-local round moves each element (each 32-bit half of an f64)
  // from its sent register to its received one: a register move.
  const int64_t local = rounds - shuffled;
  plan.cost.registerMoves =
      (shuffled * 2 * (sp.vectorElements - 1) +
       local * sp.vectorElements * sp.wordsPerVector +
       int64_t(sp.registerCopies.size())) *
      warps;
  plan.cost.instructions =
      plan.cost.shuffles + plan.cost.selects + plan.cost.registerMoves;
  plan.cost.cycles = estimatedCycles(plan.cost);
  plan.shuffle = std::move(sp);
  return plan;
}

} // namespace lk::plan
