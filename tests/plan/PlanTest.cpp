//===- PlanTest.cpp - The conversion planner and its simulator ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every plan built here is executed by plan::simulate, which checks each
// destination register and counts wavefronts with the hw layer's lane-group
// model independently of the planner's own prediction.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Plan.h"
#include "layoutkit/linear/Analysis.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/plan/Simulator.h"

#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace lk::plan {
namespace {

using linear::DimSize;
using linear::Encoding;
using linear::LinearLayout;
namespace dims = linear::dims;
// ok(), the encoding and layout builders, randomDistributed: PlanTestSupport.h.
using namespace test;

/// The default plan (ldmatrix / stmatrix allowed) of a pair whose
/// vector-only plan is `vec`: simulated correct with the predicted counts,
/// never dearer than `vec`; a matrix plan has fewer instructions and no
/// more wavefronts than the vector-only shared-memory plan, and no side
/// beats its bound. (The standard pairs reach the matrix bound:
/// SharedMemorySweep; a random pair need not, when the row bits leave no
/// Idx free of both sides' conflict groups.)
void checkDefaultPlan(const LinearLayout &a, const LinearLayout &b, int bits,
                      const Plan &vec, const std::string &what) {
  Plan p = ok(planConversion(a, b, bits));
  SimulationResult s = ok(simulate(p));
  EXPECT_TRUE(s.correct) << what << " (default): " << s.firstMismatch << "\n"
                         << p.describe();
  EXPECT_LE(p.cost.cycles, vec.cost.cycles) << what;
  if (!p.smem ||
      !(p.smem->store.matrixInstruction || p.smem->load.matrixInstruction)) {
    // Without matrices the default plan is the vector plan.
    EXPECT_EQ(p.strategy, vec.strategy) << what;
    EXPECT_EQ(p.cost.cycles, vec.cost.cycles) << what;
    return;
  }
  const SharedMemoryPlan &sp = *p.smem;
  EXPECT_EQ(s.storeWavefronts, sp.store.wavefronts) << what;
  EXPECT_EQ(s.loadWavefronts, sp.load.wavefronts) << what;
  EXPECT_EQ(s.storeInstructions, sp.store.instructions) << what;
  EXPECT_EQ(s.loadInstructions, sp.load.instructions) << what;
  EXPECT_GE(sp.store.wavefronts, sp.store.lowerBound) << what;
  EXPECT_GE(sp.load.wavefronts, sp.load.lowerBound) << what;
  Plan vecShared = ok(planSharedMemory(a, b, bits, vectorOnly()));
  EXPECT_LT(p.cost.instructions, vecShared.cost.instructions) << what;
  EXPECT_LE(p.cost.wavefronts, vecShared.cost.wavefronts) << what;
}

/// Plans with vectors only, simulates, and checks the invariants every plan
/// must satisfy; then checks the default plan against it
/// (checkDefaultPlan). Returns the vector-only plan.
Plan checkedPlan(const LinearLayout &a, const LinearLayout &b, int bits,
                 const std::string &what) {
  Plan p = ok(planConversion(a, b, bits, vectorOnly()));
  checkDefaultPlan(a, b, bits, p, what);
  SimulationResult s = ok(simulate(p));
  EXPECT_TRUE(s.correct) << what << ": " << s.firstMismatch << "\n"
                         << p.describe();
  EXPECT_EQ(s.checked, a.inDimSize(dims::kWarp) * 32 *
                           p.layouts.dst.inDimSize(dims::kRegister))
      << what;
  if (p.smem) {
    const SharedMemoryPlan &sp = *p.smem;
    // The simulator's count (hw lane groups) equals the prediction...
    EXPECT_EQ(s.storeWavefronts, sp.store.wavefronts) << what;
    EXPECT_EQ(s.loadWavefronts, sp.load.wavefronts) << what;
    EXPECT_EQ(s.storeInstructions, sp.store.instructions) << what;
    EXPECT_EQ(s.loadInstructions, sp.load.instructions) << what;
    EXPECT_EQ(s.barriers, 1) << what;
    // ...reaches the lower bound (Plan.h: always reachable)...
    EXPECT_EQ(sp.store.wavefronts, sp.store.lowerBound) << what << p.describe();
    EXPECT_EQ(sp.load.wavefronts, sp.load.lowerBound) << what << p.describe();
    // ...and never beats Lemma 9.4 for the planned layout.
    EXPECT_GE(s.storeWavefronts,
              s.storeInstructions * (int64_t(1) << sp.store.lemmaBits));
    EXPECT_GE(s.loadWavefronts,
              s.loadInstructions * (int64_t(1) << sp.load.lemmaBits));
    EXPECT_TRUE(linear::isMemory(sp.memory)) << sp.memory.str();
  }
  if (p.strategy == Strategy::WarpShuffle) {
    // The simulator's counts equal the plan's cost, and the model chose
    // the cheaper exchange.
    const int64_t ctas = p.layouts.src.inDimSize(dims::kBlock);
    EXPECT_EQ(s.shuffles, ctas * p.cost.shuffles) << what;
    EXPECT_EQ(s.selects, ctas * p.cost.selects) << what;
    EXPECT_EQ(s.registerMoves, ctas * p.cost.registerMoves) << what;
    Expected<Plan> shared = planSharedMemory(a, b, bits, vectorOnly());
    if (shared) {
      EXPECT_LE(p.cost.cycles, shared->cost.cycles) << what;
    }
  }
  if (p.strategy == Strategy::SharedMemory) {
    Expected<Plan> sh = planWarpShuffle(a, b, bits);
    if (sh) {
      EXPECT_LT(p.cost.cycles, sh->cost.cycles) << what;
    }
  }
  return p;
}

/// Brute force: does one register map s(r), the same in every lane and
/// warp, give dst(r, l, w) == src(s(r), l, w)? (Then the planner must not
/// use shared memory.)
bool registerLocalByEnumeration(const AlignedPair &p) {
  const LinearLayout &a = p.src, &b = p.dst;
  int64_t lanes = a.inDimSize(dims::kLane), warps = a.inDimSize(dims::kWarp);
  auto at = [](const LinearLayout &l, int64_t r, int64_t ln, int64_t w) {
    return l.applyFlat(uint64_t(r) | uint64_t(ln) << l.inShift(1) |
                       uint64_t(w) << l.inShift(2));
  };
  for (int64_t r = 0; r < b.inDimSize(dims::kRegister); ++r) {
    bool found = false;
    for (int64_t s = 0; s < a.inDimSize(dims::kRegister) && !found; ++s) {
      bool all = true;
      for (int64_t w = 0; w < warps && all; ++w)
        for (int64_t l = 0; l < lanes && all; ++l)
          all = at(a, s, l, w) == at(b, r, l, w);
      found = all;
    }
    if (!found)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Strategy choice on hand-derived pairs
//===----------------------------------------------------------------------===//

TEST(PlanStrategy, BlockedEqualToMmaAcrossKindsIsNoOp) {
  // blocked([1,2], [8,4], [1,1], [1,0]) on 16x8: register [(0,1)], lanes
  // [(0,2),(0,4),(1,0),(2,0),(4,0)], then rows 8.. repeat the register:
  // register [(0,1),(8,0)]. The mma.sync 16x8 accumulator of one warp has
  // exactly these bases (paper Fig. 1).
  LinearLayout blocked =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {1, 1}, {1, 0}), {16, 8});
  LinearLayout mma = layoutOf(*mmaV2Enc({1, 1}), {16, 8});
  EXPECT_EQ(blocked.str(), mma.str());
  Plan p = checkedPlan(blocked, mma, 16, "blocked=mma");
  EXPECT_EQ(p.strategy, Strategy::NoOp);
  EXPECT_EQ(p.cost.instructions, 0);
}

TEST(PlanStrategy, BlockedEqualToSliceOfMmaIsNoOp) {
  // Slicing dim 0 of the 16x8 mma accumulator keeps the columns: register
  // (1), lanes (2), (4); lane bits 2-4 and register bit 1 (rows) become
  // broadcast. blocked([2], [32], [1], [0]) on 8 elements: register (1),
  // lanes 2, 4 and lanes 8, 16, 32 zeroed to fit (broadcast).
  LinearLayout slice = layoutOf(*sliceEnc(mmaV2Enc({1, 1}), 0), {8});
  LinearLayout blocked = layoutOf(*blockedEnc({2}, {32}, {1}, {0}), {8});
  Plan p = checkedPlan(blocked, slice, 16, "blocked=slice(mma)");
  SCOPED_TRACE(slice.str() + " vs " + blocked.str());
  Expected<bool> zero = p.layouts.src.sublayoutIsZero(
      std::vector{dims::kLane}, std::vector{dims::dim(0)});
  ASSERT_TRUE(zero);
  EXPECT_FALSE(*zero);
  // Both are {register: [(1)], lane: [(2), (4), (0), (0), (0)]}.
  EXPECT_EQ(slice, blocked);
  EXPECT_EQ(p.strategy, Strategy::NoOp);
}

TEST(PlanStrategy, RegisterOrderOnlyIsRegisterPermutation) {
  // On 16x16 the blocked layout above repeats its registers fastest dim
  // first: register [(0,1),(0,8),(8,0)]; mma.sync repeats rows first:
  // [(0,1),(8,0),(0,8)]. Same lanes: dst register r = src register with
  // bits 1 and 2 swapped: 0,1,4,5,2,3,6,7 (registers 2-5 move).
  LinearLayout blocked =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  LinearLayout mma = layoutOf(*mmaV2Enc({1, 1}), {16, 16});
  Plan p = checkedPlan(blocked, mma, 16, "blocked->mma 16x16");
  ASSERT_EQ(p.strategy, Strategy::RegisterPermutation) << mma.str();
  EXPECT_EQ(p.registerSource, (std::vector<int64_t>{0, 1, 4, 5, 2, 3, 6, 7}));
  EXPECT_EQ(p.cost.registerMoves, 4);
  EXPECT_FALSE(p.smem);
}

TEST(PlanStrategy, TransposeGoesThroughSharedMemoryWithXorSwizzle) {
  // f32 32x32, one warp. A: lane l holds row l (registers along dim1), B:
  // lane l holds column l. Naive row-major buffer: A's store writes 32 rows
  // of one column = one bank, 32 words: 32 wavefronts (Lemma 9.4: Thr_A =
  // row bits = Idx, k = 5). The planned swizzle pairs each row bit with a
  // column bit (row ^ col) and takes 1 wavefront per store and load.
  LinearLayout rows =
      layoutOf(*blockedEnc({1, 32}, {32, 1}, {1, 1}, {1, 0}), {32, 32});
  LinearLayout cols =
      layoutOf(*blockedEnc({32, 1}, {1, 32}, {1, 1}, {0, 1}), {32, 32});
  Plan p = checkedPlan(rows, cols, 32, "transpose");
  ASSERT_EQ(p.strategy, Strategy::SharedMemory);
  const SharedMemoryPlan &sp = *p.smem;
  EXPECT_EQ(sp.vectorElements, 1); // no register bit in common
  EXPECT_EQ(sp.store.instructions, 32);
  EXPECT_EQ(sp.store.wavefronts, 32);
  EXPECT_EQ(sp.load.wavefronts, 32);
  EXPECT_EQ(sp.store.lemmaBits, 0);
  EXPECT_EQ(sp.load.lemmaBits, 0);
  // The naive buffer: offset = 32 * row + col.
  LinearLayout naive = ok(
      linear::identityStandardND(dims::kOffset, std::vector<unsigned>{32, 32},
                                 std::vector<unsigned>{1, 0}));
  naive = ok(naive.resize(dims::kOffset, 1024));
  Plan n = ok(planSharedMemoryWith(rows, cols, 32, naive, {}));
  SimulationResult ns = ok(simulate(n));
  EXPECT_TRUE(ns.correct);
  EXPECT_EQ(n.smem->store.lemmaBits, 5);
  EXPECT_EQ(ns.storeWavefronts, 32 * 32); // 32 instructions x 32
  EXPECT_EQ(ns.loadWavefronts, 32);       // B reads rows: conflict-free
  // Every swizzle column mixes at most one row and one column bit.
  for (uint64_t c : sp.memory.columns())
    EXPECT_LE(__builtin_popcountll(c), 2);
}

TEST(PlanStrategy, HeaderExampleXorPairs) {
  // The worked example of Plan.h: f32 16x16 row-lanes -> column-lanes.
  // Lemma 9.5 pairs X = {r1, r2, c8} with Y = {r8, c1, c2}.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 4}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  LinearLayout b =
      layoutOf(*blockedEnc({4, 1}, {4, 8}, {1, 1}, {0, 1}), {16, 16});
  // planConversion takes warp shuffles for this pair (32 vs 36 estimated
  // cycles, Plan.h Cost example; ShuffleTest.cpp): the swizzle is that of
  // the shared-memory plan.
  EXPECT_EQ(checkedPlan(a, b, 32, "header example").strategy,
            Strategy::WarpShuffle);
  Plan p = ok(planSharedMemory(a, b, 32));
  SimulationResult ps = ok(simulate(p));
  EXPECT_TRUE(ps.correct) << ps.firstMismatch;
  EXPECT_EQ(ps.storeWavefronts + ps.loadWavefronts, 16);
  EXPECT_EQ(p.smem->memory.str(),
            "{offset: [(1,0), (2,0), (4,0), (0,4), (0,8), (9,0), (2,1), "
            "(0,10)]} -> {dim0: 16, dim1: 16}");
  EXPECT_EQ(p.smem->store.wavefronts, 8);
  EXPECT_EQ(p.smem->load.wavefronts, 8);
  // Row-major: offset 16r + c; A's lanes vary c4, c8, r1 (bank bits) and
  // r2, r4 (row bits): 4 words per bank, 4 wavefronts per store. B's lanes
  // vary r4, r8 (row bits) and c1, c2, c4 (bank bits): 4 per load too.
  LinearLayout naive = ok(
      linear::identityStandardND(dims::kOffset, std::vector<unsigned>{16, 16},
                                 std::vector<unsigned>{1, 0}));
  Plan n = ok(planSharedMemoryWith(a, b, 32, naive, {}));
  SimulationResult s = ok(simulate(n));
  EXPECT_TRUE(s.correct);
  EXPECT_EQ(s.storeWavefronts, 8 * 4);
  EXPECT_EQ(s.loadWavefronts, 8 * 4);
}

TEST(PlanStrategy, CommonRegistersGiveVectorizedAccess) {
  // f16 64x64, 4 warps: blocked([1,8], [8,4], [4,1]) -> blocked([1,8],
  // [16,2], [2,2]). Both hold 8 consecutive dim1 elements per thread: the 8
  // x f16 = 16 B vector; lane groups of 8 (hw §1.3): 4 wavefronts per
  // instruction at best.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 8}, {8, 4}, {4, 1}, {1, 0}), {64, 64});
  LinearLayout b =
      layoutOf(*blockedEnc({1, 8}, {16, 2}, {2, 2}, {1, 0}), {64, 64});
  Plan p = checkedPlan(a, b, 16, "vectorized");
  ASSERT_EQ(p.strategy, Strategy::SharedMemory);
  EXPECT_EQ(p.smem->vectorElements, 8);
  EXPECT_EQ(p.smem->accessBytes, 16);
  // 64*64 elements / (128 threads * 8) = 4 stores per thread.
  EXPECT_EQ(p.smem->store.instructions, 4 * 4);
  EXPECT_EQ(p.smem->store.wavefronts, 16 * 4);
  EXPECT_EQ(p.smem->bytes, 64 * 64 * 2);
}

TEST(PlanStrategy, BroadcastDataIsStoredOnce) {
  // A = blocked([1,1],[32,1],[2,1]) on 16x16: lane bit 4 and warp bit 0 are
  // zero (16 rows fit in 16 lanes), so lanes 16-31 and warp 1 duplicate
  // lanes 0-15 of warp 0. Only warp 0 stores, with 16 active lanes.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 1}, {32, 1}, {2, 1}, {1, 0}), {16, 16});
  LinearLayout b =
      layoutOf(*blockedEnc({1, 1}, {1, 32}, {1, 2}, {0, 1}), {16, 16});
  Plan p = checkedPlan(a, b, 32, "broadcast");
  ASSERT_EQ(p.strategy, Strategy::SharedMemory);
  // 16 registers (columns) per thread in warp 0 only: 16 store instructions.
  EXPECT_EQ(p.smem->store.instructions, 16);
  // B: lanes 16-31, warp 1 duplicate too, but every warp loads its registers.
  EXPECT_EQ(p.smem->load.instructions, 2 * 16);
}

TEST(PlanErrors, MismatchedTensorsAndWidths) {
  LinearLayout a =
      layoutOf(*blockedEnc({1, 1}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  LinearLayout b =
      layoutOf(*blockedEnc({1, 1}, {8, 4}, {1, 1}, {1, 0}), {16, 32});
  LinearLayout c =
      layoutOf(*blockedEnc({1, 1}, {8, 4}, {2, 1}, {1, 0}), {16, 16});
  EXPECT_FALSE(planConversion(a, b, 16));
  Expected<Plan> w = planConversion(a, c, 16);
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("warps"), std::string::npos);
  Expected<Plan> e = planConversion(a, a, 12);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("12 bits"), std::string::npos);
}

// A layout that holds half its tensor is refused before any strategy, the
// no-op included: equal layouts used to be a no-op plan that left the
// other half of the tensor unconverted. Hand count: the register basis
// (0,1) and the four lane bases (1,0) .. (8,0) span 5 of the 6 bits of a
// 16x4 tensor (dim1's bit 1 is missing), so 32 of its 64 elements.
TEST(PlanErrors, LayoutsThatMissElementsAreRefusedEvenWhenEqual) {
  LinearLayout half = *LinearLayout::make(
      {{dims::kRegister, {{0, 1}}},
       {dims::kLane, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}}}},
      {{dims::dim(0), 16}, {dims::dim(1), 4}});
  const std::string why = "the source layout holds 32 of its tensor's 64 "
                          "elements (its columns span 5 of 6 logical bits), "
                          "so it does not cover the tensor: " +
                          half.str();
  Expected<Plan> same = planConversion(half, half, 16);
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error().message, why);
  LinearLayout full = *LinearLayout::make(
      {{dims::kRegister, {{0, 1}}},
       {dims::kLane, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 2}}}},
      {{dims::dim(0), 16}, {dims::dim(1), 4}});
  ASSERT_TRUE(planConversion(full, full, 16));
  Expected<Plan> toFull = planConversion(half, full, 16);
  ASSERT_FALSE(toFull);
  EXPECT_EQ(toFull.error().message, why);
  Expected<Plan> fromFull = planConversion(full, half, 16);
  ASSERT_FALSE(fromFull);
  EXPECT_NE(fromFull.error().message.find("the destination layout holds 32"),
            std::string::npos)
      << fromFull.error().message;
}

TEST(PlanSimulator, CatchesWrongPlans) {
  LinearLayout blocked =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  LinearLayout mma = layoutOf(*mmaV2Enc({1, 1}), {16, 16});
  Plan p = ok(planConversion(blocked, mma, 16));
  ASSERT_EQ(p.strategy, Strategy::RegisterPermutation);
  // Identity instead of the permutation: registers 2-5 of all 32 lanes
  // hold the wrong element.
  for (size_t r = 0; r < p.registerSource.size(); ++r)
    p.registerSource[r] = int64_t(r);
  SimulationResult s = ok(simulate(p));
  EXPECT_FALSE(s.correct);
  EXPECT_EQ(s.mismatches, 4 * 32);
  EXPECT_EQ(s.checked, 8 * 32);
  EXPECT_NE(s.firstMismatch.find("register 2"), std::string::npos)
      << s.firstMismatch;
  // A shared plan whose memory layout splits the vector is rejected.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 8}, {8, 4}, {1, 1}, {1, 0}), {16, 64});
  LinearLayout b =
      layoutOf(*blockedEnc({1, 8}, {16, 2}, {1, 1}, {1, 0}), {16, 64});
  // (planConversion takes warp shuffles for this one-warp pair: 48 vs 52
  // estimated cycles; the shared plan is asked for directly.)
  Plan q = ok(planSharedMemory(a, b, 16, vectorOnly()));
  ASSERT_EQ(q.strategy, Strategy::SharedMemory);
  ASSERT_EQ(q.smem->vectorElements, 8);
  LinearLayout mem = q.smem->memory;
  uint64_t c0 = mem.column(0), c9 = mem.column(9);
  mem.setColumn(0, c9);
  mem.setColumn(9, c0);
  q.smem->memory = mem;
  Expected<SimulationResult> bad = simulate(q);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("contiguous"), std::string::npos)
      << bad.error().message;
  // A plan that reads a buffer nobody wrote: swap source and destination
  // of a NoOp with different layouts.
  Plan r = ok(planConversion(blocked, blocked, 16));
  EXPECT_EQ(r.strategy, Strategy::NoOp);
  r.layouts.dst = mma;
  SimulationResult rs = ok(simulate(r));
  EXPECT_FALSE(rs.correct);
}

//===----------------------------------------------------------------------===//
// Standard pairs
//===----------------------------------------------------------------------===//

// The standard layouts are bench::standardEncodings (support/PlanPairs.h).
using bench::standardEncodings;

struct SweepStats {
  int plans = 0, noop = 0, perm = 0, shared = 0, withV3 = 0;
  bool tryShuffles = false;
  int shufflePlans = 0;
  int shuffled = 0; ///< plans where the cost model chose warp shuffles
  int64_t naiveWavefronts = 0, plannedWavefronts = 0;
};

void sweepStandardPairs(std::vector<unsigned> warpCounts,
                        std::vector<int64_t> sizes, SweepStats &st) {
  int &plans = st.plans, &noop = st.noop, &perm = st.perm, &shared = st.shared;
  int64_t &naiveWavefronts = st.naiveWavefronts,
          &plannedWavefronts = st.plannedWavefronts;
  for (int bits : {8, 16, 32})
    for (unsigned warps : warpCounts)
      for (int64_t m : sizes)
        for (int64_t n : sizes) {
          auto encs = standardEncodings(warps, bits);
          for (auto &[na, ea] : encs)
            for (auto &[nb, eb] : encs) {
              // Dot operands of a different warp arrangement than the mma
              // are still valid layouts of the tensor.
              std::vector<int64_t> shp = {m, n};
              Expected<LinearLayout> a = linear::toLinearLayout(*ea, shp);
              Expected<LinearLayout> b = linear::toLinearLayout(*eb, shp);
              if (!a || !b)
                continue;
              std::string what = na + "->" + nb + " " + std::to_string(m) +
                                 "x" + std::to_string(n) + " f" +
                                 std::to_string(bits) + " w" +
                                 std::to_string(warps);
              Plan p = checkedPlan(*a, *b, bits, what);
              ++plans;
              noop += p.strategy == Strategy::NoOp;
              st.withV3 += na == "mmaV3" || nb == "mmaV3";
              perm += p.strategy == Strategy::RegisterPermutation;
              shared += p.strategy == Strategy::SharedMemory;
              // The simple shuffle plan wherever no data crosses warps.
              if (st.tryShuffles) {
                Expected<Plan> sh = planWarpShuffle(*a, *b, bits);
                if (sh) {
                  SimulationResult ss = ok(simulate(*sh));
                  EXPECT_TRUE(ss.correct) << what << ": " << ss.firstMismatch;
                  ++st.shufflePlans;
                }
              }
              // Brute-force check of the strategy choice.
              EXPECT_EQ(p.strategy == Strategy::NoOp,
                        p.layouts.src == p.layouts.dst)
                  << what;
              EXPECT_EQ(p.strategy == Strategy::SharedMemory ||
                            p.strategy == Strategy::WarpShuffle,
                        !registerLocalByEnumeration(p.layouts))
                  << what;
              st.shuffled += p.strategy == Strategy::WarpShuffle;
              // Vectorization is maximal: the common register bits, capped
              // at 16 bytes.
              if (p.smem) {
                std::set<uint64_t> ra, common;
                for (int j = 0; j < p.layouts.src.inDimLog2(dims::kRegister);
                     ++j)
                  if (uint64_t c = p.layouts.src.column(j))
                    ra.insert(c);
                for (int j = 0; j < p.layouts.dst.inDimLog2(dims::kRegister);
                     ++j)
                  if (ra.count(p.layouts.dst.column(j)))
                    common.insert(p.layouts.dst.column(j));
                EXPECT_EQ(
                    p.smem->vectorElements,
                    std::min<int64_t>(int64_t(1) << common.size(), 128 / bits))
                    << what;
                // Never worse than the naive plan: an unswizzled row-major
                // buffer with scalar accesses.
                LinearLayout naive = ok(linear::identityStandardND(
                    dims::kOffset,
                    std::vector<unsigned>{unsigned(m), unsigned(n)},
                    std::vector<unsigned>{1, 0}));
                Plan np = ok(planSharedMemoryWith(*a, *b, bits, naive, {}));
                EXPECT_LE(p.cost.wavefronts, np.cost.wavefronts) << what;
                EXPECT_LE(
                    p.smem->store.instructions + p.smem->load.instructions,
                    np.smem->store.instructions + np.smem->load.instructions)
                    << what;
                naiveWavefronts += np.cost.wavefronts;
                plannedWavefronts += p.cost.wavefronts;
              }
            }
        }
}

TEST(PlanStandardPairs, EveryPairIsCorrectAndReachesTheBound) {
  SweepStats st;
  st.tryShuffles = true;
  sweepStandardPairs({1, 2, 4}, {16, 32, 64}, st);
  EXPECT_GT(st.shufflePlans, 1000);
  EXPECT_GT(st.plans, 1000);
  EXPECT_GT(st.noop, 0);
  EXPECT_GT(st.perm, st.noop / 10);
  EXPECT_GT(st.shared, st.plans / 2);
  EXPECT_LT(st.plannedWavefronts, st.naiveWavefronts);
  EXPECT_GT(st.shuffled, 0);
  std::printf("standard pairs 16..64, 1-4 warps: %d plans: %d no-op, %d "
              "register, %d shared, %d warp shuffle; wavefronts %lld planned "
              "vs %lld naive; %d intra-warp pairs shuffled\n",
              st.plans, st.noop, st.perm, st.shared, st.shuffled,
              (long long)st.plannedWavefronts, (long long)st.naiveWavefronts,
              st.shufflePlans);
}

TEST(PlanStandardPairs, LargeShapesWithEightWarps) {
  SweepStats st;
  sweepStandardPairs({8}, {128, 256}, st);
  EXPECT_GT(st.shared, 100);
  EXPECT_GT(st.withV3, 100);
  EXPECT_LT(st.plannedWavefronts, st.naiveWavefronts);
  std::printf("standard pairs 128..256, 8 warps: %d plans: %d no-op, %d "
              "register, %d shared; wavefronts %lld planned vs %lld naive\n",
              st.plans, st.noop, st.perm, st.shared,
              (long long)st.plannedWavefronts, (long long)st.naiveWavefronts);
}

// The 1-D layouts of bench::sliceEncodings (dim 0 sliced away from
// blocked-row, blocked-col and the mma accumulator, and a 1-D blocked
// layout): every ordered pair, f8/f16/f32, 16..256 elements, 1-8 warps.
// Slices broadcast (the sliced dim's lane and warp bits become zero
// columns), so these exercise duplicated data on both sides.
TEST(PlanStandardPairs, SlicedLayouts) {
  int plans = 0, shared = 0, matrices = 0;
  for (int bits : {8, 16, 32})
    for (unsigned warps : {1u, 2u, 4u, 8u})
      for (int64_t n : {16, 32, 64, 128, 256}) {
        auto encs = bench::sliceEncodings(warps, bits);
        for (auto &[na, ea] : encs)
          for (auto &[nb, eb] : encs) {
            std::vector<int64_t> shp = {n};
            Expected<LinearLayout> a = linear::toLinearLayout(*ea, shp);
            Expected<LinearLayout> b = linear::toLinearLayout(*eb, shp);
            if (!a || !b)
              continue;
            std::string what = na + "->" + nb + " " + std::to_string(n) + " f" +
                               std::to_string(bits) + " w" +
                               std::to_string(warps);
            Plan p = checkedPlan(*a, *b, bits, what);
            ++plans;
            shared += p.strategy == Strategy::SharedMemory;
            Plan d = ok(planConversion(*a, *b, bits));
            matrices += d.smem && (d.smem->store.matrixInstruction ||
                                   d.smem->load.matrixInstruction);
          }
      }
  std::printf("sliced pairs: %d plans, %d shared memory (vector-only), %d "
              "default plans with matrices\n",
              plans, shared, matrices);
  EXPECT_GT(plans, 200);
  EXPECT_GT(shared, 50);
  EXPECT_GT(matrices, 0);
}

//===----------------------------------------------------------------------===//
// Random distributed layouts
//===----------------------------------------------------------------------===//

TEST(PlanRandom, RandomDistributedPairs) {
  std::mt19937_64 rng(20261122);
  int shared = 0, vectorized = 0, wide = 0;
  for (int iter = 0; iter < 400; ++iter) {
    int r0 = 3 + int(rng() % 4), r1 = 3 + int(rng() % 4);
    int warpBits = int(rng() % 3);
    if (r0 + r1 < 5 + warpBits)
      continue;
    bool bc = iter % 2;
    LinearLayout a = randomDistributed(rng, r0, r1, warpBits, bc);
    LinearLayout b = randomDistributed(rng, r0, r1, warpBits, bc);
    if (iter % 3 == 0) {
      // B = A with every column but A's first two register columns shuffled:
      // those two stay common register bits (vectorized accesses).
      b = a;
      int keep = std::min(2, a.inDimLog2(dims::kRegister));
      std::vector<uint64_t> cols(a.columns().begin(), a.columns().end());
      std::shuffle(cols.begin() + keep, cols.end(), rng);
      for (size_t j = 0; j < cols.size(); ++j)
        b.setColumn(int(j), cols[j]);
      ++vectorized;
    }
    int bitsPer = 8 << (rng() % 4); // f8 .. f64
    std::string what =
        a.str() + " -> " + b.str() + " f" + std::to_string(bitsPer);
    Plan p = checkedPlan(a, b, bitsPer, what);
    // Exchanges between threads: shared memory or (by the cost model, for
    // pairs that stay in their warps) warp shuffles.
    shared += p.strategy == Strategy::SharedMemory ||
              p.strategy == Strategy::WarpShuffle;
    wide += p.smem && p.smem->vectorElements > 1;
    EXPECT_EQ(p.strategy == Strategy::SharedMemory ||
                  p.strategy == Strategy::WarpShuffle,
              !registerLocalByEnumeration(p.layouts))
        << what;
  }
  EXPECT_GT(shared, 250);
  EXPECT_GT(wide, 50);
  EXPECT_GT(vectorized, 100);
}

TEST(PlanRandom, SharedPlanOfAnyPairIsCorrect) {
  // The shared path also for pairs a cheaper strategy handles (A -> A).
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 100; ++iter) {
    LinearLayout a = randomDistributed(rng, 4, 4, 1, iter % 2);
    Plan p = ok(planSharedMemory(a, a, 16, vectorOnly()));
    SimulationResult s = ok(simulate(p));
    EXPECT_TRUE(s.correct) << a.str() << s.firstMismatch;
    EXPECT_EQ(s.storeWavefronts, p.smem->store.lowerBound) << a.str();
    EXPECT_EQ(s.loadWavefronts, p.smem->load.lowerBound) << a.str();
    // The default plan (matrices allowed) is correct too.
    Plan m = ok(planSharedMemory(a, a, 16));
    SimulationResult ms = ok(simulate(m));
    EXPECT_TRUE(ms.correct) << a.str() << ms.firstMismatch;
    EXPECT_LE(m.cost.cycles, p.cost.cycles) << a.str();
  }
}

//===----------------------------------------------------------------------===//
// Warp shuffles (more in ShuffleTest.cpp)
//===----------------------------------------------------------------------===//

TEST(PlanWarpShuffle, HeaderExampleInsideOneWarp) {
  // The Plan.h example in one warp: 8 f32 elements per thread and no
  // common register bit, so the §5.4 plan takes 8 rounds of one shuffle
  // (the former one-register-per-round plan took 8 x 8 = 64).
  LinearLayout a =
      layoutOf(*blockedEnc({1, 4}, {8, 4}, {1, 1}, {1, 0}), {16, 16});
  LinearLayout b =
      layoutOf(*blockedEnc({4, 1}, {4, 8}, {1, 1}, {0, 1}), {16, 16});
  Plan p = ok(planWarpShuffle(a, b, 32));
  EXPECT_EQ(p.strategy, Strategy::WarpShuffle);
  EXPECT_EQ(p.rounds.size(), 8u);
  SimulationResult s = ok(simulate(p));
  EXPECT_TRUE(s.correct) << s.firstMismatch;
  EXPECT_EQ(s.shuffles, 8);
  EXPECT_EQ(s.storeWavefronts + s.loadWavefronts, 0);
  // A wrong source lane is caught.
  p.rounds[0].srcLane[0] ^= 1;
  EXPECT_FALSE(ok(simulate(p)).correct);
}

TEST(PlanWarpShuffle, LaneRegisterSwapTakesTwoRounds) {
  // B swaps A's register bit 0 (column 1) with its lane bit 0 (column 2):
  // 2 f16 elements per thread, no common register bit: 2 rounds. In round
  // 0 every lane keeps the element it already holds where B wants it (lane
  // l reads itself), so only round 1 shuffles: 1 shuffle per warp.
  LinearLayout a =
      layoutOf(*blockedEnc({1, 2}, {8, 4}, {2, 1}, {1, 0}), {16, 8});
  // a: register [(0,1)], lane [(0,2),(0,4),(1,0),(2,0),(4,0)], warp [(8,0)]
  LinearLayout b = a;
  uint64_t r0 = a.column(0), l0 = a.column(1);
  b.setColumn(0, l0);
  b.setColumn(1, r0);
  Plan p = ok(planWarpShuffle(a, b, 16));
  EXPECT_EQ(p.rounds.size(), 2u);
  SimulationResult s = ok(simulate(p));
  EXPECT_TRUE(s.correct) << s.firstMismatch;
  EXPECT_TRUE(p.rounds[0].laneLocal());
  EXPECT_FALSE(p.rounds[1].laneLocal());
  EXPECT_EQ(s.shuffles, 1 * 2); // two warps
  // Across warps it is refused.
  LinearLayout c = a;
  c.setColumn(6, a.column(1));
  c.setColumn(1, a.column(6));
  EXPECT_FALSE(planWarpShuffle(a, c, 16));
}

TEST(PlanWarpShuffle, RandomIntraWarpPairs) {
  std::mt19937_64 rng(99);
  for (int iter = 0; iter < 200; ++iter) {
    int warpBits = int(rng() % 3);
    LinearLayout a =
        randomDistributed(rng, 4, 3 + int(rng() % 3), warpBits, iter % 2);
    // B: A with register and lane columns shuffled among themselves; the
    // warp columns stay.
    int regBits = a.inDimLog2(dims::kRegister);
    std::vector<uint64_t> cols(a.columns().begin(), a.columns().end());
    std::shuffle(cols.begin(), cols.begin() + regBits + 5, rng);
    LinearLayout b = a;
    for (int j = 0; j < regBits + 5; ++j)
      b.setColumn(j, cols[size_t(j)]);
    Plan p = ok(planWarpShuffle(a, b, 32));
    SimulationResult s = ok(simulate(p));
    EXPECT_TRUE(s.correct) << a.str() << " -> " << b.str() << ": "
                           << s.firstMismatch;
    // One shuffle per round and warp, except in rounds where every lane
    // reads itself.
    int64_t shuffled = 0;
    for (const ShuffleRound &r : p.rounds)
      shuffled += !r.laneLocal();
    EXPECT_EQ(s.shuffles, shuffled << warpBits);
    EXPECT_LE(int64_t(p.rounds.size()),
              a.inDimSize(dims::kRegister) * b.inDimSize(dims::kRegister));
  }
}

//===----------------------------------------------------------------------===//
// Brute force over all swizzles
//===----------------------------------------------------------------------===//

/// Every memory layout [Vec | Sub | BankWord | Idx] with the planner's Vec
/// (columns outside Vec free of vector bits, so vectors stay contiguous):
/// all choices of the s + i vectors of Sub and Idx (the cost does not depend
/// on how BankWord completes the basis). Returns the least store + load
/// wavefronts counted by the simulator, and checks the planner's total.
int64_t bruteForceBest(const LinearLayout &a, const LinearLayout &b, int bits,
                       int64_t &layoutsTried) {
  Plan planned = ok(planSharedMemory(a, b, bits, vectorOnly()));
  const SharedMemoryPlan &sp = *planned.smem;
  int n = planned.layouts.src.totalOutBits();
  int v = int(sp.vecBits.size());
  int free = sp.subBits + sp.idxBits;
  EXPECT_LE(free, 2) << "too large for brute force";
  std::vector<DimSize> outs;
  for (int i = 0; i < planned.layouts.src.numOutDims(); ++i)
    outs.push_back(planned.layouts.src.outDim(i));
  int64_t best = INT64_MAX;
  std::vector<uint64_t> chosen;
  auto rankOf = [](std::vector<uint64_t> vs) {
    int r = 0;
    for (size_t i = 0; i < vs.size(); ++i) {
      if (!vs[i])
        continue;
      ++r;
      uint64_t top = uint64_t(1) << (63 - __builtin_clzll(vs[i]));
      for (size_t j = i + 1; j < vs.size(); ++j)
        if (vs[j] & top)
          vs[j] ^= vs[i];
    }
    return r;
  };
  std::function<void()> rec = [&] {
    if (int(chosen.size()) == free) {
      std::vector<uint64_t> cols;
      for (int bit : sp.vecBits)
        cols.push_back(uint64_t(1) << bit);
      for (int j = 0; j < sp.subBits; ++j)
        cols.push_back(chosen[size_t(j)]);
      std::vector<uint64_t> idx(chosen.begin() + sp.subBits, chosen.end());
      std::vector<uint64_t> all = cols;
      all.insert(all.end(), idx.begin(), idx.end());
      for (int bit = 0;
           bit < n && int(cols.size()) < v + sp.subBits + sp.bankBits; ++bit) {
        std::vector<uint64_t> t = all;
        t.push_back(uint64_t(1) << bit);
        if (rankOf(t) == int(t.size())) {
          cols.push_back(uint64_t(1) << bit);
          all.push_back(uint64_t(1) << bit);
        }
      }
      cols.insert(cols.end(), idx.begin(), idx.end());
      DimSize off{dims::kOffset, n};
      LinearLayout mem =
          ok(LinearLayout::fromColumns(std::span(&off, 1), outs, cols));
      Plan p = ok(planSharedMemoryWith(a, b, bits, mem, sp.vecBits));
      SimulationResult s = ok(simulate(p));
      EXPECT_TRUE(s.correct);
      // The planner's formula agrees with the simulator on every layout.
      EXPECT_EQ(s.storeWavefronts, p.smem->store.wavefronts) << mem.str();
      EXPECT_EQ(s.loadWavefronts, p.smem->load.wavefronts) << mem.str();
      ++layoutsTried;
      best = std::min(best, s.storeWavefronts + s.loadWavefronts);
      return;
    }
    uint64_t vecMask = 0;
    for (int bit : sp.vecBits)
      vecMask |= uint64_t(1) << bit;
    for (uint64_t c = 1; c < (uint64_t(1) << n); ++c) {
      // A column with a vector bit would split the vectors (they must stay
      // contiguous and aligned): such layouts lose the maximal vectorization.
      if (c & vecMask)
        continue;
      std::vector<uint64_t> t = chosen;
      for (int bit : sp.vecBits)
        t.push_back(uint64_t(1) << bit);
      t.push_back(c);
      if (rankOf(t) != int(t.size()))
        continue;
      chosen.push_back(c);
      rec();
      chosen.pop_back();
    }
  };
  rec();
  return best;
}

TEST(PlanBruteForce, NoSwizzleBeatsThePlannedOne) {
  struct Case {
    std::shared_ptr<Encoding> a, b;
    std::vector<int64_t> shape;
    int bits;
  };
  std::vector<Case> cases = {
      // f32 16x8, one warp, 4 registers: scalar (no common register), i = 2.
      {blockedEnc({1, 4}, {16, 2}, {1, 1}, {1, 0}),
       blockedEnc({4, 1}, {2, 16}, {1, 1}, {0, 1}),
       {16, 8},
       32},
      // the mma accumulator to its transposed-order blocked layout, f32.
      {mmaV2Enc({1, 1}),
       blockedEnc({2, 1}, {8, 4}, {1, 1}, {0, 1}),
       {16, 8},
       32},
      // f16 16x8: 2-byte scalars, Sub = 1 bit inside a word, Idx = 1 bit.
      {blockedEnc({1, 4}, {16, 2}, {1, 1}, {1, 0}),
       blockedEnc({4, 1}, {2, 16}, {1, 1}, {0, 1}),
       {16, 8},
       16},
      // f32 with a 2-register common vector (8 B, lane groups of 16).
      {blockedEnc({1, 2}, {16, 2}, {1, 1}, {1, 0}),
       blockedEnc({2, 2}, {4, 8}, {1, 1}, {1, 0}),
       {16, 8},
       32},
  };
  for (const Case &c : cases) {
    LinearLayout a = layoutOf(*c.a, c.shape), b = layoutOf(*c.b, c.shape);
    // (One-warp pairs: planConversion may take warp shuffles by the cost
    // model; the swizzle under test is the shared-memory plan's.)
    checkedPlan(a, b, c.bits, a.str() + " -> " + b.str());
    Plan p = ok(planSharedMemory(a, b, c.bits, vectorOnly()));
    ASSERT_EQ(p.strategy, Strategy::SharedMemory);
    ASSERT_TRUE(ok(simulate(p)).correct);
    int64_t tried = 0;
    int64_t best = bruteForceBest(a, b, c.bits, tried);
    EXPECT_GT(tried, 50);
    std::printf("brute force: %lld layouts\n", (long long)tried);
    EXPECT_EQ(p.smem->store.wavefronts + p.smem->load.wavefronts, best)
        << a.str() << " -> " << b.str() << " (" << tried << " layouts)";
  }
}

} // namespace
} // namespace lk::plan

// A direct call of the planners (no api layer in front) is bounded before
// any work by plan::checkPlanSize: without it, 2^40 lanes made the
// warp-shuffle planner loop over every lane and round (2^40 iterations).
TEST(PlanBounds, HugeDimsAreRefusedBeforePlanning) {
  namespace dims = linear::dims;
  // Identity-like layout: dim `big` has `bits` bits mapped to dim0 bits
  // [0, bits), then `rest` lane bits above them. `swap` exchanges the first
  // two columns, so src != dst and neither no-op nor register permutation
  // applies when the big dim is lane.
  auto layout = [](linear::DimId big, int bits, bool swap) {
    std::vector<uint64_t> cols;
    for (int j = 0; j < bits; ++j)
      cols.push_back(uint64_t(1) << j);
    if (swap)
      std::swap(cols[0], cols[1]);
    DimSize ins[] = {{big, bits}};
    DimSize outs[] = {{dims::dim(0), bits}};
    return test::ok(LinearLayout::fromColumns(ins, outs, cols));
  };
  struct Case {
    linear::DimId dim;
    int bits;
    const char *message;
  };
  const Case cases[] = {
      {dims::kLane, 40,
       "SRC has 2^40 lanes per warp; plans are made for at most 64"},
      {dims::kLane, 7,
       "SRC has 2^7 lanes per warp; plans are made for at most 64"},
      {dims::kWarp, 11,
       "SRC has 2^11 threads (lanes x warps); plans are made for at most "
       "1024 (a CTA)"},
      {dims::kBlock, 5,
       "SRC has 2^5 blocks; plans are made for at most 16 (a cluster)"},
      {dims::kRegister, 17,
       "SRC has 2^17 registers per thread; plans are made for at most 65536"},
      // The most a dim holds (a layout refuses 63 bits, LinearLayout.h).
      {dims::kRegister, 62,
       "SRC has 2^62 registers per thread; plans are made for at most 65536"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    const LinearLayout src = layout(c.dim, c.bits, false);
    const LinearLayout dst = layout(c.dim, c.bits, true);
    Expected<Plan> conversion = planConversion(src, dst, 16);
    Expected<Plan> shuffle = planWarpShuffle(src, dst, 16);
    Expected<Plan> shared = planSharedMemory(src, dst, 16);
    for (const Expected<Plan> *p : {&conversion, &shuffle, &shared}) {
      ASSERT_FALSE(*p);
      EXPECT_EQ(p->error().message, c.message);
    }
  }
  // DST is checked too: a small SRC against a DST of 2^7 lanes.
  Expected<Plan> d = planConversion(layout(dims::kLane, 5, false),
                                    layout(dims::kLane, 7, true), 16);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message,
            "DST has 2^7 lanes per warp; plans are made for at most 64");
  // At the limits the checks pass: 64 lanes x 16 warps, 2^16 registers.
  LinearLayout lanes64 = layout(dims::kLane, 6, false);
  EXPECT_TRUE(checkPlanSize(lanes64, lanes64));
  LinearLayout regs16 = layout(dims::kRegister, 16, false);
  EXPECT_TRUE(checkPlanSize(regs16, regs16));
}
