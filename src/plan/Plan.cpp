//===- Plan.cpp - Layout-conversion planner ------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Plan.h"

#include "layoutkit/core/Bits.h"

#include "F2.h"
#include "MatrixRows.h"

#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/Analysis.h"
#include "layoutkit/plan/MatrixAccess.h"

#include <algorithm>
#include <array>

namespace lk::plan {

using namespace detail;

using linear::DimId;
using linear::DimSize;
using linear::LinearLayout;
namespace dims = linear::dims;

std::string_view strategyName(Strategy s) {
  switch (s) {
  case Strategy::NoOp:
    return "no-op";
  case Strategy::RegisterPermutation:
    return "register permutation";
  case Strategy::WarpShuffle:
    return "warp shuffle";
  case Strategy::SharedMemory:
    return "shared memory";
  }
  return "?";
}

namespace {

uint64_t nonzeroCount(std::span<const uint64_t> cols) {
  uint64_t n = 0;
  for (uint64_t c : cols)
    n += c != 0;
  return n;
}

} // namespace

int intersectionDim(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  std::vector<uint64_t> both(a.begin(), a.end());
  both.insert(both.end(), b.begin(), b.end());
  return rankF2(a) + rankF2(b) - rankF2(both);
}

Expected<AlignedPair> alignLayouts(const LinearLayout &src,
                                   const LinearLayout &dst) {
  for (const LinearLayout *l : {&src, &dst})
    for (int i = 0; i < l->numInDims(); ++i) {
      DimId d = l->inDim(i).id;
      if (std::find(kHwDims.begin(), kHwDims.end(), d) == kHwDims.end())
        return Diagnostic::error("cannot plan a conversion of a layout with "
                                 "input dim '" +
                                 std::string(linear::dimName(d)) +
                                 "' (expected register, lane, warp, block)");
    }
  if (src.numOutDims() != dst.numOutDims())
    return Diagnostic::error("source and destination have different output "
                             "dims: " +
                             src.str() + " vs " + dst.str());
  std::vector<DimId> order;
  for (int i = 0; i < dst.numOutDims(); ++i) {
    DimSize d = dst.outDim(i);
    if (src.outDimLog2(d.id) != d.log2 || !src.hasOutDim(d.id))
      return Diagnostic::error(
          "source and destination are not layouts of the same tensor: "
          "output dim '" +
          std::string(linear::dimName(d.id)) + "' has size " +
          std::to_string(src.outDimSize(d.id)) + " vs " +
          std::to_string(d.size()));
    order.push_back(d.id);
  }
  LK_TRY(LinearLayout s, src.transposeOuts(order));
  for (DimId d : {dims::kLane, dims::kWarp, dims::kBlock}) {
    // Absent dims count as size 1; both sides must agree on the thread
    // hierarchy.
    if (src.inDimSize(d) != dst.inDimSize(d))
      return Diagnostic::error(
          "source and destination use different numbers of " +
          std::string(linear::dimName(d)) + "s: " +
          std::to_string(src.inDimSize(d)) + " vs " +
          std::to_string(dst.inDimSize(d)));
  }
  std::vector<DimSize> outs;
  for (int i = 0; i < dst.numOutDims(); ++i)
    outs.push_back(dst.outDim(i));
  auto build = [&](const LinearLayout &l) -> Expected<LinearLayout> {
    std::vector<DimSize> ins;
    std::vector<uint64_t> cols;
    for (DimId d : kHwDims) {
      Columns c = dimColumns(l, d);
      ins.push_back({d, int(c.size())});
      cols.insert(cols.end(), c.begin(), c.end());
    }
    return LinearLayout::fromColumns(ins, outs, cols);
  };
  LK_TRY(LinearLayout a, build(s));
  LK_TRY(LinearLayout b, build(dst));
  return AlignedPair{a, b};
}

std::string Plan::describe() const {
  std::string r(strategyName(strategy));
  if (strategy == Strategy::SharedMemory && smem) {
    r += ": " + std::to_string(smem->vectorElements) + " x " +
         std::to_string(elementBits) + "-bit vectors (" +
         std::to_string(smem->accessBytes) + " B), store " +
         std::to_string(smem->storeInstructions) + " instr / " +
         std::to_string(smem->storeWavefronts) + " wavefronts (bound " +
         std::to_string(smem->storeLowerBound) + "), load " +
         std::to_string(smem->loadInstructions) + " instr / " +
         std::to_string(smem->loadWavefronts) + " wavefronts (bound " +
         std::to_string(smem->loadLowerBound) + "), " +
         std::to_string(smem->bytes) + " B of shared memory";
    auto matrix = [&](const char *op, bool trans) {
      return std::string(", ") + op + ".x" + std::to_string(smem->matrixCount) +
             (trans ? ".trans" : "");
    };
    if (smem->stmatrixStore)
      r += matrix("store by stmatrix", smem->stmatrixTrans);
    if (smem->ldmatrixLoad)
      r += matrix("load by ldmatrix", smem->ldmatrixTrans);
    if (smem->iterations > 1)
      r += ", " + std::to_string(smem->iterations) + " iterations, " +
           std::to_string(smem->barriers) + " barriers";
    if (!smem->ctaBits.empty())
      r += ", per CTA";
  }
  if (strategy == Strategy::WarpShuffle && shuffle) {
    r += ": " + std::to_string(rounds.size()) + " rounds of " +
         std::to_string(shuffle->vectorElements) + " x " +
         std::to_string(elementBits) + "-bit elements (" +
         std::to_string(shuffle->wordsPerVector) +
         " shfl per round and warp), " + std::to_string(cost.shuffles) +
         " shuffles, " + std::to_string(cost.selects) + " selects, " +
         std::to_string(cost.registerMoves) + " moves";
  }
  return r;
}

namespace {

Status checkElementBits(int64_t elementBits) {
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 &&
      elementBits != 64)
    return Diagnostic::error("element width " + std::to_string(elementBits) +
                             " bits is not supported (allowed: 8, 16, 32, 64)");
  return Ok{};
}

/// The register-only plan, when every element a thread needs is in its own
/// registers.
std::optional<std::vector<int64_t>> registerSources(const AlignedPair &p) {
  const LinearLayout &a = p.src, &b = p.dst;
  for (DimId d : {dims::kLane, dims::kWarp, dims::kBlock})
    if (dimColumns(a, d) != dimColumns(b, d))
      return std::nullopt;
  Columns aReg = dimColumns(a, dims::kRegister);
  Columns bReg = dimColumns(b, dims::kRegister);
  F2Basis basis;
  for (size_t i = 0; i < aReg.size(); ++i)
    basis.add(aReg[i], uint64_t(1) << i);
  std::vector<uint64_t> solution;
  for (uint64_t c : bReg) {
    uint64_t rest = c;
    uint64_t combo = basis.reduce(rest);
    if (rest)
      return std::nullopt;
    solution.push_back(combo);
  }
  std::vector<int64_t> src(size_t(1) << bReg.size());
  for (size_t r = 0; r < src.size(); ++r) {
    uint64_t m = 0;
    for (size_t j = 0; j < bReg.size(); ++j)
      if (r >> j & 1)
        m ^= solution[j];
    src[r] = int64_t(m);
  }
  return src;
}

/// One side of the shared-memory exchange: vectorized st.shared / ld.shared
/// of 2^|vecRegBits| elements (the vector bits are the lowest offset bits,
/// vecRegBits[k] the side's register bit of offset bit k), or a matrix
/// instruction (matrix.halfRegBit >= 0).
struct SideAccess {
  std::vector<int> vecRegBits;
  MatrixAccess matrix;
  bool isMatrix() const { return matrix.halfRegBit >= 0; }
  int v() const { return int(vecRegBits.size()); }
};

/// Offset bits of one 128-byte row of the buffer (fewer for a tile smaller
/// than a row): everything above is Idx. `ctaBits`: the offset bits of one
/// CTA's tile.
int lineBitsOf(int ctaBits, int logE) { return std::min(ctaBits, 7 - logE); }

std::vector<int> ctaLogicalBits(const AlignedPair &p);

/// lineBitsOf for the pair's CTA tile (all logical bits but the block ones).
int lineBitsOf(const AlignedPair &p, int64_t elementBytes) {
  return lineBitsOf(p.src.totalOutBits() - int(ctaLogicalBits(p).size()),
                    log2Floor(elementBytes));
}

/// Offset bits inside one 32-bit word beyond the vector (Plan.h: Sub).
int subBitsOf(int n, int logE, int v) {
  return std::min(n - v, std::max(0, 2 - logE - v));
}

/// The logical bits whose differences inside one conflict group of the
/// side's accesses must avoid Idx (Plan.h step 3): the lane bits of one
/// hardware lane group for a vector access, the row-selecting bits of a
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

/// Instructions, predicted wavefronts, their lower bound and Lemma 9.4's k
/// of one side over the planned memory columns `mem` (offset order).
struct SideCost {
  int64_t instructions = 0, wavefronts = 0, bound = 0;
  int lemma = 0;
};
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
  int covered =
      s.isMatrix() ? 1 + int(s.matrix.matrixRegBits.size()) : s.v();
  return (int64_t(1) << (nonzeroCount(reg) - covered)) * warps;
}

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
    // matrices is one group of 8 rows (hw-facts §1.3 model).
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

/// Fills the cost fields of a shared-memory plan from its memory layout and
/// sides: instruction counts and the wavefront formulas (Plan.h step 3 for
/// vector sides, one group of 8 rows per matrix for matrix sides).
Status fillSharedCosts(const AlignedPair &p, SharedMemoryPlan &sp,
                       const SideAccess &store, const SideAccess &load) {
  std::vector<uint64_t> mem(sp.memory.columns().begin(),
                            sp.memory.columns().end());
  const int line = lineBitsOf(p, sp.elementBytes);
  LK_TRY(SideCost st, sideCost(p.src, true, store, mem, line, sp.elementBytes));
  LK_TRY(SideCost ld, sideCost(p.dst, false, load, mem, line, sp.elementBytes));
  sp.storeInstructions = st.instructions;
  sp.storeWavefronts = st.wavefronts;
  sp.storeLowerBound = st.bound;
  sp.storeLemmaBits = st.lemma;
  sp.loadInstructions = ld.instructions;
  sp.loadWavefronts = ld.wavefronts;
  sp.loadLowerBound = ld.bound;
  sp.loadLemmaBits = ld.lemma;
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
    if (!l->isSurjective())
      return Diagnostic::error("layout does not cover the whole tensor: " +
                               l->str());
  }
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

/// The register bit of `l` whose column is `col`, or -1.
int regBitOf(const LinearLayout &l, uint64_t col) {
  Columns reg = dimColumns(l, dims::kRegister);
  for (size_t j = 0; j < reg.size(); ++j)
    if (reg[j] == col)
      return int(j);
  return -1;
}

/// Logical bits a plan may iterate over (PlanOptions::smemBudgetBytes):
/// register or warp bits of both layouts outside `excluded`, so that every
/// warp instruction of either side stays inside one iteration. Register
/// bits of both first, then register/warp mixes, then warp bits of both;
/// the highest logical bit first in each class.
std::vector<int> iterableBits(const AlignedPair &p, uint64_t excluded) {
  auto holder = [](const LinearLayout &l, int bit) {
    for (DimId d : {dims::kRegister, dims::kWarp}) {
      Columns c = dimColumns(l, d);
      if (std::find(c.begin(), c.end(), uint64_t(1) << bit) != c.end())
        return d == dims::kRegister ? 0 : 1;
    }
    return -1;
  };
  std::vector<std::pair<int, int>> ranked; // (class, -bit)
  for (int b = 0; b < p.src.totalOutBits(); ++b) {
    if (excluded >> b & 1)
      continue;
    int a = holder(p.src, b), d = holder(p.dst, b);
    if (a < 0 || d < 0)
      continue;
    ranked.push_back({a + d, -b});
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<int> bits;
  for (auto [cls, nb] : ranked)
    bits.push_back(-nb);
  return bits;
}

/// Builds the memory layout [low | Sub | BankWord | Idx | top] (Plan.h):
/// `low` the given lowest offset bits (vector or matrix row), Sub up to
/// `subCount` bits, Idx from span(Z) + span{x_j ^ y_j} of the conflict
/// groups gA, gB (Lemma 9.5), `top` the iteration then CTA bits as the
/// highest offset bits.
Expected<LinearLayout> buildMemory(const AlignedPair &p,
                                   std::span<const int> low, int subCount,
                                   uint64_t gA, uint64_t gB,
                                   std::span<const int> top, int line) {
  const int n = p.src.totalOutBits();
  uint64_t used = 0, topMask = 0;
  for (int b : low)
    used |= uint64_t(1) << b;
  for (int b : top)
    topMask |= uint64_t(1) << b;
  F2Basis basis;
  std::vector<uint64_t> cols;
  auto take = [&](uint64_t c) {
    if (!basis.add(c, uint64_t(1) << (cols.size() & 63)))
      return false;
    cols.push_back(c);
    return true;
  };
  for (int b : low)
    take(uint64_t(1) << b);

  // Sub: bits inside one 32-bit word; lanes that differ only there share
  // the word. Any choice keeps the conflict-free solution (Plan.h); lane bits
  // of both sides first.
  std::vector<int> subOrder;
  for (uint64_t pref : {gA & gB, (gA | gB) & ~(gA & gB), ~(gA | gB)})
    for (int b = 0; b < n; ++b)
      if ((pref >> b & 1) && !((used | topMask) >> b & 1))
        subOrder.push_back(b);
  std::vector<uint64_t> sub;
  for (int b : subOrder) {
    if (int(sub.size()) == subCount)
      break;
    sub.push_back(uint64_t(1) << b);
    used |= uint64_t(1) << b;
  }
  for (uint64_t c : sub)
    take(c);

  // Idx from span(Z) + span{x_j ^ y_j} (Lemma 9.5), Z first; the top bits
  // (not lane bits, so in Z) are forced to the highest offsets.
  uint64_t all = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  uint64_t free = all & ~used & ~topMask;
  uint64_t X = gA & ~gB & free, Y = gB & ~gA & free;
  uint64_t Z = free & ~(gA | gB);
  std::vector<uint64_t> idxCand;
  for (int b = n - 1; b >= 0; --b)
    if (Z >> b & 1)
      idxCand.push_back(uint64_t(1) << b);
  {
    std::vector<int> xs, ys;
    for (int b = 0; b < n; ++b) {
      if (X >> b & 1)
        xs.push_back(b);
      if (Y >> b & 1)
        ys.push_back(b);
    }
    for (size_t j = 0; j < std::min(xs.size(), ys.size()); ++j)
      idxCand.push_back((uint64_t(1) << xs[j]) | (uint64_t(1) << ys[j]));
  }
  // Fallback (conflicts unavoidable): any remaining bit, outer bits first.
  for (int b = n - 1; b >= 0; --b)
    if (free >> b & 1)
      idxCand.push_back(uint64_t(1) << b);
  const int idxCount = n - line - int(top.size());
  std::vector<uint64_t> idx;
  {
    F2Basis probe = basis;
    for (int b : top)
      probe.add(uint64_t(1) << b, 0);
    for (uint64_t c : idxCand) {
      if (int(idx.size()) == idxCount)
        break;
      if (probe.add(c, 0))
        idx.push_back(c);
    }
  }
  // BankWord completes low + Sub + Idx + top to a basis: lane bits first.
  {
    for (uint64_t c : idx)
      basis.add(c, 0);
    for (int b : top)
      basis.add(uint64_t(1) << b, 0);
    std::vector<uint64_t> bankCand;
    for (uint64_t pref : {gA, gB & ~gA, ~(gA | gB)})
      for (int b = 0; b < n; ++b)
        if (pref >> b & 1)
          bankCand.push_back(uint64_t(1) << b);
    for (uint64_t c : bankCand) {
      if (int(cols.size()) == line)
        break;
      if (basis.add(c, 0))
        cols.push_back(c);
    }
  }
  cols.insert(cols.end(), idx.begin(), idx.end());
  for (int b : top)
    cols.push_back(uint64_t(1) << b);
  if (int(cols.size()) != n)
    return Diagnostic::error("internal error: swizzle basis has " +
                             std::to_string(cols.size()) + " of " +
                             std::to_string(n) + " vectors");
  std::vector<DimSize> outs;
  for (int i = 0; i < p.src.numOutDims(); ++i)
    outs.push_back(p.src.outDim(i));
  DimSize off{dims::kOffset, n};
  return LinearLayout::fromColumns(std::span(&off, 1), outs, cols);
}

/// Assembles and costs a shared-memory plan for a given memory layout and
/// side accesses.
Expected<Plan> finishShared(const AlignedPair &p, int64_t elementBits,
                            LinearLayout mem, const SideAccess &store,
                            const SideAccess &load,
                            std::vector<int> iterationBits) {
  const int n = p.src.totalOutBits();
  SharedMemoryPlan sp;
  sp.memory = std::move(mem);
  sp.elementBytes = elementBits / 8;
  sp.ctaBits = ctaLogicalBits(p);
  // The vector of the st.shared / ld.shared side(s): the lowest offset
  // bits, each a register bit of every vector side.
  const SideAccess &vs = store.isMatrix() ? load : store;
  const int v = (store.isMatrix() && load.isMatrix()) ? 0 : vs.v();
  for (int j = 0; j < v; ++j) {
    uint64_t col = sp.memory.column(j);
    if (__builtin_popcountll(col) != 1)
      return Diagnostic::error("vector offset bit " + std::to_string(j) +
                               " is a swizzled column");
    sp.vecBits.push_back(__builtin_ctzll(col));
  }
  for (const SideAccess *s : {&store, &load}) {
    if (s->isMatrix())
      continue;
    if (s->v() != v)
      return Diagnostic::error("internal error: vector sides of different "
                               "widths");
    const LinearLayout &l = s == &store ? p.src : p.dst;
    for (int j = 0; j < v; ++j)
      if (l.column(s->vecRegBits[size_t(j)]) != sp.memory.column(j))
        return Diagnostic::error(
            "vector bit " + std::to_string(sp.vecBits[size_t(j)]) +
            " is not register bit " + std::to_string(s->vecRegBits[size_t(j)]) +
            " of the " + (s == &store ? "source" : "destination"));
  }
  if (!store.isMatrix())
    sp.srcVecRegBits = store.vecRegBits;
  if (!load.isMatrix())
    sp.dstVecRegBits = load.vecRegBits;
  sp.vectorElements = int64_t(1) << v;
  sp.accessBytes = sp.elementBytes << v;
  if (sp.accessBytes > 16)
    return Diagnostic::error("vector of " + std::to_string(sp.accessBytes) +
                             " bytes is wider than 16");
  const int logE = log2Floor(sp.elementBytes);
  const int line = lineBitsOf(p, sp.elementBytes);
  sp.subBits = subBitsOf(n, logE, v);
  sp.bankBits = line - v - sp.subBits;
  sp.idxBits = n - line;
  if (store.isMatrix() || load.isMatrix()) {
    if (elementBits != 16)
      return Diagnostic::error("ldmatrix/stmatrix move 16-bit elements, not " +
                               std::to_string(elementBits) + "-bit");
    for (int j = 0; j < 3; ++j)
      sp.rowBits.push_back(__builtin_ctzll(sp.memory.column(j)));
    int64_t count = store.isMatrix() ? store.matrix.count() : 16;
    if (load.isMatrix())
      count = std::min(count, load.matrix.count());
    sp.matrixCount = int(count);
    sp.subBits = 0;
    sp.bankBits = line - 3;
  }
  sp.stmatrixStore = store.isMatrix();
  sp.stmatrixTrans = store.isMatrix() && store.matrix.trans;
  sp.ldmatrixLoad = load.isMatrix();
  sp.ldmatrixTrans = load.isMatrix() && load.matrix.trans;
  SideAccess st = store, ld = load;
  // Both matrix sides issue the same matrix count.
  for (SideAccess *s : {&st, &ld})
    if (s->isMatrix())
      s->matrix.matrixRegBits.resize(size_t(log2Floor(sp.matrixCount)));
  if (st.isMatrix())
    sp.storeMatrix = st.matrix;
  if (ld.isMatrix())
    sp.loadMatrix = ld.matrix;
  // The top offset bits: iteration bits, then the CTA bits.
  for (size_t k = 0; k < sp.ctaBits.size(); ++k)
    if (sp.memory.column(n - int(sp.ctaBits.size()) + int(k)) !=
        uint64_t(1) << sp.ctaBits[k])
      return Diagnostic::error("the highest offset bits of the memory layout "
                               "must be the CTA bits");
  const int below = n - int(sp.ctaBits.size()) - int(iterationBits.size());
  for (size_t k = 0; k < iterationBits.size(); ++k)
    if (sp.memory.column(below + int(k)) != uint64_t(1) << iterationBits[k])
      return Diagnostic::error("internal error: iteration bits are not the "
                               "top offset bits");
  sp.iterationBits = std::move(iterationBits);
  sp.iterations = int64_t(1) << sp.iterationBits.size();
  sp.barriers = 2 * sp.iterations - 1;
  sp.bytes = sp.elementBytes << below;
  LK_CHECK(fillSharedCosts(p, sp, st, ld));

  Plan plan;
  plan.strategy = Strategy::SharedMemory;
  plan.layouts = p;
  plan.elementBits = elementBits;
  plan.cost.instructions =
      sp.storeInstructions + sp.loadInstructions + sp.registerCopies;
  plan.cost.registerMoves = sp.registerCopies;
  plan.cost.barriers = sp.barriers;
  plan.cost.wavefronts = sp.storeWavefronts + sp.loadWavefronts;
  plan.cost.smemBytes = sp.bytes;
  plan.cost.cycles = estimatedCycles(plan.cost);
  plan.smem = std::move(sp);
  return plan;
}

} // namespace

Expected<Plan> planSharedMemoryWith(const LinearLayout &src,
                                    const LinearLayout &dst,
                                    int64_t elementBits,
                                    const LinearLayout &memory,
                                    std::span<const int> vecBits) {
  LK_CHECK(checkElementBits(elementBits));
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  LK_CHECK(checkShareable(p));
  int n = p.src.totalOutBits();
  if (memory.numInDims() != 1 || memory.totalInBits() != n ||
      !memory.isInvertible())
    return Diagnostic::error("memory layout must be one invertible offset "
                             "dim over the tensor: " +
                             memory.str());
  std::vector<DimId> order;
  for (int i = 0; i < p.src.numOutDims(); ++i)
    order.push_back(p.src.outDim(i).id);
  LK_TRY(LinearLayout mem, memory.transposeOuts(order));
  for (int i = 0; i < mem.numOutDims(); ++i)
    if (mem.outDim(i) != p.src.outDim(i))
      return Diagnostic::error("memory layout has other output dims: " +
                               memory.str());
  if (int64_t(elementBits / 8) << vecBits.size() > 16)
    return Diagnostic::error(
        "vector of " +
        std::to_string(int64_t(elementBits / 8) << vecBits.size()) +
        " bytes is wider than 16");
  SideAccess store, load;
  for (size_t j = 0; j < vecBits.size(); ++j) {
    uint64_t col = uint64_t(1) << vecBits[j];
    int ra = regBitOf(p.src, col), rb = regBitOf(p.dst, col);
    if (ra < 0 || rb < 0 || mem.column(int(j)) != col)
      return Diagnostic::error("vector bit " + std::to_string(vecBits[j]) +
                               " is not a register bit of both layouts and "
                               "offset bit " +
                               std::to_string(j));
    store.vecRegBits.push_back(ra);
    load.vecRegBits.push_back(rb);
  }
  return finishShared(p, elementBits, mem, store, load, {});
}

namespace {

/// The plan for one choice of sides: picks the iteration bits for the
/// budget, builds the swizzle and costs it.
Expected<Plan> planCandidate(const AlignedPair &p, int64_t elementBits,
                             const PlanOptions &options, std::vector<int> low,
                             const SideAccess &store, const SideAccess &load,
                             uint64_t excluded) {
  const int n = p.src.totalOutBits();
  const int64_t eb = elementBits / 8;
  const int logE = log2Floor(eb);
  std::vector<int> cta = ctaLogicalBits(p);
  const int nCta = n - int(cta.size());
  const int line = lineBitsOf(p, eb);
  int v = (store.isMatrix() && load.isMatrix())
              ? 0
              : (store.isMatrix() ? load.v() : store.v());
  int subCount =
      (store.isMatrix() || load.isMatrix()) ? 0 : subBitsOf(n, logE, v);
  // Iterations for the budget.
  std::vector<int> iter;
  const int64_t full = eb << nCta;
  if (options.smemBudgetBytes < 0)
    return Diagnostic::error("shared-memory budget of " +
                             std::to_string(options.smemBudgetBytes) +
                             " bytes is negative");
  if (options.smemBudgetBytes > 0 && full > options.smemBudgetBytes) {
    for (int b : low)
      excluded |= uint64_t(1) << b;
    std::vector<int> can = iterableBits(p, excluded);
    // Iteration bits are taken from Idx (above the rows, Sub and BankWord
    // bits), so the buffer keeps at least one 128-byte row.
    int maxK = std::min(int(can.size()), std::max(0, nCta - line));
    int k = 0;
    while (k < maxK && (full >> k) > options.smemBudgetBytes)
      ++k;
    if ((full >> k) > options.smemBudgetBytes)
      return Diagnostic::error(
          "shared-memory budget of " + std::to_string(options.smemBudgetBytes) +
          " bytes is below the smallest legal buffer of " +
          std::to_string(full >> maxK) + " bytes (the " + std::to_string(full) +
          "-byte CTA tile over at most " + std::to_string(int64_t(1) << maxK) +
          " iterations: " + std::to_string(can.size()) +
          " logical bits are register or warp bits of both layouts outside "
          "the vectors and matrices, and a buffer keeps at least one "
          "128-byte row)");
    iter.assign(can.begin(), can.begin() + k);
    // Lowest iteration bit first in offset order: sort by position.
    std::sort(iter.begin(), iter.end());
  }
  std::vector<int> top = iter;
  top.insert(top.end(), cta.begin(), cta.end());
  LK_TRY(uint64_t gA, conflictGroupMask(p.src, store, eb));
  LK_TRY(uint64_t gB, conflictGroupMask(p.dst, load, eb));
  LK_TRY(LinearLayout mem, buildMemory(p, low, subCount, gA, gB, top, line));
  return finishShared(p, elementBits, mem, store, load, iter);
}

/// The vector side over the row bits `row` (offset order): the longest
/// prefix held in registers of `l`.
SideAccess vectorSideOver(const LinearLayout &l, std::span<const int> row) {
  SideAccess s;
  for (int b : row) {
    int r = regBitOf(l, uint64_t(1) << b);
    if (r < 0)
      break;
    s.vecRegBits.push_back(r);
  }
  return s;
}

bool better(const Plan &a, const Plan &b) {
  if (a.cost.instructions != b.cost.instructions)
    return a.cost.instructions < b.cost.instructions;
  return a.cost.wavefronts < b.cost.wavefronts;
}

} // namespace

Expected<Plan> planSharedMemory(const LinearLayout &src,
                                const LinearLayout &dst, int64_t elementBits) {
  return planSharedMemory(src, dst, elementBits, PlanOptions{});
}

Expected<Plan> planSharedMemory(const LinearLayout &src,
                                const LinearLayout &dst, int64_t elementBits,
                                const PlanOptions &options) {
  LK_CHECK(checkElementBits(elementBits));
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  LK_CHECK(checkShareable(p));
  const int64_t elementBytes = elementBits / 8;
  const int maxV = log2Floor(16 / elementBytes);

  // 1. Vec: logical bits held in registers by both layouts.
  Columns aReg = dimColumns(p.src, dims::kRegister);
  Columns bReg = dimColumns(p.dst, dims::kRegister);
  SideAccess store, load;
  std::vector<int> vec;
  for (size_t j = 0; j < aReg.size(); ++j) {
    uint64_t c = aReg[j];
    if (int(vec.size()) == maxV)
      break;
    auto it = c ? std::find(bReg.begin(), bReg.end(), c) : bReg.end();
    if (it != bReg.end()) {
      vec.push_back(__builtin_ctzll(c));
      store.vecRegBits.push_back(int(j));
      load.vecRegBits.push_back(int(it - bReg.begin()));
    }
  }
  LK_TRY(Plan best,
         planCandidate(p, elementBits, options, vec, store, load, 0));
  if (!options.matrixInstructions || elementBits != 16 ||
      p.src.inDimSize(dims::kLane) != 32)
    return best;

  // 2. Matrix candidates: each row set one side's matrix instruction can
  // take (plain: the half register and lane bits 0, 1; .trans: lane bits
  // 2-4), with the other side on the same rows when it fits, else vectors.
  const Plan baseline = best;
  struct Row {
    std::vector<int> bits;
  };
  std::vector<Row> rows;
  for (const LinearLayout *l : {&p.src, &p.dst}) {
    Columns lane = dimColumns(*l, dims::kLane);
    Columns reg = dimColumns(*l, dims::kRegister);
    if (lane[0] && lane[1])
      for (uint64_t r : reg)
        if (r)
          rows.push_back({{__builtin_ctzll(r), __builtin_ctzll(lane[0]),
                           __builtin_ctzll(lane[1])}});
    if (lane[2] && lane[3] && lane[4])
      rows.push_back({{__builtin_ctzll(lane[2]), __builtin_ctzll(lane[3]),
                       __builtin_ctzll(lane[4])}});
  }
  // The same row set from both layouts is one candidate (the first kept).
  for (size_t i = rows.size(); i-- > 0;)
    for (size_t j = 0; j < i; ++j)
      if (rows[j].bits == rows[i].bits) {
        rows.erase(rows.begin() + std::ptrdiff_t(i));
        break;
      }
  // Each candidate's instruction count is known before its swizzle is
  // built (sideInstructions), and a plan is only taken with fewer
  // instructions than the vector plan and, among those, by fewest
  // instructions first: so swizzles are built in that order and the search
  // stops at the first count above the best plan's. The result is the same
  // as building every candidate (ties keep the row order).
  struct Candidate {
    const Row *row;
    SideAccess sides[2];
    uint64_t excluded = 0;
    int64_t instructions = 0;
    int64_t bound = 0; ///< the wavefront lower bound (sideBound)
  };
  std::vector<Candidate> cands;
  const LinearLayout *ls[2] = {&p.src, &p.dst};
  const hw::Machine &target = hw::machine(options.arch);
  const int line = lineBitsOf(p, elementBytes);
  // Side 0 stores (stmatrix), side 1 loads (ldmatrix).
  const bool hasMatrix[2] = {target.hasStmatrix, target.hasLdmatrix};
  for (const Row &row : rows) {
    // Each side's choices over these rows: its matrix instruction (when it
    // fits them) and vectors (the longest prefix of the rows in its
    // registers). The matrix comes first when it moves more elements per
    // lane (2 * count against 2^v), so that ties keep it.
    std::vector<SideAccess> choices[2];
    for (int s = 0; s < 2; ++s) {
      SideAccess vecSide = vectorSideOver(*ls[s], row.bits);
      SideAccess matSide;
      for (bool trans : {false, true}) {
        if (!hasMatrix[s])
          break;
        MatrixAccess m;
        if (!matSide.isMatrix() &&
            fitMatrixRows(*ls[s], row.bits, trans, 2, m).why ==
                RowMismatch::None)
          matSide.matrix = std::move(m);
      }
      bool matrixFirst = matSide.isMatrix() && 2 * matSide.matrix.count() >
                                                   (int64_t(1) << vecSide.v());
      if (matrixFirst)
        choices[s].push_back(matSide);
      choices[s].push_back(vecSide);
      if (matSide.isMatrix() && !matrixFirst)
        choices[s].push_back(matSide);
    }
    for (const SideAccess &store : choices[0])
      for (const SideAccess &load : choices[1]) {
        if (!store.isMatrix() && !load.isMatrix())
          continue; // the vector plan's territory
        Candidate c{&row, {store, load}, 0, 0, 0};
        // Bits that must stay inside one instruction.
        for (int s = 0; s < 2; ++s)
          if (c.sides[s].isMatrix()) {
            c.excluded |= ls[s]->column(c.sides[s].matrix.halfRegBit);
            for (int b : c.sides[s].matrix.matrixRegBits)
              c.excluded |= ls[s]->column(b);
          }
        // Two matrix sides issue the smaller matrix count (finishShared).
        SideAccess st = store, ld = load;
        if (st.isMatrix() && ld.isMatrix()) {
          size_t k = std::min(st.matrix.matrixRegBits.size(),
                              ld.matrix.matrixRegBits.size());
          st.matrix.matrixRegBits.resize(k);
          ld.matrix.matrixRegBits.resize(k);
        }
        c.instructions = sideInstructions(p.src, true, st) +
                         sideInstructions(p.dst, false, ld);
        if (c.instructions >= baseline.smem->storeInstructions +
                                  baseline.smem->loadInstructions)
          continue;
        // A plan never beats its bound, so one whose bound is above the
        // vector plan's wavefronts cannot be taken.
        LK_TRY(int64_t sb, sideBound(p.src, true, st, line, elementBytes));
        LK_TRY(int64_t lb, sideBound(p.dst, false, ld, line, elementBytes));
        c.bound = sb + lb;
        if (c.bound <= baseline.cost.wavefronts ||
            options.exhaustiveMatrixSearch)
          cands.push_back(std::move(c));
      }
  }
  std::stable_sort(cands.begin(), cands.end(),
                   [](const Candidate &a, const Candidate &b) {
                     return a.instructions < b.instructions;
                   });
  bool found = false;
  for (const Candidate &c : cands) {
    if (found && !options.exhaustiveMatrixSearch) {
      if (c.instructions + baseline.smem->registerCopies >
          best.cost.instructions)
        break;
      // Same count: only strictly fewer wavefronts would win.
      if (c.bound >= best.cost.wavefronts)
        continue;
    }
    Expected<Plan> cand = planCandidate(p, elementBits, options, c.row->bits,
                                        c.sides[0], c.sides[1], c.excluded);
    if (!cand)
      continue;
    if (cand->cost.instructions < baseline.cost.instructions &&
        cand->cost.wavefronts <= baseline.cost.wavefronts &&
        better(*cand, best)) {
      best = std::move(*cand);
      found = true;
    }
  }
  return best;
}

// planWarpShuffle is in Shuffle.cpp.

Expected<Plan> planConversion(const LinearLayout &src, const LinearLayout &dst,
                              int64_t elementBits) {
  return planConversion(src, dst, elementBits, PlanOptions{});
}

Expected<Plan> planConversion(const LinearLayout &src, const LinearLayout &dst,
                              int64_t elementBits, const PlanOptions &options) {
  LK_CHECK(checkElementBits(elementBits));
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  if (p.src == p.dst) {
    Plan plan;
    plan.strategy = Strategy::NoOp;
    plan.layouts = p;
    plan.elementBits = elementBits;
    return plan;
  }
  if (auto srcs = registerSources(p)) {
    Plan plan;
    plan.strategy = Strategy::RegisterPermutation;
    plan.layouts = p;
    plan.elementBits = elementBits;
    plan.registerSource = std::move(*srcs);
    int64_t moves = 0;
    for (size_t r = 0; r < plan.registerSource.size(); ++r)
      moves += plan.registerSource[r] != int64_t(r);
    plan.cost.registerMoves = moves * p.dst.inDimSize(dims::kWarp);
    plan.cost.instructions = plan.cost.registerMoves;
    plan.cost.cycles = estimatedCycles(plan.cost);
    return plan;
  }
  return cheaperPlan(planWarpShuffle(src, dst, elementBits),
                     planSharedMemory(src, dst, elementBits, options));
}

} // namespace lk::plan
