//===- Gather.cpp - Plans for a gather along one axis --------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Gather.h"

#include "F2.h"

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

Status checkElementBits(int64_t elementBits) {
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 &&
      elementBits != 64)
    return Diagnostic::error("element width " + std::to_string(elementBits) +
                             " bits is not supported (allowed: 8, 16, 32, 64)");
  return Ok{};
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
    uint64_t r = 0;
    for (int k = 0; k < src->numOutDims(); ++k) {
      if (k == axis)
        continue;
      int w = src->outDim(k).log2;
      uint64_t bits = (word >> index->outShift(k)) & ((uint64_t(1) << w) - 1);
      r |= bits << src->outShift(k);
    }
    return r;
  }
  SourceLocation location(uint64_t srcHw) const {
    return {int64_t(srcHw & ((uint64_t(1) << srcRegBits) - 1)),
            int64_t((srcHw >> srcRegBits) & ((uint64_t(1) << laneBits) - 1))};
  }
};

/// Row-major position of an output word of `l` (dim0 slowest).
int64_t rowMajor(const LinearLayout &l, uint64_t word) {
  int64_t p = 0;
  for (int k = 0; k < l.numOutDims(); ++k) {
    DimSize d = l.outDim(k);
    p = p * d.size() +
        int64_t((word >> l.outShift(k)) & ((uint64_t(1) << d.log2) - 1));
  }
  return p;
}

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
  LK_CHECK(checkElementBits(elementBits));
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
  std::vector<DimId> order;
  std::vector<DimSize> srcOuts, idxOuts;
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
    order.push_back(d.id);
    srcOuts.push_back(d);
    idxOuts.push_back({d.id, index.outDimLog2(d.id)});
  }
  for (DimId d : {dims::kLane, dims::kWarp, dims::kBlock})
    if (src.inDimSize(d) != index.inDimSize(d))
      return Diagnostic::error(
          "the source and index layouts use different numbers of " +
          std::string(linear::dimName(d)) +
          "s: " + std::to_string(src.inDimSize(d)) + " vs " +
          std::to_string(index.inDimSize(d)));
  if (src.inDimSize(dims::kLane) > 32)
    return Diagnostic::error("a warp has at most 32 lanes; the layouts have " +
                             std::to_string(src.inDimSize(dims::kLane)));
  if (!src.isSurjective())
    return Diagnostic::error(
        "the source layout does not hold every element of its tensor: " +
        src.str());
  if (!index.isSurjective())
    return Diagnostic::error(
        "the index layout does not hold every element of its tensor: " +
        index.str());

  LK_TRY(LinearLayout idxOrdered, index.transposeOuts(order));
  GatherPlan plan;
  LK_TRY(plan.src, alignIns(src, srcOuts));
  LK_TRY(plan.index, alignIns(idxOrdered, idxOuts));
  plan.axis = axis;
  plan.elementBits = elementBits;

  Geometry g;
  g.src = &plan.src;
  g.index = &plan.index;
  g.axis = axis;
  g.srcRegBits = plan.src.inDimLog2(dims::kRegister);
  g.idxRegBits = plan.index.inDimLog2(dims::kRegister);
  g.laneBits = plan.src.inDimLog2(dims::kLane);
  g.groupBits =
      plan.src.inDimLog2(dims::kWarp) + plan.src.inDimLog2(dims::kBlock);

  const int64_t warps = plan.src.inDimSize(dims::kWarp);
  const int64_t outRegs = plan.index.inDimSize(dims::kRegister);
  const int64_t words = elementBits == 64 ? 2 : 1;

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
    plan.fromIndex = addr->fromIndex;
    plan.fromLane = addr->fromLane;
    plan.fromWarp = addr->fromWarp;
    // The runtime register parts span V; output register r's candidates
    // are base(r).reg ^ V.
    F2Basis e;
    std::vector<uint64_t> spanBasis;
    for (const auto *v : {&addr->fromIndex, &addr->fromLane, &addr->fromWarp})
      for (const SourceLocation &x : *v) {
        uint64_t rest = uint64_t(x.reg);
        e.reduce(rest);
        if (!rest)
          continue;
        e.add(uint64_t(x.reg), 0);
        spanBasis.push_back(uint64_t(x.reg));
      }
    // The plan lists every round of every output register.
    if (int(spanBasis.size()) + g.idxRegBits > kMaxListedRoundsLog2)
      return Diagnostic::error(
          "the gather plan would list 2^" + std::to_string(spanBasis.size()) +
          " shuffle rounds for each of 2^" + std::to_string(g.idxRegBits) +
          " output registers (at most 2^" +
          std::to_string(kMaxListedRoundsLog2) + " in all)");
    std::vector<uint64_t> span{0};
    for (uint64_t b : spanBasis) {
      size_t n = span.size();
      for (size_t i = 0; i < n; ++i)
        span.push_back(span[i] ^ b);
    }
    plan.roundsPerRegister = int64_t(span.size());
    for (int64_t r = 0; r < outRegs; ++r) {
      GatherRegisterSteps st;
      st.outRegister = r;
      for (int j = 0; j < g.idxRegBits; ++j)
        if (r >> j & 1) {
          st.base.reg ^= addr->fromReg[size_t(j)].reg;
          st.base.lane ^= addr->fromReg[size_t(j)].lane;
        }
      for (uint64_t x : span)
        st.sendRegisters.push_back(st.base.reg ^ int64_t(x));
      std::sort(st.sendRegisters.begin(), st.sendRegisters.end());
      plan.steps.push_back(std::move(st));
    }
    const int64_t rounds = plan.roundsPerRegister;
    LK_TRY(int64_t perWarp, checkedMul(outRegs, rounds, "gather rounds"));
    LK_TRY(int64_t perCta, checkedMul(perWarp, warps, "gather rounds"));
    if (plan.strategy == GatherStrategy::WarpShuffle) {
      LK_TRY(plan.cost.shuffles, checkedMul(perCta, words, "gather shuffles"));
    }
    plan.cost.selects = rounds > 1 ? perCta : 0;
    return plan;
  }

  // Shared memory through a row-major buffer of the source.
  plan.strategy = GatherStrategy::SharedMemory;
  if (plan.src.inDimSize(dims::kBlock) > 1)
    return Diagnostic::error(
        "the gather needs data from other warps, and a shared-memory gather "
        "across CTAs (block dim of size " +
        std::to_string(plan.src.inDimSize(dims::kBlock)) +
        ") is not supported");
  auto free = plan.src.freeVariableMasks();
  int regKept = g.srcRegBits - popcount(free[0]);
  int warpKept = plan.src.inDimLog2(dims::kWarp) - popcount(free[2]);
  plan.cost.sharedStores = int64_t(1) << (regKept + warpKept);
  LK_TRY(plan.cost.sharedLoads, checkedMul(outRegs, warps, "gather loads"));
  plan.cost.barriers = 1;
  LK_TRY(plan.cost.smemBytes,
         checkedMul(plan.src.totalOutSize(), elementBits / 8, "gather buffer"));
  return plan;
}

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
  Geometry g;
  g.src = &s;
  g.index = &ix;
  g.axis = plan.axis;
  g.srcRegBits = s.inDimLog2(dims::kRegister);
  g.idxRegBits = ix.inDimLog2(dims::kRegister);
  g.laneBits = s.inDimLog2(dims::kLane);
  g.groupBits = s.inDimLog2(dims::kWarp) + s.inDimLog2(dims::kBlock);
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
  const int64_t lanes = int64_t(1) << g.laneBits;
  const int64_t groups = int64_t(1) << g.groupBits; // warps x blocks
  const int64_t srcRegs = int64_t(1) << g.srcRegBits;
  const int64_t outRegs = int64_t(1) << g.idxRegBits;
  const int64_t axisSize = s.outDim(plan.axis).size();
  const int64_t elementBytes = plan.elementBits / 8;
  if (lanes > m.warpSize)
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

  auto hwIndex = [](int regBits, int laneBits, int64_t r, int64_t l,
                    int64_t grp) {
    return uint64_t(r) | uint64_t(l) << regBits |
           uint64_t(grp) << (regBits + laneBits);
  };
  // Source registers: element at row-major position p holds p + 1.
  std::vector<uint64_t> srcFile(size_t(groups * lanes * srcRegs));
  auto srcAt = [&](int64_t grp, int64_t l, int64_t r) -> uint64_t & {
    return srcFile[size_t((grp * lanes + l) * srcRegs + r)];
  };
  for (int64_t grp = 0; grp < groups; ++grp)
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < srcRegs; ++r)
        srcAt(grp, l, r) =
            uint64_t(rowMajor(
                s, s.applyFlat(hwIndex(g.srcRegBits, g.laneBits, r, l, grp)))) +
            1;
  // What each output register must hold, and the runtime index it reads.
  auto indexValueAt = [&](int64_t grp, int64_t l, int64_t r) {
    uint64_t word = ix.applyFlat(hwIndex(g.idxRegBits, g.laneBits, r, l, grp));
    return indexValues[size_t(rowMajor(ix, word))];
  };
  auto wantedWord = [&](int64_t grp, int64_t l, int64_t r) {
    uint64_t word = ix.applyFlat(hwIndex(g.idxRegBits, g.laneBits, r, l, grp));
    return g.offAxisToSrc(word) | uint64_t(indexValueAt(grp, l, r))
                                      << s.outShift(plan.axis);
  };

  GatherSimulation res;
  std::vector<uint64_t> out(size_t(groups * lanes * outRegs), 0);
  auto outAt = [&](int64_t grp, int64_t l, int64_t r) -> uint64_t & {
    return out[size_t((grp * lanes + l) * outRegs + r)];
  };

  if (plan.strategy == GatherStrategy::SharedMemory) {
    if (groups != int64_t(1) << s.inDimLog2(dims::kWarp))
      return Diagnostic::error("a shared-memory gather runs in one CTA");
    std::vector<uint64_t> smem(size_t(s.totalOutSize()), 0);
    auto free = s.freeVariableMasks();
    std::vector<int64_t> addrs(static_cast<size_t>(lanes), -1);
    for (int64_t w = 0; w < groups; ++w) {
      if (uint64_t(w) & free[2])
        continue;
      for (int64_t r = 0; r < srcRegs; ++r) {
        if (uint64_t(r) & free[0])
          continue;
        for (int64_t l = 0; l < lanes; ++l) {
          if (uint64_t(l) & free[1]) {
            addrs[size_t(l)] = -1;
            continue;
          }
          int64_t p = rowMajor(
              s, s.applyFlat(hwIndex(g.srcRegBits, g.laneBits, r, l, w)));
          addrs[size_t(l)] = p * elementBytes;
          smem[size_t(p)] = srcAt(w, l, r);
        }
        LK_TRY(int64_t wf, m.smem.wavefronts(addrs, elementBytes));
        res.storeWavefronts += wf;
        ++res.sharedStores;
      }
    }
    ++res.barriers;
    for (int64_t w = 0; w < groups; ++w)
      for (int64_t r = 0; r < outRegs; ++r) {
        for (int64_t l = 0; l < lanes; ++l) {
          int64_t p = rowMajor(s, wantedWord(w, l, r));
          addrs[size_t(l)] = p * elementBytes;
          outAt(w, l, r) = smem[size_t(p)];
        }
        LK_TRY(int64_t wf, m.smem.wavefronts(addrs, elementBytes));
        res.loadWavefronts += wf;
        ++res.sharedLoads;
      }
  } else {
    if (int64_t(plan.steps.size()) != outRegs ||
        int64_t(plan.fromIndex.size()) != s.outDim(plan.axis).log2 ||
        int64_t(plan.fromLane.size()) != g.laneBits ||
        int64_t(plan.fromWarp.size()) != g.groupBits)
      return Diagnostic::error("malformed gather plan: the addressing does "
                               "not match the layouts");
    const int64_t words = plan.elementBits == 64 ? 2 : 1;
    std::vector<int64_t> partner(static_cast<size_t>(lanes));
    std::vector<int64_t> wantedReg(static_cast<size_t>(lanes));
    std::vector<uint64_t> offered(static_cast<size_t>(lanes));
    for (int64_t grp = 0; grp < groups; ++grp)
      for (const GatherRegisterSteps &st : plan.steps) {
        const int64_t r = st.outRegister;
        if (r < 0 || r >= outRegs)
          return Diagnostic::error("malformed gather plan: output register " +
                                   std::to_string(r) + " out of range");
        // Each lane evaluates equation (1) on its own index value.
        for (int64_t l = 0; l < lanes; ++l) {
          SourceLocation loc = st.base;
          auto addIn = [&](const std::vector<SourceLocation> &terms,
                           uint64_t bits) {
            for (size_t i = 0; i < terms.size(); ++i)
              if (bits >> i & 1) {
                loc.reg ^= terms[i].reg;
                loc.lane ^= terms[i].lane;
              }
          };
          addIn(plan.fromIndex, uint64_t(indexValueAt(grp, l, r)));
          addIn(plan.fromLane, uint64_t(l));
          addIn(plan.fromWarp, uint64_t(grp));
          if (loc.lane < 0 || loc.lane >= lanes || loc.reg < 0 ||
              loc.reg >= srcRegs)
            return Diagnostic::error("malformed gather plan: lane " +
                                     std::to_string(l) + " computes source " +
                                     "lane " + std::to_string(loc.lane) +
                                     ", register " + std::to_string(loc.reg));
          if (plan.strategy == GatherStrategy::ThreadLocal && loc.lane != l)
            return Diagnostic::error(
                "malformed gather plan: a thread-local plan has lane " +
                std::to_string(l) + " read from lane " +
                std::to_string(loc.lane));
          partner[size_t(l)] = loc.lane;
          wantedReg[size_t(l)] = loc.reg;
        }
        for (int64_t send : st.sendRegisters) {
          if (send < 0 || send >= srcRegs)
            return Diagnostic::error("malformed gather plan: round register " +
                                     std::to_string(send) + " out of range");
          // Every lane offers the round's register, then every lane reads.
          for (int64_t l = 0; l < lanes; ++l)
            offered[size_t(l)] = srcAt(grp, l, send);
          for (int64_t l = 0; l < lanes; ++l) {
            uint64_t got = plan.strategy == GatherStrategy::WarpShuffle
                               ? offered[size_t(partner[size_t(l)])]
                               : offered[size_t(l)];
            if (wantedReg[size_t(l)] == send)
              outAt(grp, l, r) = got;
          }
          if (plan.strategy == GatherStrategy::WarpShuffle)
            res.shuffles += words;
          if (st.sendRegisters.size() > 1)
            ++res.selects;
        }
      }
  }

  for (int64_t grp = 0; grp < groups; ++grp)
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < outRegs; ++r) {
        ++res.checked;
        uint64_t want = uint64_t(rowMajor(s, wantedWord(grp, l, r))) + 1;
        uint64_t got = outAt(grp, l, r);
        if (got != want) {
          if (!res.mismatches)
            res.firstMismatch = "warp " + std::to_string(grp) + " lane " +
                                std::to_string(l) + " register " +
                                std::to_string(r) + ": holds " +
                                std::to_string(int64_t(got) - 1) + ", wants " +
                                std::to_string(int64_t(want) - 1);
          ++res.mismatches;
        }
      }
  res.correct = res.mismatches == 0;
  return res;
}

} // namespace lk::plan
