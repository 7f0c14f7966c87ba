//===- SharedCost.cpp - Cost model of the shared-memory exchange ---------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The instructions and wavefronts of each side of a shared-memory plan,
// their lower bound (docs/plan.md, "The optimal swizzle" step 3), and the
// checks a pair of layouts must pass to be exchanged through shared memory.
//
//===----------------------------------------------------------------------===//

#include "SharedAccess.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/Analysis.h"

#include <algorithm>

namespace lk::plan::detail {

using linear::DimId;
using linear::LinearLayout;
namespace dims = linear::dims;

/// Offset bits of one 128-byte row of the buffer (fewer for a tile smaller
/// than a row): everything above is Idx. `ctaBits`: the offset bits of one
/// CTA's tile.
int lineBitsOf(int ctaBits, int logE) { return std::min(ctaBits, 7 - logE); }

/// lineBitsOf for the pair's CTA tile (all logical bits but the block ones).
int lineBitsOf(const AlignedPair &p, int64_t elementBytes) {
  return lineBitsOf(p.src.totalOutBits() - int(ctaLogicalBits(p).size()),
                    log2Floor(elementBytes));
}

/// Offset bits inside one 32-bit word beyond the vector (docs/plan.md: Sub).
int subBitsOf(int n, int logE, int v) {
  return std::min(n - v, std::max(0, 2 - logE - v));
}

/// The logical bits whose differences inside one conflict group of the
/// side's accesses must avoid Idx (docs/plan.md, swizzle step 3): the lane bits
/// of one hardware lane group for a vector access, the row-selecting bits of a
/// matrix (lane bits 2-4; for .trans the half register and lane bits 0, 1).
Expected<uint64_t> conflictGroupMask(const LinearLayout &l, const SideAccess &s,
                                     int64_t elementBytes) {
  Columns lane = dimColumns(l, dims::kLane);
  uint64_t mask = 0;
  if (s.isMatrix()) {
    if (lane.size() != 5)
      return Diagnostic::error("internal error: matrix side without 32 lanes");
    if (!s.matrix.trans)
      return lane[2] | lane[3] | lane[4];
    return l.column(s.matrix.halfRegBit) | lane[0] | lane[1];
  }
  LK_TRY(hw::LaneGrouping grp,
         hw::machine(hw::Arch::Sm90).smem.grouping(elementBytes << s.v()));
  int groupBits = log2Floor(grp.lanesPerGroup);
  for (int j = 0; j < int(lane.size()) && j < groupBits; ++j)
    mask |= lane[j];
  return mask;
}

namespace {

/// Instructions, predicted wavefronts, their lower bound and Lemma 9.4's k
/// of one side over the planned memory columns `mem` (offset order).
struct SideCost {
  int64_t instructions = 0, wavefronts = 0, bound = 0;
  int lemma = 0;
};

} // namespace
/// Warp instructions of one side, per CTA; it does not depend on the
/// swizzle. A store skips registers and warps holding only duplicates, a
/// load fills every register of every warp: 2^(|reg != 0| - covered) per
/// warp, covered = v for a vector, 1 + |matrixRegBits| for a matrix (the
/// half and the matrix register bits).
int64_t sideInstructions(const LinearLayout &l, bool store,
                         const SideAccess &s) {
  Columns reg = dimColumns(l, dims::kRegister);
  Columns warp = dimColumns(l, dims::kWarp);
  int64_t warps =
      store ? (int64_t(1) << nonzeroCount(warp)) : (int64_t(1) << warp.size());
  int covered = s.isMatrix() ? 1 + int(s.matrix.matrixRegBits.size()) : s.v();
  return (int64_t(1) << (nonzeroCount(reg) - covered)) * warps;
}

namespace {

/// Lane groups of one side's instruction that issue anything: on the
/// store, lanes holding only duplicates are inactive, so a zero lane column
/// above the group bits leaves whole groups idle (0 wavefronts); every lane
/// loads.
int64_t activeGroups(std::span<const uint64_t> lane, bool store,
                     int groupBits) {
  int64_t groups = 1;
  for (int j = groupBits; j < int(lane.size()); ++j)
    if (!store || lane[j])
      groups *= 2;
  return groups;
}

} // namespace

/// The lower bound on one side's wavefronts over every memory layout whose
/// offset bits of one 128-byte row are `line`; it does not depend on the
/// swizzle. A matrix side: one wavefront per matrix. A vector side, per
/// instruction: every active group takes a wavefront, and Lemma 9.4 with
/// the fewest possible Idx/Thr overlap gives 2^max(0, |Thr| - b), b = the
/// offset bits of a row above the vector.
Expected<int64_t> sideBound(const LinearLayout &l, bool store,
                            const SideAccess &s, int line,
                            int64_t elementBytes) {
  const int64_t instructions = sideInstructions(l, store, s);
  if (s.isMatrix())
    return instructions * s.matrix.count();
  LK_TRY(hw::LaneGrouping grp,
         hw::machine(hw::Arch::Sm90).smem.grouping(elementBytes << s.v()));
  Columns lane = dimColumns(l, dims::kLane);
  const int64_t groups =
      activeGroups(lane, store, log2Floor(grp.lanesPerGroup));
  const int thr = int(nonzeroCount(lane));
  const int tb = std::max(0, thr - (line - s.v()));
  return instructions * std::max<int64_t>(groups, int64_t(1) << tb);
}

namespace {

Expected<SideCost> sideCost(const LinearLayout &l, bool store,
                            const SideAccess &s, std::span<const uint64_t> mem,
                            int line, int64_t elementBytes) {
  const int n = int(mem.size());
  const int logE = log2Floor(elementBytes);
  Columns lane = dimColumns(l, dims::kLane);
  std::vector<uint64_t> idx(mem.begin() + line, mem.end());
  SideCost c;
  c.instructions = sideInstructions(l, store, s);
  if (s.isMatrix()) {
    // One instruction covers the half and matrix register bits; each of its
    // matrices is one group of 8 rows (docs/hardware.md §1.3 model).
    LK_TRY(uint64_t gmask, conflictGroupMask(l, s, elementBytes));
    std::vector<uint64_t> group;
    for (int b = 0; b < 64; ++b)
      if (gmask >> b & 1)
        group.push_back(uint64_t(1) << b);
    std::vector<uint64_t> row(mem.begin(), mem.begin() + 3);
    std::vector<uint64_t> rowIdx = row;
    rowIdx.insert(rowIdx.end(), idx.begin(), idx.end());
    c.lemma = intersectionDim(group, rowIdx) - intersectionDim(group, row);
    c.wavefronts = c.instructions * s.matrix.count() * (int64_t(1) << c.lemma);
    LK_TRY(c.bound, sideBound(l, store, s, line, elementBytes));
    return c;
  }
  const int v = s.v();
  const int sub = subBitsOf(n, logE, v);
  LK_TRY(hw::LaneGrouping grp,
         hw::machine(hw::Arch::Sm90).smem.grouping(elementBytes << v));
  int groupBits = log2Floor(grp.lanesPerGroup);
  std::vector<uint64_t> w(mem.begin(), mem.begin() + v + sub);
  std::vector<uint64_t> wi = w;
  wi.insert(wi.end(), idx.begin(), idx.end());
  std::vector<uint64_t> vecIdx(mem.begin(), mem.begin() + v);
  vecIdx.insert(vecIdx.end(), idx.begin(), idx.end());
  int laneBits = int(lane.size());
  std::vector<uint64_t> group, thr;
  for (int j = 0; j < laneBits; ++j) {
    if (!lane[j])
      continue;
    thr.push_back(lane[j]);
    if (j < groupBits)
      group.push_back(lane[j]);
  }
  int kg = intersectionDim(group, wi) - intersectionDim(group, w);
  const int64_t groups = activeGroups(lane, store, groupBits);
  c.wavefronts = c.instructions * groups * (int64_t(1) << kg);
  c.lemma = intersectionDim(vecIdx, thr);
  LK_TRY(c.bound, sideBound(l, store, s, line, elementBytes));
  return c;
}

} // namespace

/// Fills the cost fields of a shared-memory plan from its memory layout and
/// sides: instruction counts and the wavefront formulas (docs/plan.md, swizzle
/// step 3 for vector sides, one group of 8 rows per matrix for matrix sides).
Status fillSharedCosts(const AlignedPair &p, SharedMemoryPlan &sp,
                       const SideAccess &store, const SideAccess &load) {
  std::vector<uint64_t> mem(sp.memory.columns().begin(),
                            sp.memory.columns().end());
  const int line = lineBitsOf(p, sp.elementBytes);
  LK_TRY(SideCost st, sideCost(p.src, true, store, mem, line, sp.elementBytes));
  LK_TRY(SideCost ld, sideCost(p.dst, false, load, mem, line, sp.elementBytes));
  sp.store.instructions = st.instructions;
  sp.store.wavefronts = st.wavefronts;
  sp.store.lowerBound = st.bound;
  sp.store.lemmaBits = st.lemma;
  sp.load.instructions = ld.instructions;
  sp.load.wavefronts = ld.wavefronts;
  sp.load.lowerBound = ld.bound;
  sp.load.lemmaBits = ld.lemma;
  Columns bReg = dimColumns(p.dst, dims::kRegister);
  sp.registerCopies =
      ((int64_t(1) << bReg.size()) - (int64_t(1) << nonzeroCount(bReg))) *
      p.dst.inDimSize(dims::kWarp);
  return Ok{};
}

Status checkShareable(const AlignedPair &p) {
  for (const LinearLayout *l : {&p.src, &p.dst}) {
    if (!linear::isDistributed(*l))
      return Diagnostic::error(
          "the shared-memory plan needs distributed layouts; not: " + l->str());
  }
  LK_CHECK(checkCovers(p.src, "source"));
  LK_CHECK(checkCovers(p.dst, "destination"));
  // Buffer sizes are elementBytes << bits: keep them far from overflow.
  if (p.src.totalOutBits() > 48)
    return Diagnostic::error("a tensor of 2^" +
                             std::to_string(p.src.totalOutBits()) +
                             " elements is too large for a shared-memory "
                             "plan");
  // CTA-local only: distributed shared memory across a cluster is not
  // planned.
  Columns a = dimColumns(p.src, dims::kBlock),
          b = dimColumns(p.dst, dims::kBlock);
  for (size_t j = 0; j < a.size(); ++j)
    if (a[j] != b[j])
      return Diagnostic::error(
          "data moves between CTAs: block basis " + std::to_string(j) + " is " +
          columnText(p.src, a[j]) + " in the source and " +
          columnText(p.src, b[j]) +
          " in the destination (distributed shared memory across a cluster "
          "is not planned)");
  return Ok{};
}

/// The logical bits held by non-zero block columns (identical on both
/// sides after checkShareable), lowest block bit first.
std::vector<int> ctaLogicalBits(const AlignedPair &p) {
  std::vector<int> bits;
  for (uint64_t c : dimColumns(p.src, dims::kBlock))
    if (c)
      bits.push_back(__builtin_ctzll(c));
  return bits;
}

} // namespace lk::plan::detail
