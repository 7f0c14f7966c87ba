//===- Gather.cpp - Plans for a gather along one axis --------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Gather.h"

#include "F2.h"
#include "GatherWords.h"
#include "Preconditions.h"

#include "layoutkit/core/Checked.h"

#include <algorithm>
#include <array>
#include <optional>

namespace lk::plan {

using namespace detail;

using linear::DimId;
using linear::DimSize;
using linear::LinearLayout;
namespace dims = linear::dims;

std::string_view gatherStrategyName(GatherStrategy s) {
  switch (s) {
  case GatherStrategy::ThreadLocal:
    return "thread-local";
  case GatherStrategy::WarpShuffle:
    return "warp shuffle";
  case GatherStrategy::SharedMemory:
    return "shared memory";
  }
  return "?";
}

namespace {

/// Limits on what a plan lists and what the simulator allocates (real
/// layouts are far below them: 2^8 registers per thread, 2^10 threads).
constexpr int kMaxListedRoundsLog2 = 24;
constexpr int kMaxSimulatedBits = 24;

/// A source column with the flattened source input bit it belongs to.
struct Col {
  uint64_t value;
  uint64_t hwBit;
};

/// Solves "XOR of some of `cols` = target", preferring earlier columns; the
/// result is the XOR of the chosen columns' hardware bits.
std::optional<uint64_t> solve(std::span<const Col> cols, uint64_t target) {
  F2Basis e;
  for (const Col &c : cols)
    e.add(c.value, c.hwBit);
  uint64_t rest = target;
  uint64_t combo = e.reduce(rest);
  if (rest)
    return std::nullopt;
  return combo;
}

/// `l` with input dims exactly [register, lane, warp, block] and output dims
/// in the order `outs`.
Expected<LinearLayout> alignIns(const LinearLayout &l,
                                std::span<const DimSize> outs) {
  std::vector<DimSize> ins;
  std::vector<uint64_t> cols;
  for (DimId d : kHwDims) {
    Columns c = dimColumns(l, d);
    ins.push_back({d, int(c.size())});
    cols.insert(cols.end(), c.begin(), c.end());
  }
  return LinearLayout::fromColumns(ins, outs, cols);
}

/// The layouts a plan works on, with the bit positions it needs.
struct Geometry {
  const LinearLayout *src = nullptr, *index = nullptr;
  int axis = 0;
  int srcRegBits = 0, idxRegBits = 0, laneBits = 0, groupBits = 0;

  /// An index-layout output word with its axis bits dropped, re-packed into
  /// the source's output dims (off-axis dims have equal sizes).
  uint64_t offAxisToSrc(uint64_t word) const {
    return detail::offAxisToSrc(*src, *index, axis, word);
  }
  SourceLocation location(uint64_t srcHw) const {
    return {int64_t(srcHw & ((uint64_t(1) << srcRegBits) - 1)),
            int64_t((srcHw >> srcRegBits) & ((uint64_t(1) << laneBits) - 1))};
  }
};

/// The addressing of equation (1), or nullopt when the gather is not
/// warp-local (conditions (a)-(c) of Gather.h).
struct Addressing {
  std::vector<SourceLocation> fromIndex, fromReg, fromLane, fromWarp;
};

/// `threadFirst`: look for a thread-local solution (axis bits from
/// registers first, I's lanes matched by the same lane of S first).
/// Otherwise minimize the rounds: lanes first everywhere, so that register
/// parts appear only for bits no lane of S holds.
std::optional<Addressing> warpLocalAddressing(const Geometry &g,
                                              bool threadFirst) {
  const LinearLayout &s = *g.src, &ix = *g.index;
  std::vector<Col> reg, lane, regLane, laneReg;
  for (int j = 0; j < g.srcRegBits; ++j)
    reg.push_back({s.column(j), uint64_t(1) << j});
  for (int j = 0; j < g.laneBits; ++j)
    lane.push_back(
        {s.column(g.srcRegBits + j), uint64_t(1) << (g.srcRegBits + j)});
  regLane = reg;
  regLane.insert(regLane.end(), lane.begin(), lane.end());
  laneReg = lane;
  laneReg.insert(laneReg.end(), reg.begin(), reg.end());
  const std::vector<Col> &runtime = threadFirst ? regLane : laneReg;

  Addressing a;
  // (a) the axis bits, from registers and lanes only.
  int axisShift = s.outShift(g.axis);
  for (int i = 0; i < s.outDim(g.axis).log2; ++i) {
    auto hw = solve(runtime, uint64_t(1) << (axisShift + i));
    if (!hw)
      return std::nullopt;
    a.fromIndex.push_back(g.location(*hw));
  }
  // (b) register and lane columns of I, off the axis. A register term is a
  // compile-time constant, so its choice costs nothing: registers first.
  for (int j = 0; j < g.idxRegBits; ++j) {
    auto hw = solve(regLane, g.offAxisToSrc(ix.column(j)));
    if (!hw)
      return std::nullopt;
    a.fromReg.push_back(g.location(*hw));
  }
  for (int j = 0; j < g.laneBits; ++j) {
    uint64_t off = g.offAxisToSrc(ix.column(g.idxRegBits + j));
    uint64_t own = uint64_t(1) << (g.srcRegBits + j);
    // The reading lane itself, corrected by registers, when possible.
    if (threadFirst) {
      if (auto hw = solve(reg, off ^ s.column(g.srcRegBits + j))) {
        a.fromLane.push_back(g.location(*hw ^ own));
        continue;
      }
    }
    auto hw = solve(runtime, off);
    if (!hw)
      return std::nullopt;
    a.fromLane.push_back(g.location(*hw));
  }
  // (c) warp and block bits: the same warp, corrected by registers/lanes.
  for (int q = 0; q < g.groupBits; ++q) {
    uint64_t off = g.offAxisToSrc(ix.column(g.idxRegBits + g.laneBits + q));
    auto hw = solve(runtime, off ^ s.column(g.srcRegBits + g.laneBits + q));
    if (!hw)
      return std::nullopt;
    a.fromWarp.push_back(g.location(*hw));
  }
  return a;
}

bool isThreadLocal(const Addressing &a) {
  for (const SourceLocation &x : a.fromIndex)
    if (x.lane)
      return false;
  for (const SourceLocation &x : a.fromReg)
    if (x.lane)
      return false;
  for (const SourceLocation &x : a.fromWarp)
    if (x.lane)
      return false;
  for (size_t j = 0; j < a.fromLane.size(); ++j)
    if (a.fromLane[j].lane != int64_t(1) << j)
      return false;
  return true;
}

int popcount(uint64_t v) { return __builtin_popcountll(v); }

/// The geometry of a plan's aligned layouts.
Geometry geometryOf(const LinearLayout &src, const LinearLayout &index,
                    int axis) {
  Geometry g;
  g.src = &src;
  g.index = &index;
  g.axis = axis;
  g.srcRegBits = src.inDimLog2(dims::kRegister);
  g.idxRegBits = index.inDimLog2(dims::kRegister);
  g.laneBits = src.inDimLog2(dims::kLane);
  g.groupBits = src.inDimLog2(dims::kWarp) + src.inDimLog2(dims::kBlock);
  return g;
}

/// The output dims both layouts are aligned to: the source's, in order, with
/// the index's size on the gather axis.
struct GatherOuts {
  std::vector<DimId> order;
  std::vector<DimSize> srcOuts, idxOuts;
};

/// Fails unless planGather's inputs are a gather (Gather.h): a valid axis,
/// hardware input dims only, tensors of one rank that agree off the axis,
/// the same threads, at most 32 lanes and surjective layouts.
Expected<GatherOuts> checkGather(const LinearLayout &src,
                                 const LinearLayout &index, int axis) {
  const int rank = src.numOutDims();
  if (axis < 0 || axis >= rank)
    return Diagnostic::error("gather axis " + std::to_string(axis) +
                             " is out of range for a tensor of rank " +
                             std::to_string(rank));
  for (const auto &[l, what] :
       {std::pair{&src, "source"}, std::pair{&index, "index"}})
    for (int i = 0; i < l->numInDims(); ++i) {
      DimId d = l->inDim(i).id;
      if (std::find(kHwDims.begin(), kHwDims.end(), d) == kHwDims.end())
        return Diagnostic::error(std::string("cannot plan a gather on a ") +
                                 what + " layout with input dim '" +
                                 std::string(linear::dimName(d)) +
                                 "' (expected register, lane, warp, block)");
    }
  if (index.numOutDims() != rank)
    return Diagnostic::error(
        "the index tensor has rank " + std::to_string(index.numOutDims()) +
        " but the source has rank " + std::to_string(rank));
  GatherOuts o;
  for (int k = 0; k < rank; ++k) {
    DimSize d = src.outDim(k);
    if (!index.hasOutDim(d.id))
      return Diagnostic::error("the index layout has no output dim '" +
                               std::string(linear::dimName(d.id)) +
                               "' of the source: " + index.str());
    int64_t is = index.outDimSize(d.id);
    if (k != axis && is != d.size())
      return Diagnostic::error(
          "the index and source tensors differ off the gather axis: dim '" +
          std::string(linear::dimName(d.id)) + "' has size " +
          std::to_string(is) + " in the index and " + std::to_string(d.size()) +
          " in the source");
    o.order.push_back(d.id);
    o.srcOuts.push_back(d);
    o.idxOuts.push_back({d.id, index.outDimLog2(d.id)});
  }
  for (DimId d : {dims::kLane, dims::kWarp, dims::kBlock})
    if (src.inDimLog2(d) != index.inDimLog2(d))
      return Diagnostic::error(
          "the source and index layouts use different numbers of " +
          std::string(linear::dimName(d)) +
          "s: " + std::to_string(src.inDimSize(d)) + " vs " +
          std::to_string(index.inDimSize(d)));
  if (src.inDimSize(dims::kLane) > 32)
    return Diagnostic::error("a warp has at most 32 lanes; the layouts have " +
                             std::to_string(src.inDimSize(dims::kLane)));
  LK_CHECK(detail::checkCovers(src, "source"));
  LK_CHECK(detail::checkCovers(index, "index"));
  return o;
}

/// V, the span of the runtime register parts of `addr`, element by element
/// (0 first); output register r's rounds send base(r).reg ^ V.
Expected<std::vector<uint64_t>> roundSpan(const Addressing &addr,
                                          const Geometry &g) {
  F2Basis e;
  std::vector<uint64_t> spanBasis;
  for (const auto *v : {&addr.fromIndex, &addr.fromLane, &addr.fromWarp})
    for (const SourceLocation &x : *v)
      if (e.add(uint64_t(x.reg), 0))
        spanBasis.push_back(uint64_t(x.reg));
  // The plan lists every round of every output register.
  if (int(spanBasis.size()) + g.idxRegBits > kMaxListedRoundsLog2)
    return Diagnostic::error(
        "the gather plan would list 2^" + std::to_string(spanBasis.size()) +
        " shuffle rounds for each of 2^" + std::to_string(g.idxRegBits) +
        " output registers (at most 2^" + std::to_string(kMaxListedRoundsLog2) +
        " in all)");
  std::vector<uint64_t> span{0};
  for (uint64_t b : spanBasis) {
    size_t n = span.size();
    for (size_t i = 0; i < n; ++i)
      span.push_back(span[i] ^ b);
  }
  return span;
}

/// A thread-local or warp-shuffle plan from its addressing: the steps of
/// every output register and the cost.
Status planRegisterSteps(GatherPlan &plan, const Geometry &g,
                         const Addressing &addr) {
  plan.fromIndex = addr.fromIndex;
  plan.fromLane = addr.fromLane;
  plan.fromWarp = addr.fromWarp;
  LK_TRY(std::vector<uint64_t> span, roundSpan(addr, g));
  plan.roundsPerRegister = int64_t(span.size());
  const int64_t outRegs = plan.index.inDimSize(dims::kRegister);
  for (int64_t r = 0; r < outRegs; ++r) {
    GatherRegisterSteps st;
    st.outRegister = r;
    for (int j = 0; j < g.idxRegBits; ++j)
      if (r >> j & 1) {
        st.base.reg ^= addr.fromReg[size_t(j)].reg;
        st.base.lane ^= addr.fromReg[size_t(j)].lane;
      }
    for (uint64_t x : span)
      st.sendRegisters.push_back(st.base.reg ^ int64_t(x));
    std::sort(st.sendRegisters.begin(), st.sendRegisters.end());
    plan.steps.push_back(std::move(st));
  }
  const int64_t warps = plan.src.inDimSize(dims::kWarp);
  const int64_t words = plan.elementBits == 64 ? 2 : 1;
  const int64_t rounds = plan.roundsPerRegister;
  LK_TRY(int64_t perWarp, checkedMul(outRegs, rounds, "gather rounds"));
  LK_TRY(int64_t perCta, checkedMul(perWarp, warps, "gather rounds"));
  if (plan.strategy == GatherStrategy::WarpShuffle) {
    LK_TRY(plan.cost.shuffles, checkedMul(perCta, words, "gather shuffles"));
  }
  plan.cost.selects = rounds > 1 ? perCta : 0;
  return Ok{};
}

/// A shared-memory plan: the source stored once to a row-major buffer of
/// one CTA, one load per output register.
Status planSharedGather(GatherPlan &plan, const Geometry &g) {
  plan.strategy = GatherStrategy::SharedMemory;
  if (plan.src.inDimSize(dims::kBlock) > 1)
    return Diagnostic::error(
        "the gather needs data from other warps, and a shared-memory gather "
        "across CTAs (block dim of size " +
        std::to_string(plan.src.inDimSize(dims::kBlock)) +
        ") is not supported");
  const int64_t warps = plan.src.inDimSize(dims::kWarp);
  const int64_t outRegs = plan.index.inDimSize(dims::kRegister);
  auto free = plan.src.freeVariableMasks();
  int regKept = g.srcRegBits - popcount(free[0]);
  int warpKept = plan.src.inDimLog2(dims::kWarp) - popcount(free[2]);
  plan.cost.sharedStores = int64_t(1) << (regKept + warpKept);
  LK_TRY(plan.cost.sharedLoads, checkedMul(outRegs, warps, "gather loads"));
  plan.cost.barriers = 1;
  LK_TRY(plan.cost.smemBytes,
         checkedMul(plan.src.totalOutSize(), plan.elementBits / 8,
                    "gather buffer"));
  return Ok{};
}

} // namespace

std::string GatherPlan::describe() const {
  std::string r(gatherStrategyName(strategy));
  if (strategy == GatherStrategy::SharedMemory) {
    r += ": row-major buffer of " + std::to_string(cost.smemBytes) + " B, " +
         std::to_string(cost.sharedStores) + " stores, " +
         std::to_string(cost.barriers) + " barrier, " +
         std::to_string(cost.sharedLoads) + " loads";
    return r;
  }
  r += ": " + std::to_string(roundsPerRegister) +
       " round(s) per output register, " + std::to_string(cost.shuffles) +
       " shfl, " + std::to_string(cost.selects) + " selects";
  return r;
}

Expected<GatherPlan> planGather(const LinearLayout &src,
                                const LinearLayout &index, int axis,
                                int64_t elementBits) {
  LK_CHECK(detail::checkElementBits(elementBits));
  LK_TRY(GatherOuts outs, checkGather(src, index, axis));
  LK_TRY(LinearLayout idxOrdered, index.transposeOuts(outs.order));
  GatherPlan plan;
  LK_TRY(plan.src, alignIns(src, outs.srcOuts));
  LK_TRY(plan.index, alignIns(idxOrdered, outs.idxOuts));
  plan.axis = axis;
  plan.elementBits = elementBits;
  const Geometry g = geometryOf(plan.src, plan.index, axis);

  // A thread-local plan when one exists; otherwise the fewest rounds.
  std::optional<Addressing> addr = warpLocalAddressing(g, true);
  if (addr && isThreadLocal(*addr)) {
    plan.strategy = GatherStrategy::ThreadLocal;
  } else {
    addr = warpLocalAddressing(g, false);
    if (addr)
      plan.strategy = GatherStrategy::WarpShuffle;
  }
  if (addr) {
    LK_CHECK(planRegisterSteps(plan, g, *addr));
    return plan;
  }
  // Shared memory through a row-major buffer of the source.
  LK_CHECK(planSharedGather(plan, g));
  return plan;
}

namespace {

/// Fails unless `plan` is well formed and `indexValues` fit it: layouts of
/// one rank and the same threads, small enough to simulate, and one index
/// value per index element, each inside the source axis.
Status checkGatherSimulation(const GatherPlan &plan, const Geometry &g,
                             std::span<const int64_t> indexValues,
                             const hw::Machine &m) {
  const LinearLayout &s = plan.src, &ix = plan.index;
  if (ix.inDimLog2(dims::kLane) != g.laneBits ||
      ix.inDimLog2(dims::kWarp) + ix.inDimLog2(dims::kBlock) != g.groupBits)
    return Diagnostic::error("malformed gather plan: layouts of different "
                             "thread counts");
  for (const LinearLayout *l : {&s, &ix})
    if (l->totalInBits() > kMaxSimulatedBits ||
        l->totalOutBits() > kMaxSimulatedBits)
      return Diagnostic::error("the gather simulator runs up to 2^" +
                               std::to_string(kMaxSimulatedBits) +
                               " locations and elements per layout; " +
                               l->str() + " is larger");
  const int64_t axisSize = s.outDim(plan.axis).size();
  if ((int64_t(1) << g.laneBits) > m.warpSize)
    return Diagnostic::error("more lanes than the warp size");
  if (int64_t(indexValues.size()) != ix.totalOutSize())
    return Diagnostic::error(
        "the index tensor has " + std::to_string(ix.totalOutSize()) +
        " elements but " + std::to_string(indexValues.size()) +
        " index values were given");
  for (size_t p = 0; p < indexValues.size(); ++p)
    if (indexValues[p] < 0 || indexValues[p] >= axisSize)
      return Diagnostic::error("index value " + std::to_string(indexValues[p]) +
                               " at row-major position " + std::to_string(p) +
                               " is out of range of the source axis " +
                               std::to_string(plan.axis) + " (size " +
                               std::to_string(axisSize) + ")");
  return Ok{};
}

/// One simulated gather: the source registers (the element at row-major
/// position p holds p + 1), the output registers, and the strategies'
/// steps that fill them.
class GatherRun {
public:
  GatherRun(const GatherPlan &plan, const Geometry &g,
            std::span<const int64_t> indexValues, const hw::Machine &m)
      : plan_(plan), s_(plan.src), ix_(plan.index), g_(g),
        indexValues_(indexValues), m_(m), lanes_(int64_t(1) << g.laneBits),
        groups_(int64_t(1) << g.groupBits),
        srcRegs_(int64_t(1) << g.srcRegBits),
        outRegs_(int64_t(1) << g.idxRegBits),
        elementBytes_(plan.elementBits / 8),
        srcFile_(size_t(groups_ * lanes_ * srcRegs_)),
        out_(size_t(groups_ * lanes_ * outRegs_), 0) {
    for (int64_t grp = 0; grp < groups_; ++grp)
      for (int64_t l = 0; l < lanes_; ++l)
        for (int64_t r = 0; r < srcRegs_; ++r)
          srcAt(grp, l, r) =
              rowMajor(s_, s_.applyFlat(hwIndex(g_.srcRegBits, r, l, grp))) + 1;
  }

  /// Stores the source to a row-major buffer of the CTA, a barrier, one
  /// load per output register.
  Status runShared(GatherSimulation &res) {
    if (groups_ != int64_t(1) << s_.inDimLog2(dims::kWarp))
      return Diagnostic::error("a shared-memory gather runs in one CTA");
    std::vector<uint64_t> smem(size_t(s_.totalOutSize()), 0);
    auto free = s_.freeVariableMasks();
    std::vector<int64_t> addrs(static_cast<size_t>(lanes_), -1);
    for (int64_t w = 0; w < groups_; ++w) {
      if (uint64_t(w) & free[2])
        continue;
      for (int64_t r = 0; r < srcRegs_; ++r) {
        if (uint64_t(r) & free[0])
          continue;
        for (int64_t l = 0; l < lanes_; ++l) {
          if (uint64_t(l) & free[1]) {
            addrs[size_t(l)] = -1;
            continue;
          }
          int64_t p = int64_t(
              rowMajor(s_, s_.applyFlat(hwIndex(g_.srcRegBits, r, l, w))));
          addrs[size_t(l)] = p * elementBytes_;
          smem[size_t(p)] = srcAt(w, l, r);
        }
        LK_TRY(int64_t wf, m_.smem.wavefronts(addrs, elementBytes_));
        res.storeWavefronts += wf;
        ++res.sharedStores;
      }
    }
    ++res.barriers;
    for (int64_t w = 0; w < groups_; ++w)
      for (int64_t r = 0; r < outRegs_; ++r) {
        for (int64_t l = 0; l < lanes_; ++l) {
          int64_t p = int64_t(rowMajor(s_, wantedWord(w, l, r)));
          addrs[size_t(l)] = p * elementBytes_;
          outAt(w, l, r) = smem[size_t(p)];
        }
        LK_TRY(int64_t wf, m_.smem.wavefronts(addrs, elementBytes_));
        res.loadWavefronts += wf;
        ++res.sharedLoads;
      }
    return Ok{};
  }

  /// The thread-local and warp-shuffle strategies: each step's rounds for
  /// every warp.
  Status runRounds(GatherSimulation &res) {
    if (int64_t(plan_.steps.size()) != outRegs_ ||
        int64_t(plan_.fromIndex.size()) != s_.outDim(plan_.axis).log2 ||
        int64_t(plan_.fromLane.size()) != g_.laneBits ||
        int64_t(plan_.fromWarp.size()) != g_.groupBits)
      return Diagnostic::error("malformed gather plan: the addressing does "
                               "not match the layouts");
    for (int64_t grp = 0; grp < groups_; ++grp)
      for (const GatherRegisterSteps &st : plan_.steps)
        LK_CHECK(runStep(st, grp, res));
    return Ok{};
  }

  /// Compares every output register with the element it must hold.
  void verify(GatherSimulation &res) {
    for (int64_t grp = 0; grp < groups_; ++grp)
      for (int64_t l = 0; l < lanes_; ++l)
        for (int64_t r = 0; r < outRegs_; ++r) {
          ++res.checked;
          uint64_t want = rowMajor(s_, wantedWord(grp, l, r)) + 1;
          uint64_t got = outAt(grp, l, r);
          if (got != want) {
            if (!res.mismatches)
              res.firstMismatch =
                  "warp " + std::to_string(grp) + " lane " + std::to_string(l) +
                  " register " + std::to_string(r) + ": holds " +
                  std::to_string(int64_t(got) - 1) + ", wants " +
                  std::to_string(int64_t(want) - 1);
            ++res.mismatches;
          }
        }
    res.correct = res.mismatches == 0;
  }

private:
  uint64_t hwIndex(int regBits, int64_t r, int64_t l, int64_t grp) const {
    return uint64_t(r) | uint64_t(l) << regBits |
           uint64_t(grp) << (regBits + g_.laneBits);
  }
  uint64_t &srcAt(int64_t grp, int64_t l, int64_t r) {
    return srcFile_[size_t((grp * lanes_ + l) * srcRegs_ + r)];
  }
  uint64_t &outAt(int64_t grp, int64_t l, int64_t r) {
    return out_[size_t((grp * lanes_ + l) * outRegs_ + r)];
  }
  /// The runtime index output register r of (grp, l) reads.
  int64_t indexValueAt(int64_t grp, int64_t l, int64_t r) const {
    uint64_t word = ix_.applyFlat(hwIndex(g_.idxRegBits, r, l, grp));
    return indexValues_[size_t(rowMajor(ix_, word))];
  }
  /// The source element output register r of (grp, l) must hold.
  uint64_t wantedWord(int64_t grp, int64_t l, int64_t r) const {
    uint64_t word = ix_.applyFlat(hwIndex(g_.idxRegBits, r, l, grp));
    return g_.offAxisToSrc(word) | uint64_t(indexValueAt(grp, l, r))
                                       << s_.outShift(plan_.axis);
  }

  /// Where lane l of group grp reads output register st.outRegister from:
  /// equation (1) of Gather.h on its own index value.
  Expected<SourceLocation> sourceOf(const GatherRegisterSteps &st, int64_t grp,
                                    int64_t l) const {
    SourceLocation loc = st.base;
    auto addIn = [&](const std::vector<SourceLocation> &terms, uint64_t bits) {
      for (size_t i = 0; i < terms.size(); ++i)
        if (bits >> i & 1) {
          loc.reg ^= terms[i].reg;
          loc.lane ^= terms[i].lane;
        }
    };
    addIn(plan_.fromIndex, uint64_t(indexValueAt(grp, l, st.outRegister)));
    addIn(plan_.fromLane, uint64_t(l));
    addIn(plan_.fromWarp, uint64_t(grp));
    if (loc.lane < 0 || loc.lane >= lanes_ || loc.reg < 0 ||
        loc.reg >= srcRegs_)
      return Diagnostic::error("malformed gather plan: lane " +
                               std::to_string(l) + " computes source " +
                               "lane " + std::to_string(loc.lane) +
                               ", register " + std::to_string(loc.reg));
    if (plan_.strategy == GatherStrategy::ThreadLocal && loc.lane != l)
      return Diagnostic::error(
          "malformed gather plan: a thread-local plan has lane " +
          std::to_string(l) + " read from lane " + std::to_string(loc.lane));
    return loc;
  }

  /// The rounds of one output register in group grp: in each, every lane
  /// offers the round's register, then every lane reads its partner's.
  Status runStep(const GatherRegisterSteps &st, int64_t grp,
                 GatherSimulation &res) {
    const int64_t r = st.outRegister;
    if (r < 0 || r >= outRegs_)
      return Diagnostic::error("malformed gather plan: output register " +
                               std::to_string(r) + " out of range");
    std::vector<int64_t> partner(static_cast<size_t>(lanes_));
    std::vector<int64_t> wantedReg(static_cast<size_t>(lanes_));
    std::vector<uint64_t> offered(static_cast<size_t>(lanes_));
    for (int64_t l = 0; l < lanes_; ++l) {
      LK_TRY(SourceLocation loc, sourceOf(st, grp, l));
      partner[size_t(l)] = loc.lane;
      wantedReg[size_t(l)] = loc.reg;
    }
    const bool shuffle = plan_.strategy == GatherStrategy::WarpShuffle;
    const int64_t words = plan_.elementBits == 64 ? 2 : 1;
    for (int64_t send : st.sendRegisters) {
      if (send < 0 || send >= srcRegs_)
        return Diagnostic::error("malformed gather plan: round register " +
                                 std::to_string(send) + " out of range");
      for (int64_t l = 0; l < lanes_; ++l)
        offered[size_t(l)] = srcAt(grp, l, send);
      for (int64_t l = 0; l < lanes_; ++l) {
        uint64_t got =
            shuffle ? offered[size_t(partner[size_t(l)])] : offered[size_t(l)];
        if (wantedReg[size_t(l)] == send)
          outAt(grp, l, r) = got;
      }
      if (shuffle)
        res.shuffles += words;
      if (st.sendRegisters.size() > 1)
        ++res.selects;
    }
    return Ok{};
  }

  const GatherPlan &plan_;
  const LinearLayout &s_, &ix_;
  const Geometry g_;
  std::span<const int64_t> indexValues_;
  const hw::Machine &m_;
  const int64_t lanes_, groups_, srcRegs_, outRegs_, elementBytes_;
  std::vector<uint64_t> srcFile_, out_;
};

} // namespace

Expected<GatherSimulation> simulateGather(const GatherPlan &plan,
                                          std::span<const int64_t> indexValues,
                                          hw::Arch arch) {
  const LinearLayout &s = plan.src, &ix = plan.index;
  const hw::Machine &m = hw::machine(arch);
  if (s.numOutDims() != ix.numOutDims() || plan.axis < 0 ||
      plan.axis >= s.numOutDims())
    return Diagnostic::error("malformed gather plan: axis " +
                             std::to_string(plan.axis) + " of layouts " +
                             s.str() + " and " + ix.str());
  const Geometry g = geometryOf(s, ix, plan.axis);
  LK_CHECK(checkGatherSimulation(plan, g, indexValues, m));
  GatherRun run(plan, g, indexValues, m);
  GatherSimulation res;
  if (plan.strategy == GatherStrategy::SharedMemory) {
    LK_CHECK(run.runShared(res));
  } else {
    LK_CHECK(run.runRounds(res));
  }
  run.verify(res);
  return res;
}

} // namespace lk::plan
