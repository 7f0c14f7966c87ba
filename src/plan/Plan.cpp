//===- Plan.cpp - Layout-conversion planner ------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Plan.h"

#include "layoutkit/hw/Machine.h"
#include "layoutkit/linear/Analysis.h"

#include <algorithm>
#include <array>

namespace lk::plan {

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

constexpr std::array<DimId, 4> kHwDims = {dims::kRegister, dims::kLane,
                                          dims::kWarp, dims::kBlock};

/// The columns of input dim `d` (empty when absent).
std::vector<uint64_t> dimColumns(const LinearLayout &l, DimId d) {
  int i = l.inDimIndex(d);
  if (i < 0)
    return {};
  std::vector<uint64_t> c;
  for (int b = 0; b < l.inDim(i).log2; ++b)
    c.push_back(l.column(l.inShift(i) + b));
  return c;
}

/// Incremental Gaussian elimination over F2 that remembers, for each pivot
/// row, which original vectors it combines.
struct Basis {
  std::vector<uint64_t> rows, combos;
  /// Reduces v; returns the combination mask of the vectors used and leaves
  /// the remainder in v.
  uint64_t reduce(uint64_t &v) const {
    uint64_t combo = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      uint64_t top = uint64_t(1) << (63 - __builtin_clzll(rows[i]));
      if (v & top) {
        v ^= rows[i];
        combo ^= combos[i];
      }
    }
    return combo;
  }
  /// Adds vector number `index`; false (nothing added) when dependent.
  bool add(uint64_t v, int index) {
    uint64_t combo = reduce(v) ^ (uint64_t(1) << index);
    if (!v)
      return false;
    // Keep rows sorted by leading bit, descending, and reduced.
    rows.push_back(v);
    combos.push_back(combo);
    for (size_t i = rows.size() - 1; i > 0; --i) {
      if (rows[i] > rows[i - 1]) {
        std::swap(rows[i], rows[i - 1]);
        std::swap(combos[i], combos[i - 1]);
      }
    }
    // Re-reduce so that reduce() can scan in order.
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t j = i + 1; j < rows.size(); ++j) {
        uint64_t top = uint64_t(1) << (63 - __builtin_clzll(rows[j]));
        if (rows[i] & top) {
          rows[i] ^= rows[j];
          combos[i] ^= combos[j];
        }
      }
    return true;
  }
  bool contains(uint64_t v) const {
    reduce(v);
    return v == 0;
  }
  int rank() const { return int(rows.size()); }
};

int rankOf(std::span<const uint64_t> vs) {
  Basis b;
  int i = 0;
  for (uint64_t v : vs)
    b.add(v, (i++) & 63);
  return b.rank();
}

int log2Exact(int64_t v) { return 63 - __builtin_clzll(uint64_t(v)); }

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
  return rankOf(a) + rankOf(b) - rankOf(both);
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
      std::vector<uint64_t> c = dimColumns(l, d);
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
  std::vector<uint64_t> aReg = dimColumns(a, dims::kRegister);
  std::vector<uint64_t> bReg = dimColumns(b, dims::kRegister);
  Basis basis;
  for (size_t i = 0; i < aReg.size(); ++i)
    basis.add(aReg[i], int(i));
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

struct Geometry {
  int logE = 0, v = 0, sub = 0, bank = 0, idx = 0;
  int64_t accessBytes = 0;
};

Geometry geometry(int n, int64_t elementBytes, int v) {
  Geometry g;
  g.logE = log2Exact(elementBytes);
  g.v = v;
  g.accessBytes = elementBytes << v;
  int avail = n - v;
  g.sub = std::min(avail, std::max(0, 2 - g.logE - v));
  int bwFull = 5 - std::max(0, g.logE + v - 2);
  g.bank = std::min(bwFull, avail - g.sub);
  g.idx = avail - g.sub - g.bank;
  return g;
}

/// Fills the cost fields of a shared-memory plan from the memory layout:
/// instruction counts and the wavefront formula of Plan.h step 3.
Status fillSharedCosts(const AlignedPair &p, SharedMemoryPlan &sp,
                       const Geometry &g) {
  const hw::Machine &m = hw::machine(hw::Arch::Sm90);
  LK_TRY(hw::LaneGrouping grp, m.smem.grouping(g.accessBytes));
  std::vector<uint64_t> mem(sp.memory.columns().begin(),
                            sp.memory.columns().end());
  std::vector<uint64_t> w(mem.begin(), mem.begin() + g.v + g.sub);
  std::vector<uint64_t> wi = w;
  wi.insert(wi.end(), mem.begin() + g.v + g.sub + g.bank, mem.end());
  std::vector<uint64_t> vecIdx(mem.begin(), mem.begin() + g.v);
  vecIdx.insert(vecIdx.end(), mem.begin() + g.v + g.sub + g.bank, mem.end());
  int groupBits = log2Exact(grp.lanesPerGroup);
  auto side = [&](const LinearLayout &l, bool store, int64_t &instr,
                  int64_t &wf, int64_t &bound, int &lemma) {
    std::vector<uint64_t> reg = dimColumns(l, dims::kRegister);
    std::vector<uint64_t> lane = dimColumns(l, dims::kLane);
    std::vector<uint64_t> warp = dimColumns(l, dims::kWarp);
    int laneBits = int(lane.size());
    int64_t regVectors = int64_t(1) << (nonzeroCount(reg) - g.v);
    int64_t warps = store ? (int64_t(1) << nonzeroCount(warp))
                          : (int64_t(1) << warp.size());
    instr = regVectors * warps;
    std::vector<uint64_t> group, thr;
    for (int j = 0; j < laneBits; ++j) {
      if (!lane[j])
        continue;
      thr.push_back(lane[j]);
      if (j < groupBits)
        group.push_back(lane[j]);
    }
    int kg = intersectionDim(group, wi) - intersectionDim(group, w);
    // Lane groups that issue anything: on the store, lanes holding only
    // duplicates are inactive, so a zero column above the group bits leaves
    // whole groups idle (0 wavefronts); every lane loads.
    int64_t groups = 1;
    for (int j = groupBits; j < laneBits; ++j)
      if (!store || lane[j])
        groups *= 2;
    wf = instr * groups * (int64_t(1) << kg);
    lemma = intersectionDim(vecIdx, thr);
    // Per instruction, every active group takes a wavefront, and Lemma 9.4
    // with the fewest possible Idx/Thr overlap gives 2^max(0, |Thr| - b).
    int tb = std::max(0, int(thr.size()) - (g.sub + g.bank));
    bound = instr * std::max<int64_t>(groups, int64_t(1) << tb);
  };
  side(p.src, true, sp.storeInstructions, sp.storeWavefronts,
       sp.storeLowerBound, sp.storeLemmaBits);
  side(p.dst, false, sp.loadInstructions, sp.loadWavefronts, sp.loadLowerBound,
       sp.loadLemmaBits);
  std::vector<uint64_t> bReg = dimColumns(p.dst, dims::kRegister);
  sp.registerCopies = ((int64_t(1) << bReg.size()) -
                       (int64_t(1) << nonzeroCount(bReg))) *
                      p.dst.inDimSize(dims::kWarp);
  return Ok{};
}

Status checkShareable(const AlignedPair &p) {
  for (const LinearLayout *l : {&p.src, &p.dst}) {
    if (!linear::isDistributed(*l))
      return Diagnostic::error(
          "the shared-memory plan needs distributed layouts; not: " +
          l->str());
    if (!l->isSurjective())
      return Diagnostic::error("layout does not cover the whole tensor: " +
                               l->str());
  }
  if (p.src.inDimSize(dims::kBlock) > 1)
    return Diagnostic::error("conversions across CTAs (block dim of size " +
                             std::to_string(p.src.inDimSize(dims::kBlock)) +
                             ") are not planned yet");
  return Ok{};
}

/// The register bit of `l` whose column is `col`, or -1.
int regBitOf(const LinearLayout &l, uint64_t col) {
  std::vector<uint64_t> reg = dimColumns(l, dims::kRegister);
  for (size_t j = 0; j < reg.size(); ++j)
    if (reg[j] == col)
      return int(j);
  return -1;
}

Plan finishShared(const AlignedPair &p, int64_t elementBits,
                  SharedMemoryPlan sp) {
  Plan plan;
  plan.strategy = Strategy::SharedMemory;
  plan.layouts = p;
  plan.elementBits = elementBits;
  plan.cost.instructions =
      sp.storeInstructions + sp.loadInstructions + sp.registerCopies;
  plan.cost.registerMoves = sp.registerCopies;
  plan.cost.barriers = 1;
  plan.cost.wavefronts = sp.storeWavefronts + sp.loadWavefronts;
  plan.cost.smemBytes = sp.bytes;
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
  SharedMemoryPlan sp;
  sp.memory = mem;
  sp.elementBytes = elementBits / 8;
  Geometry g = geometry(n, sp.elementBytes, int(vecBits.size()));
  if (g.accessBytes > 16)
    return Diagnostic::error("vector of " + std::to_string(g.accessBytes) +
                             " bytes is wider than 16");
  for (size_t j = 0; j < vecBits.size(); ++j) {
    uint64_t col = uint64_t(1) << vecBits[j];
    int ra = regBitOf(p.src, col), rb = regBitOf(p.dst, col);
    if (ra < 0 || rb < 0 || mem.column(int(j)) != col)
      return Diagnostic::error("vector bit " + std::to_string(vecBits[j]) +
                               " is not a register bit of both layouts and "
                               "offset bit " +
                               std::to_string(j));
    sp.vecBits.push_back(vecBits[j]);
    sp.srcVecRegBits.push_back(ra);
    sp.dstVecRegBits.push_back(rb);
  }
  sp.vectorElements = int64_t(1) << g.v;
  sp.accessBytes = g.accessBytes;
  sp.subBits = g.sub;
  sp.bankBits = g.bank;
  sp.idxBits = g.idx;
  sp.bytes = sp.elementBytes << n;
  LK_CHECK(fillSharedCosts(p, sp, g));
  return finishShared(p, elementBits, std::move(sp));
}

Expected<Plan> planSharedMemory(const LinearLayout &src,
                                const LinearLayout &dst, int64_t elementBits) {
  LK_CHECK(checkElementBits(elementBits));
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  LK_CHECK(checkShareable(p));
  const int n = p.src.totalOutBits();
  const int64_t elementBytes = elementBits / 8;
  const int maxV = log2Exact(16 / elementBytes);

  // 1. Vec: logical bits held in registers by both layouts.
  std::vector<uint64_t> aReg = dimColumns(p.src, dims::kRegister);
  std::vector<uint64_t> bReg = dimColumns(p.dst, dims::kRegister);
  std::vector<int> vec;
  for (uint64_t c : aReg) {
    if (int(vec.size()) == maxV)
      break;
    if (c && std::find(bReg.begin(), bReg.end(), c) != bReg.end())
      vec.push_back(__builtin_ctzll(c));
  }
  Geometry g = geometry(n, elementBytes, int(vec.size()));
  const hw::Machine &m = hw::machine(hw::Arch::Sm90);
  LK_TRY(hw::LaneGrouping grp, m.smem.grouping(g.accessBytes));
  int groupBits = log2Exact(grp.lanesPerGroup);

  // Lane-group bits of each side (logical bit masks).
  auto groupMask = [&](const LinearLayout &l) {
    uint64_t mask = 0;
    std::vector<uint64_t> lane = dimColumns(l, dims::kLane);
    for (int j = 0; j < int(lane.size()) && j < groupBits; ++j)
      mask |= lane[j];
    return mask;
  };
  uint64_t gA = groupMask(p.src), gB = groupMask(p.dst);
  uint64_t used = 0;
  for (int b : vec)
    used |= uint64_t(1) << b;

  Basis basis;
  std::vector<uint64_t> cols;
  auto take = [&](uint64_t c) {
    if (!basis.add(c, int(cols.size()) & 63))
      return false;
    cols.push_back(c);
    return true;
  };
  for (int b : vec)
    take(uint64_t(1) << b);

  // 2. Sub: bits inside one 32-bit word; lanes that differ only there share
  // the word. Any choice keeps the conflict-free solution (Plan.h); lane bits
  // of both sides first.
  std::vector<int> subOrder;
  for (uint64_t pref : {gA & gB, (gA | gB) & ~(gA & gB), ~(gA | gB)})
    for (int b = 0; b < n; ++b)
      if ((pref >> b & 1) && !(used >> b & 1))
        subOrder.push_back(b);
  std::vector<uint64_t> sub;
  for (int b : subOrder) {
    if (int(sub.size()) == g.sub)
      break;
    sub.push_back(uint64_t(1) << b);
    used |= uint64_t(1) << b;
  }
  for (uint64_t c : sub)
    take(c);

  // 3. Idx from span(Z) + span{x_j ^ y_j} (Lemma 9.5), Z first.
  uint64_t all = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  uint64_t free = all & ~used;
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
  std::vector<uint64_t> idx;
  {
    Basis probe = basis;
    for (uint64_t c : idxCand) {
      if (int(idx.size()) == g.idx)
        break;
      if (probe.add(c, 0))
        idx.push_back(c);
    }
  }
  // 4. BankWord completes Vec + Sub + Idx to a basis: lane bits first.
  {
    for (uint64_t c : idx)
      basis.add(c, 0);
    std::vector<uint64_t> bankCand;
    for (uint64_t pref : {gA, gB & ~gA, ~(gA | gB)})
      for (int b = 0; b < n; ++b)
        if (pref >> b & 1)
          bankCand.push_back(uint64_t(1) << b);
    for (uint64_t c : bankCand) {
      if (int(cols.size()) == g.v + g.sub + g.bank)
        break;
      if (basis.add(c, 0))
        cols.push_back(c);
    }
  }
  cols.insert(cols.end(), idx.begin(), idx.end());
  if (int(cols.size()) != n)
    return Diagnostic::error("internal error: swizzle basis has " +
                             std::to_string(cols.size()) + " of " +
                             std::to_string(n) + " vectors");
  std::vector<DimSize> outs;
  for (int i = 0; i < p.src.numOutDims(); ++i)
    outs.push_back(p.src.outDim(i));
  DimSize off{dims::kOffset, n};
  LK_TRY(LinearLayout mem,
         LinearLayout::fromColumns(std::span(&off, 1), outs, cols));
  return planSharedMemoryWith(p.src, p.dst, elementBits, mem, vec);
}

Expected<Plan> planWarpShuffle(const LinearLayout &src, const LinearLayout &dst,
                               int64_t elementBits) {
  LK_CHECK(checkElementBits(elementBits));
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  for (DimId d : {dims::kWarp, dims::kBlock})
    if (dimColumns(p.src, d) != dimColumns(p.dst, d))
      return Diagnostic::error("data moves between " +
                               std::string(linear::dimName(d)) +
                               "s: warp shuffles cannot convert " +
                               p.src.str() + " to " + p.dst.str());
  if (!p.src.isSurjective())
    return Diagnostic::error("source layout does not cover the tensor: " +
                             p.src.str());
  LK_TRY(LinearLayout c, p.dst.invertAndCompose(p.src));
  const int64_t lanes = p.dst.inDimSize(dims::kLane);
  const int64_t regs = p.dst.inDimSize(dims::kRegister);
  const int laneShift = p.dst.inShift(1);
  // c's outputs are the aligned source's input dims, in order.
  const int srcRegBits = p.src.inDimLog2(dims::kRegister);
  const int srcLaneShift = c.outShift(c.outDimIndex(dims::kLane));
  const uint64_t srcRegMask = (uint64_t(1) << srcRegBits) - 1;
  Plan plan;
  plan.strategy = Strategy::WarpShuffle;
  plan.layouts = p;
  plan.elementBits = elementBits;
  for (int64_t r = 0; r < regs; ++r) {
    std::vector<int64_t> sendReg(static_cast<size_t>(lanes)),
        from(static_cast<size_t>(lanes));
    for (int64_t l = 0; l < lanes; ++l) {
      uint64_t at = c.applyFlat(uint64_t(r) | uint64_t(l) << laneShift);
      sendReg[size_t(l)] = int64_t(at & srcRegMask);
      from[size_t(l)] = int64_t(at >> srcLaneShift) & (lanes - 1);
      if (at >> srcLaneShift >= uint64_t(lanes))
        return Diagnostic::error("internal error: source outside the warp");
    }
    std::vector<int64_t> distinct = sendReg;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()),
                   distinct.end());
    for (int64_t s : distinct) {
      ShuffleRound round;
      round.dstRegister = r;
      round.sendRegister = s;
      round.srcLane = from;
      round.keep.resize(size_t(lanes));
      for (int64_t l = 0; l < lanes; ++l)
        round.keep[size_t(l)] = sendReg[size_t(l)] == s;
      plan.rounds.push_back(std::move(round));
    }
  }
  int64_t warps = p.dst.inDimSize(dims::kWarp);
  plan.cost.shuffles = int64_t(plan.rounds.size()) * warps;
  plan.cost.instructions = plan.cost.shuffles;
  return plan;
}

Expected<Plan> planConversion(const LinearLayout &src, const LinearLayout &dst,
                              int64_t elementBits) {
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
    return plan;
  }
  return planSharedMemory(src, dst, elementBits);
}

} // namespace lk::plan
