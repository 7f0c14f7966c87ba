//===- Plan.cpp - Layout-conversion planner ------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Alignment of the two layouts, the no-op and register-permutation plans,
// and planConversion, which chooses among the strategies. The warp-shuffle
// planner is in Shuffle.cpp, the shared-memory planner in SharedMemory.cpp
// (its cost model in SharedCost.cpp).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Plan.h"

#include "layoutkit/core/Bits.h"

#include "F2.h"
#include "Preconditions.h"
#include "SharedAccess.h"

#include "layoutkit/core/Join.h"
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

int intersectionDim(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  std::vector<uint64_t> both(a.begin(), a.end());
  both.insert(both.end(), b.begin(), b.end());
  return rankF2(a) + rankF2(b) - rankF2(both);
}

Status checkPlanSize(const LinearLayout &src, const LinearLayout &dst) {
  for (const LinearLayout *l : {&src, &dst}) {
    const std::string side = l == &src ? "SRC" : "DST";
    const int regBits = l->inDimLog2(dims::kRegister),
              laneBits = l->inDimLog2(dims::kLane),
              warpBits = l->inDimLog2(dims::kWarp),
              blockBits = l->inDimLog2(dims::kBlock);
    auto refuse = [&](int bits, const char *what, int maxBits,
                      const char *unit) {
      return Diagnostic::error(side + " has 2^" + std::to_string(bits) + " " +
                               what + "; plans are made for at most " +
                               std::to_string(int64_t(1) << maxBits) + unit);
    };
    if (regBits > kMaxRegisterBits)
      return refuse(regBits, "registers per thread", kMaxRegisterBits, "");
    if (laneBits > kMaxLaneBits)
      return refuse(laneBits, "lanes per warp", kMaxLaneBits, "");
    if (laneBits + warpBits > kMaxThreadBits)
      return refuse(laneBits + warpBits, "threads (lanes x warps)",
                    kMaxThreadBits, " (a CTA)");
    if (blockBits > kMaxBlockBits)
      return refuse(blockBits, "blocks", kMaxBlockBits, " (a cluster)");
  }
  return Ok{};
}

Expected<AlignedPair> alignLayouts(const LinearLayout &src,
                                   const LinearLayout &dst) {
  LK_CHECK(checkPlanSize(src, dst));
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
    if (src.inDimLog2(d) != dst.inDimLog2(d))
      return Diagnostic::error(
          "source and destination use different numbers of " +
          std::string(linear::dimName(d)) +
          "s: " + std::to_string(src.inDimSize(d)) + " vs " +
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
         std::to_string(smem->store.instructions) + " instr / " +
         counted(smem->store.wavefronts, "wavefront") + " (bound " +
         std::to_string(smem->store.lowerBound) + "), load " +
         std::to_string(smem->load.instructions) + " instr / " +
         counted(smem->load.wavefronts, "wavefront") + " (bound " +
         std::to_string(smem->load.lowerBound) + "), " +
         std::to_string(smem->bytes) + " B of shared memory";
    auto matrix = [&](const char *op, bool trans) {
      return std::string(", ") + op + ".x" + std::to_string(smem->matrixCount) +
             (trans ? ".trans" : "");
    };
    if (smem->store.matrixInstruction)
      r += matrix("store by stmatrix", smem->store.trans);
    if (smem->load.matrixInstruction)
      r += matrix("load by ldmatrix", smem->load.trans);
    if (smem->iterations > 1)
      r += ", " + counted(smem->iterations, "iteration") + ", " +
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

} // namespace

Expected<Plan> planConversion(const LinearLayout &src, const LinearLayout &dst,
                              int64_t elementBits) {
  return planConversion(src, dst, elementBits, PlanOptions{});
}

Expected<Plan> planConversion(const LinearLayout &src, const LinearLayout &dst,
                              int64_t elementBits, const PlanOptions &options) {
  LK_CHECK(detail::checkElementBits(elementBits));
  LK_TRY(AlignedPair p, alignLayouts(src, dst));
  // Before any strategy: even the no-op plan leaves an element no thread
  // holds unconverted.
  LK_CHECK(detail::checkCovers(src, "source")); // named as given
  LK_CHECK(detail::checkCovers(dst, "destination"));
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
