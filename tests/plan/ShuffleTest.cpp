//===- ShuffleTest.cpp - Round-optimal warp shuffles and the cost model ---===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every plan built here runs through plan::simulate, which executes the
// rounds lane by lane and checks every destination register. Expected
// values are derived by hand in the comments (xK / rK / cK: logical bit K,
// row bit K, column bit K).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Standard.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Simulator.h"

#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace lk::plan {
namespace {

using linear::DimSize;
using linear::LinearLayout;
namespace dims = linear::dims;
// ok(), the encoding and layout builders, randomDistributed: PlanTestSupport.h.
using namespace test;

/// A layout of a 2^n-element 1-D tensor from its columns (logical bit
/// masks): `reg` register columns, `lane` lane columns (5), `warp` warp
/// columns, `block` block columns.
LinearLayout bitsLayout(int n, std::vector<uint64_t> reg,
                        std::vector<uint64_t> lane,
                        std::vector<uint64_t> warp = {},
                        std::vector<uint64_t> block = {}) {
  std::vector<DimSize> ins = {{dims::kRegister, int(reg.size())},
                              {dims::kLane, int(lane.size())},
                              {dims::kWarp, int(warp.size())},
                              {dims::kBlock, int(block.size())}};
  std::vector<DimSize> outs = {{dims::dim(0), n}};
  std::vector<uint64_t> cols = reg;
  cols.insert(cols.end(), lane.begin(), lane.end());
  cols.insert(cols.end(), warp.begin(), warp.end());
  cols.insert(cols.end(), block.begin(), block.end());
  return ok(LinearLayout::fromColumns(ins, outs, cols));
}
constexpr uint64_t x(int k) { return uint64_t(1) << k; }

/// Simulates a shuffle plan: correct, and the simulator's independent
/// counts equal the plan's cost (per CTA; the simulator counts every CTA).
SimulationResult checkedShuffle(const Plan &p, const std::string &what) {
  EXPECT_EQ(p.strategy, Strategy::WarpShuffle) << what;
  SimulationResult s = ok(simulate(p));
  const int64_t ctas = p.layouts.src.inDimSize(dims::kBlock);
  EXPECT_TRUE(s.correct) << what << ": " << s.firstMismatch;
  EXPECT_EQ(s.shuffles, ctas * p.cost.shuffles) << what;
  EXPECT_EQ(s.selects, ctas * p.cost.selects) << what;
  EXPECT_EQ(s.registerMoves, ctas * p.cost.registerMoves) << what;
  EXPECT_EQ(s.instructions, ctas * p.cost.instructions) << what;
  EXPECT_EQ(s.storeWavefronts + s.loadWavefronts + s.barriers, 0) << what;
  return s;
}

/// Each round sends one vector per lane and delivers one per lane: lane l
/// never receives the same destination register twice, and, without
/// broadcast in B, no two lanes read the same source lane.
void expectOneVectorPerLaneAndRound(const Plan &p, bool destinationBroadcast,
                                    const std::string &what) {
  ASSERT_TRUE(p.shuffle);
  const size_t lanes = p.rounds.empty() ? 0 : p.rounds[0].srcLane.size();
  std::vector<std::set<int64_t>> received(lanes);
  for (const ShuffleRound &r : p.rounds) {
    std::set<int64_t> sources(r.srcLane.begin(), r.srcLane.end());
    if (!destinationBroadcast) {
      EXPECT_EQ(sources.size(), lanes) << what;
    }
    for (size_t l = 0; l < lanes; ++l)
      for (int64_t reg : r.dstRegisters[l])
        EXPECT_TRUE(received[l].insert(reg).second)
            << what << ": lane " << l << " receives register " << reg
            << " twice";
  }
}

//===----------------------------------------------------------------------===//
// Hand-derived plans
//===----------------------------------------------------------------------===//

TEST(ShuffleHandDerived, OneLaneBitSwapsWithOneRegisterBit) {
  // In the style of the paper's Figure 3. 64 f32 elements, one warp:
  //   A = {register: [x0], lane: [x1, x2, x3, x4, x5]},
  //   B = {register: [x1], lane: [x0, x2, x3, x4, x5]}.
  // V = {} (f32), R = {x1} (B register 0): 2 rounds = 2 elements per
  // thread. I = {x2..x5} (lane bits 1-4 of both), E = {x1} (A lane 0, B
  // register 0), F = {x0} (B lane 0, A register 0); the paper's G =
  // {x1 ^ x0}. B's lane l, register r holds x0 = l0, x1 = r, x2.. = l >> 1;
  // in A that element is register l0 of lane r | (l & ~1). In round t lane
  // l receives register r = t ^ l0, so it reads lane (t ^ l0) | (l & ~1) =
  // l ^ t, and lane s sends register (s ^ t) & 1 (its reader is l = s ^ t).
  LinearLayout a = bitsLayout(6, {x(0)}, {x(1), x(2), x(3), x(4), x(5)});
  LinearLayout b = bitsLayout(6, {x(1)}, {x(0), x(2), x(3), x(4), x(5)});
  Plan p = ok(planWarpShuffle(a, b, 32));
  ASSERT_EQ(p.rounds.size(), 2u);
  ASSERT_TRUE(p.shuffle);
  EXPECT_EQ(p.shuffle->vectorElements, 1);
  EXPECT_EQ(p.shuffle->wordsPerVector, 1);
  for (int64_t t = 0; t < 2; ++t)
    for (int64_t l = 0; l < 32; ++l) {
      const ShuffleRound &r = p.rounds[size_t(t)];
      EXPECT_EQ(r.srcLane[size_t(l)], l ^ t) << "round " << t << " lane " << l;
      EXPECT_EQ(r.sendRegisters[size_t(l)], std::vector<int64_t>{(l ^ t) & 1});
      EXPECT_EQ(r.dstRegisters[size_t(l)], std::vector<int64_t>{(l & 1) ^ t});
    }
  // One lane bit chooses the sent register and one the received one:
  // d_s = d_r = 1, 2 selects per round. Round 0 reads lane l ^ 0 = l: every
  // lane keeps its own element (source register l & 1 into destination
  // register l & 1: one move), no shuffle; round 1 shuffles.
  // cycles = 1 * 1 + (4 + 1) * 0.5 = 3.5.
  EXPECT_TRUE(p.rounds[0].laneLocal());
  EXPECT_FALSE(p.rounds[1].laneLocal());
  EXPECT_EQ(p.shuffle->sendSelectBits, 1);
  EXPECT_EQ(p.shuffle->receiveSelectBits, 1);
  EXPECT_EQ(p.cost.shuffles, 1);
  EXPECT_EQ(p.cost.selects, 4);
  EXPECT_EQ(p.cost.registerMoves, 1);
  EXPECT_DOUBLE_EQ(p.cost.cycles, 3.5);
  checkedShuffle(p, "swap");
  expectOneVectorPerLaneAndRound(p, false, "swap");
}

TEST(ShuffleHandDerived, HeaderExampleTakesEightRounds) {
  // Plan.h's 16x16 f32 pair in one warp:
  //   A register [c1, c2, r8], lane [c4, c8, r1, r2, r4]
  //   B register [r1, r2, c8], lane [r4, r8, c1, c2, c4].
  // V = {}, R = B's 3 register bits: 8 rounds (8 elements per thread; the
  // one-register-per-round plan took 64). I = {r4, c4}, E = {r1, r2, c8}
  // (A lanes 2, 3, 1), F = {r8, c1, c2} (B lanes 1, 2, 3; A registers 2,
  // 0, 1), paired in order: B lane 1 with B register 0 (r1), lane 2 with
  // register 1, lane 3 with register 2.
  LinearLayout a = blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {16, 16});
  LinearLayout b = blocked({4, 1}, {4, 8}, {1, 1}, {0, 1}, {16, 16});
  Plan p = ok(planWarpShuffle(a, b, 32));
  ASSERT_EQ(p.rounds.size(), 8u);
  const ShuffleRound &r0 = p.rounds[0];
  // Round 0, B lane 1 (r4 set), register 0: element (row 4, col 0); A holds
  // row bit r4 in lane bit 4: lane 16, register 0.
  EXPECT_EQ(r0.srcLane[1], 16);
  EXPECT_EQ(r0.dstRegisters[1], std::vector<int64_t>{0});
  EXPECT_EQ(r0.sendRegisters[16], std::vector<int64_t>{0});
  // Round 0, B lane 2 (r8 set) receives register rho = 1 (r1): element
  // (row 9, col 0); A holds r1 in lane bit 2 and r8 in register bit 2:
  // lane 4, register 4.
  EXPECT_EQ(r0.srcLane[2], 4);
  EXPECT_EQ(r0.dstRegisters[2], std::vector<int64_t>{1});
  EXPECT_EQ(r0.sendRegisters[4], std::vector<int64_t>{4});
  // Round 1 (B register bit 0 = r1 = A lane bit 2), B lane 0: register 1,
  // element (row 1, col 0): lane 4, register 0.
  EXPECT_EQ(p.rounds[1].srcLane[0], 4);
  EXPECT_EQ(p.rounds[1].dstRegisters[0], std::vector<int64_t>{1});
  // d_s = d_r = 3: 6 selects per round; 8 + 48 * 0.5 = 32 cycles.
  EXPECT_EQ(p.cost.selects, 48);
  EXPECT_DOUBLE_EQ(p.cost.cycles, 32.0);
  checkedShuffle(p, "header example");
  expectOneVectorPerLaneAndRound(p, false, "header example");
}

//===----------------------------------------------------------------------===//
// Vectorization
//===----------------------------------------------------------------------===//

TEST(ShuffleVectorized, CommonRegisterBitsArePackedIntoWords) {
  // 256 elements, one warp:
  //   A register [x0, x1, x2], lane [x3, x4, x5, x6, x7]
  //   B register [x0, x1, x3], lane [x2, x4, x5, x6, x7]
  // Common register bits x0, x1 (registers 0, 1 of both). 8 elements per
  // thread. f8: V = {x0, x1}, 4 per word: 2 rounds. f16: V = {x0}: 4
  // rounds. f32: V = {}: 8 rounds. f64: 8 rounds of 2 words. B's round bit
  // x3 is A's lane bit 0 and B's lane bit 0 (x2) is A's register bit 2, so
  // in the rounds whose round bit x3 is 0 (half of them) lane l reads
  // itself: no shuffle and no pack / unpack there, a move per element
  // and word instead.
  LinearLayout a =
      bitsLayout(8, {x(0), x(1), x(2)}, {x(3), x(4), x(5), x(6), x(7)});
  LinearLayout b =
      bitsLayout(8, {x(0), x(1), x(3)}, {x(2), x(4), x(5), x(6), x(7)});
  struct Want {
    int bits;
    int64_t vec, words, rounds;
  };
  for (Want w : {Want{8, 4, 1, 2}, Want{16, 2, 1, 4}, Want{32, 1, 1, 8},
                 Want{64, 1, 2, 8}}) {
    std::string what = "f" + std::to_string(w.bits);
    Plan p = ok(planWarpShuffle(a, b, w.bits));
    ASSERT_TRUE(p.shuffle);
    EXPECT_EQ(p.shuffle->vectorElements, w.vec) << what;
    EXPECT_EQ(p.shuffle->wordsPerVector, w.words) << what;
    EXPECT_EQ(int64_t(p.rounds.size()), w.rounds) << what;
    int64_t local = 0;
    for (const ShuffleRound &r : p.rounds)
      local += r.laneLocal();
    EXPECT_EQ(local, w.rounds / 2) << what;
    EXPECT_EQ(p.cost.shuffles, w.rounds / 2 * w.words) << what;
    // E = {x3}, F = {x2}: one select bit on each side, in every round.
    EXPECT_EQ(p.cost.selects, 2 * w.rounds * w.words) << what;
    // Pack and unpack: 2 * (vec - 1) moves per shuffled round; vec * words
    // per lane-local round.
    EXPECT_EQ(p.cost.registerMoves,
              w.rounds / 2 * 2 * (w.vec - 1) + w.rounds / 2 * w.vec * w.words)
        << what;
    // The packed elements are consecutive registers of both sides
    // (register bits 0 and 1 hold x0 and x1).
    for (const ShuffleRound &r : p.rounds)
      for (size_t l = 0; l < 32; ++l)
        for (int64_t e = 0; e < w.vec; ++e) {
          EXPECT_EQ(r.sendRegisters[l][size_t(e)], r.sendRegisters[l][0] + e);
          EXPECT_EQ(r.dstRegisters[l][size_t(e)], r.dstRegisters[l][0] + e);
        }
    checkedShuffle(p, what);
    expectOneVectorPerLaneAndRound(p, false, what);
  }
}

//===----------------------------------------------------------------------===//
// Random intra-warp pairs
//===----------------------------------------------------------------------===//

/// B = A with its register and lane columns shuffled among themselves (the
/// warp columns stay, so no element changes warp).
LinearLayout shuffledWithinWarps(std::mt19937_64 &rng, const LinearLayout &a) {
  int regLane = a.inDimLog2(dims::kRegister) + a.inDimLog2(dims::kLane);
  std::vector<uint64_t> cols(a.columns().begin(), a.columns().end());
  std::shuffle(cols.begin(), cols.begin() + regLane, rng);
  LinearLayout b = a;
  for (int j = 0; j < regLane; ++j)
    b.setColumn(j, cols[size_t(j)]);
  return b;
}

TEST(ShuffleRandom, MinimalRoundsWithoutBroadcast) {
  // Without broadcast every lane needs (elements per thread) / 2^|V|
  // vectors and receives one per round: that many rounds is the minimum,
  // with |V| = min(common register bits, log2(32 / bits)).
  std::mt19937_64 rng(6061);
  int vectorized = 0;
  for (int iter = 0; iter < 240; ++iter) {
    int warpBits = int(rng() % 3);
    int r0 = 3 + int(rng() % 3), r1 = 3 + int(rng() % 3);
    if (r0 + r1 < 6 + warpBits)
      continue; // too few bits: some lane or warp column would be zero
    LinearLayout a = test::randomDistributed(rng, r0, r1, warpBits, false);
    LinearLayout b = shuffledWithinWarps(rng, a);
    int bits = 8 << (iter % 4);
    std::string what = a.str() + " -> " + b.str() + " f" + std::to_string(bits);
    int regBits = a.inDimLog2(dims::kRegister);
    std::set<uint64_t> ra;
    for (int j = 0; j < regBits; ++j)
      ra.insert(a.column(j));
    int common = 0;
    for (int j = 0; j < regBits; ++j)
      common += ra.count(b.column(j)) ? 1 : 0;
    int maxV = bits >= 32 ? 0 : (bits == 16 ? 1 : 2);
    int v = std::min(common, maxV);
    vectorized += v > 0;
    Plan p = ok(planWarpShuffle(a, b, bits));
    EXPECT_EQ(int64_t(p.rounds.size()), int64_t(1) << (regBits - v)) << what;
    int64_t words = bits == 64 ? 2 : 1;
    // Rounds in which every lane reads itself take no shuffle.
    int64_t shuffled = 0;
    for (const ShuffleRound &r : p.rounds)
      shuffled += !r.laneLocal();
    EXPECT_EQ(p.cost.shuffles, (shuffled * words) << warpBits) << what;
    checkedShuffle(p, what);
    expectOneVectorPerLaneAndRound(p, false, what);
  }
  EXPECT_GT(vectorized, 40);
}

TEST(ShuffleBroadcast, RandomPairsWithZeroColumns) {
  // Zero columns anywhere in A or B (the same warp columns). A lane of B
  // still receives one vector per round, so the rounds are (distinct
  // registers of B) / 2^|V|; duplicated registers of B are copies.
  std::mt19937_64 rng(4242);
  int withCopies = 0, sourceBroadcast = 0, destBroadcast = 0;
  for (int iter = 0; iter < 240; ++iter) {
    int warpBits = int(rng() % 3);
    LinearLayout a = test::randomDistributed(
        rng, 3 + int(rng() % 3), 3 + int(rng() % 3), warpBits, true);
    LinearLayout b = shuffledWithinWarps(rng, a);
    int bits = 8 << (iter % 4);
    std::string what = a.str() + " -> " + b.str() + " f" + std::to_string(bits);
    Plan p = ok(planWarpShuffle(a, b, bits));
    int regBits = b.inDimLog2(dims::kRegister);
    std::set<uint64_t> ra;
    for (int j = 0; j < a.inDimLog2(dims::kRegister); ++j)
      if (a.column(j))
        ra.insert(a.column(j));
    int nonzero = 0, common = 0;
    for (int j = 0; j < regBits; ++j) {
      nonzero += b.column(j) != 0;
      common += ra.count(b.column(j)) ? 1 : 0;
    }
    int v = std::min(common, bits >= 32 ? 0 : (bits == 16 ? 1 : 2));
    EXPECT_EQ(int64_t(p.rounds.size()), int64_t(1) << (nonzero - v)) << what;
    EXPECT_EQ(int64_t(p.shuffle->registerCopies.size()),
              (int64_t(1) << regBits) - (int64_t(1) << nonzero))
        << what;
    withCopies += !p.shuffle->registerCopies.empty();
    bool aLaneZero = false, bLaneZero = false;
    for (int j = 0; j < 5; ++j) {
      aLaneZero |= a.column(a.inShift(1) + j) == 0;
      bLaneZero |= b.column(b.inShift(1) + j) == 0;
    }
    sourceBroadcast += aLaneZero;
    destBroadcast += bLaneZero;
    checkedShuffle(p, what);
    expectOneVectorPerLaneAndRound(p, bLaneZero, what);
  }
  EXPECT_GT(withCopies, 20);
  EXPECT_GT(sourceBroadcast, 100);
  EXPECT_GT(destBroadcast, 100);
}

TEST(ShuffleBroadcast, SourceLaneBroadcastReadsFromTheCopy) {
  // A: register [x0, x1], lane [x2, x3, x4, x5, 0]: lanes 16-31 copy lanes
  // 0-15. B: register [x2], lane [x0, x1, x3, x4, x5], no broadcast.
  // I = {x3, x4, x5}, E = {x2} (A lane 0), F = {x0, x1} (A registers 0, 1).
  // x0 pairs with E; x1 pairs with A's zero lane bit 4. R = {x2}: 2 rounds,
  // the minimum (2 elements per thread). Reading only owners (lanes 0-15)
  // would deliver at most 16 distinct elements per round: 4 rounds.
  LinearLayout a = bitsLayout(6, {x(0), x(1)}, {x(2), x(3), x(4), x(5), 0});
  LinearLayout b = bitsLayout(6, {x(2)}, {x(0), x(1), x(3), x(4), x(5)});
  Plan p = ok(planWarpShuffle(a, b, 16));
  EXPECT_EQ(p.rounds.size(), 2u);
  // Round 0, B lane 2 (x1 set), register 0: element x1 = A register 1 of
  // lane 0, read from its copy in lane 16.
  EXPECT_EQ(p.rounds[0].srcLane[2], 16);
  EXPECT_EQ(p.rounds[0].sendRegisters[16], std::vector<int64_t>{2});
  checkedShuffle(p, "source broadcast");
  expectOneVectorPerLaneAndRound(p, false, "source broadcast");
}

TEST(ShuffleBroadcast, DestinationBroadcastSharesTheSender) {
  // A: register [x0], lane [x1, x2, x3, x4, x5] (64 elements);
  // B: register [x1, x5, 0], lane [x0, x2, x3, x4, 0]: lanes l and l ^ 16
  // of B hold the same elements, so they read the same lane; register bit
  // 2 of B is a copy (registers 4-7 = registers 0-3: 4 copies).
  // R = {x1, x5}: 4 rounds.
  LinearLayout a = bitsLayout(6, {x(0)}, {x(1), x(2), x(3), x(4), x(5)});
  LinearLayout b = bitsLayout(6, {x(1), x(5), 0}, {x(0), x(2), x(3), x(4), 0});
  Plan p = ok(planWarpShuffle(a, b, 32));
  EXPECT_EQ(p.rounds.size(), 4u);
  for (const ShuffleRound &r : p.rounds)
    for (int l = 0; l < 16; ++l) {
      EXPECT_EQ(r.srcLane[size_t(l)], r.srcLane[size_t(l + 16)]);
      EXPECT_EQ(r.dstRegisters[size_t(l)], r.dstRegisters[size_t(l + 16)]);
    }
  ASSERT_EQ(p.shuffle->registerCopies.size(), 4u);
  EXPECT_EQ(p.shuffle->registerCopies[0].to, 4);
  EXPECT_EQ(p.shuffle->registerCopies[0].from, 0);
  SimulationResult s = checkedShuffle(p, "destination broadcast");
  EXPECT_EQ(s.registerMoves, 4);
}

TEST(ShuffleCta, EqualBlockColumnsShuffleInEveryCta) {
  // The one-bit swap with a warp bit (x6) and a block bit (x7) shared by
  // both layouts: 2 rounds in each of the 2 warps of a CTA, round 0
  // lane-local, so 2 shuffles and 8 selects per CTA (costs are per CTA);
  // both CTAs are simulated (the simulator's counts cover both: 4
  // shuffles).
  LinearLayout a =
      bitsLayout(8, {x(0)}, {x(1), x(2), x(3), x(4), x(5)}, {x(6)}, {x(7)});
  LinearLayout b =
      bitsLayout(8, {x(1)}, {x(0), x(2), x(3), x(4), x(5)}, {x(6)}, {x(7)});
  Plan p = ok(planConversion(a, b, 32));
  EXPECT_EQ(p.strategy, Strategy::WarpShuffle);
  EXPECT_EQ(p.rounds.size(), 2u);
  EXPECT_EQ(p.cost.shuffles, 2);
  EXPECT_EQ(p.cost.selects, 8);
  EXPECT_NE(p.describe().find("2 rounds of 1 x 32-bit elements"),
            std::string::npos)
      << p.describe();
  SimulationResult s = checkedShuffle(p, "two CTAs");
  EXPECT_EQ(s.shuffles, 4);
  EXPECT_EQ(s.checked, 2 * 2 * 32 * 2); // CTAs x warps x lanes x registers
}

//===----------------------------------------------------------------------===//
// Cost model and strategy choice
//===----------------------------------------------------------------------===//

TEST(ShuffleCostModel, ShufflesWinForAnIntraWarpPair) {
  // The 16x16 f32 pair above. Shared memory: 8 stores and 8 loads of 1
  // wavefront each (Plan.h) and one barrier: 16 + 20 = 36 cycles. Shuffles:
  // 8 + 48 * 0.5 = 32 cycles. planConversion picks the shuffles.
  LinearLayout a = blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {16, 16});
  LinearLayout b = blocked({4, 1}, {4, 8}, {1, 1}, {0, 1}, {16, 16});
  Plan shared = ok(planSharedMemory(a, b, 32));
  EXPECT_DOUBLE_EQ(shared.cost.cycles, 36.0);
  Plan p = ok(planConversion(a, b, 32));
  EXPECT_EQ(p.strategy, Strategy::WarpShuffle);
  EXPECT_DOUBLE_EQ(p.cost.cycles, 32.0);
  EXPECT_DOUBLE_EQ(p.cost.cycles, estimatedCycles(p.cost));
  checkedShuffle(p, "chosen");
  // The one-bit swap: 3.5 cycles (1 shuffle, 4 selects, 1 move) against
  // shared memory's 2 + 2 wavefronts (2 stores, 2 loads) + 20.
  LinearLayout sa = bitsLayout(6, {x(0)}, {x(1), x(2), x(3), x(4), x(5)});
  LinearLayout sb = bitsLayout(6, {x(1)}, {x(0), x(2), x(3), x(4), x(5)});
  EXPECT_DOUBLE_EQ(ok(planSharedMemory(sa, sb, 32)).cost.cycles, 24.0);
  EXPECT_EQ(ok(planConversion(sa, sb, 32)).strategy, Strategy::WarpShuffle);
}

TEST(ShuffleCostModel, LaneLocalRoundsAreRegisterMoves) {
  // A register-only swap: A register [x0, x1], B register [x1, x0], the
  // same lanes (x2..x6), f32, one warp. Both register bits are common, but
  // an f32 word holds one element (V = {}), so the shuffle planner takes
  // 2^2 = 4 rounds, each lane-local (every lane already holds what it
  // receives): 4 moves, no shuffle, no select: 2 cycles. The
  // register permutation swaps registers 1 and 2: 2 moves, 1 cycle, and
  // planConversion takes it.
  LinearLayout a = bitsLayout(7, {x(0), x(1)}, {x(2), x(3), x(4), x(5), x(6)});
  LinearLayout b = bitsLayout(7, {x(1), x(0)}, {x(2), x(3), x(4), x(5), x(6)});
  Plan sh = ok(planWarpShuffle(a, b, 32));
  ASSERT_EQ(sh.rounds.size(), 4u);
  for (const ShuffleRound &r : sh.rounds)
    EXPECT_TRUE(r.laneLocal());
  EXPECT_EQ(sh.cost.shuffles, 0);
  EXPECT_EQ(sh.cost.selects, 0);
  EXPECT_EQ(sh.cost.registerMoves, 4);
  EXPECT_DOUBLE_EQ(sh.cost.cycles, 2.0);
  checkedShuffle(sh, "all lane-local");
  Plan p = ok(planConversion(a, b, 32));
  EXPECT_EQ(p.strategy, Strategy::RegisterPermutation);
  EXPECT_EQ(p.cost.registerMoves, 2);
  EXPECT_LE(p.cost.cycles, sh.cost.cycles);
}

TEST(ShuffleCostModel, SharedMemoryWinsForAFullTranspose) {
  // f32 32x32, one warp, lane l holds row l (A) / column l (B): I = {},
  // |E| = |F| = 5, 32 rounds, d_s = d_r = 5. In round 0 lane l keeps the
  // diagonal element (l, l), which it holds in both layouts: no shuffle,
  // one move. 31 + (10 * 32 + 1) * 0.5 = 191.5 cycles. Shared memory:
  // 32 + 32 wavefronts + 20 = 84 cycles.
  LinearLayout rows = blocked({1, 32}, {32, 1}, {1, 1}, {1, 0}, {32, 32});
  LinearLayout cols = blocked({32, 1}, {1, 32}, {1, 1}, {0, 1}, {32, 32});
  Plan sh = ok(planWarpShuffle(rows, cols, 32));
  EXPECT_TRUE(sh.rounds[0].laneLocal());
  EXPECT_EQ(sh.cost.shuffles, 31);
  EXPECT_DOUBLE_EQ(sh.cost.cycles, 191.5);
  checkedShuffle(sh, "transpose by shuffles");
  Plan p = ok(planConversion(rows, cols, 32));
  EXPECT_EQ(p.strategy, Strategy::SharedMemory);
  EXPECT_DOUBLE_EQ(p.cost.cycles, 84.0);
}

TEST(ShuffleCostModel, SharedMemoryWhenDataCrossesWarps) {
  // f16 64x64, 4 warps: warps along rows (A) vs a 2x2 warp grid (B): the
  // warp columns differ, so shuffles do not apply.
  LinearLayout a = blocked({1, 8}, {8, 4}, {4, 1}, {1, 0}, {64, 64});
  LinearLayout b = blocked({1, 8}, {16, 2}, {2, 2}, {1, 0}, {64, 64});
  Expected<Plan> sh = planWarpShuffle(a, b, 16);
  ASSERT_FALSE(sh);
  // A's warps are r8, r16 (4 warps down the rows above 8 rows of lanes);
  // B's first warp bit is c16 (its lanes cover c8 and r1-r8, registers
  // c1-c4, warps in order [1, 0]).
  EXPECT_EQ(sh.error().message,
            "data moves between warps: warp basis 0 is (8,0) in the source "
            "and (0,16) in the destination (warp shuffles move data within a "
            "warp)");
  Plan p = ok(planConversion(a, b, 16));
  EXPECT_EQ(p.strategy, Strategy::SharedMemory);
  EXPECT_DOUBLE_EQ(p.cost.cycles, estimatedCycles(p.cost));
  EXPECT_GT(p.cost.cycles, 0.0);
}

TEST(ShuffleCostModel, CheaperPlanPrefersTheFirstOnTies) {
  Plan one, two;
  one.strategy = Strategy::WarpShuffle;
  one.cost.shuffles = 20; // 20 cycles
  two.strategy = Strategy::SharedMemory;
  two.cost.barriers = 1; // 20 cycles
  EXPECT_EQ(ok(cheaperPlan(one, two)).strategy, Strategy::WarpShuffle);
  two.cost.barriers = 0;
  two.cost.wavefronts = 19;
  EXPECT_EQ(ok(cheaperPlan(one, two)).strategy, Strategy::SharedMemory);
  Expected<Plan> failed = Diagnostic::error("no");
  EXPECT_EQ(ok(cheaperPlan(failed, two)).strategy, Strategy::SharedMemory);
  EXPECT_EQ(ok(cheaperPlan(one, Diagnostic::error("no"))).strategy,
            Strategy::WarpShuffle);
  Expected<Plan> none =
      cheaperPlan(Diagnostic::error("first"), Diagnostic::error("second"));
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "second");
}

TEST(ShuffleCostModel, CostTextSummarisesEveryField) {
  // 32 moves x 0.5 + 16 wavefronts + 1 barrier x 20 = 52 cycles; one
  // barrier is singular, two plural.
  Cost c;
  c.instructions = 40;
  c.registerMoves = 32;
  c.wavefronts = 16;
  c.barriers = 1;
  c.smemBytes = 1024;
  c.cycles = estimatedCycles(c);
  EXPECT_EQ(costText(c),
            "40 instructions (32 register moves, 0 selects, 0 shuffles), 16 "
            "wavefronts, 1 barrier, 1024 B of shared memory, 52.0 estimated "
            "cycles");
  c.barriers = 2;
  EXPECT_NE(costText(c).find(" 2 barriers, "), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Refusals and malformed rounds
//===----------------------------------------------------------------------===//

TEST(ShuffleErrors, RefusedPairs) {
  LinearLayout a = bitsLayout(6, {x(0)}, {x(1), x(2), x(3), x(4), x(5)});
  Expected<Plan> w = planWarpShuffle(a, a, 12);
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("12 bits"), std::string::npos);
  // Not distributed: a column with two logical bits.
  LinearLayout nd =
      bitsLayout(6, {x(0) | x(1)}, {x(1), x(2), x(3), x(4), x(5)});
  Expected<Plan> d = planWarpShuffle(a, nd, 32);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("distributed"), std::string::npos)
      << d.error().message;
  // A destination that misses logical bit x1 (a zero register column).
  LinearLayout partial = bitsLayout(6, {0}, {x(0), x(2), x(3), x(4), x(5)});
  Expected<Plan> c = planWarpShuffle(a, partial, 32);
  ASSERT_FALSE(c);
  // 5 of its 6 logical bits spanned: 2^5 of the 2^6 elements held.
  EXPECT_EQ(c.error().message,
            "the destination layout holds 32 of its tensor's 64 elements (its "
            "columns span 5 of 6 logical bits), so it does not cover the "
            "tensor: " +
                partial.str());
  // 2^17 registers per thread are refused before anything is enumerated.
  std::vector<uint64_t> reg17;
  for (int k = 5; k < 22; ++k)
    reg17.push_back(x(k));
  LinearLayout big = bitsLayout(22, reg17, {x(0), x(1), x(2), x(3), x(4)});
  Expected<Plan> huge = planWarpShuffle(big, big, 32);
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().message,
            "SRC has 2^17 registers per thread; plans are made for at most "
            "65536");
}

TEST(ShuffleErrors, SimulatorRejectsMalformedRounds) {
  LinearLayout a = bitsLayout(6, {x(0)}, {x(1), x(2), x(3), x(4), x(5)});
  LinearLayout b = bitsLayout(6, {x(1)}, {x(0), x(2), x(3), x(4), x(5)});
  const Plan good = ok(planWarpShuffle(a, b, 32));
  auto rejects = [&](Plan p, const std::string &needle) {
    Expected<SimulationResult> s = simulate(p);
    ASSERT_FALSE(s) << needle;
    EXPECT_NE(s.error().message.find(needle), std::string::npos)
        << s.error().message;
  };
  Plan p = good;
  p.rounds[1].srcLane[3] = 32;
  rejects(p, "source lane 32 out of range");
  p = good;
  p.rounds[0].sendRegisters[5] = {2};
  rejects(p, "send register 2 out of range");
  p = good;
  p.rounds[0].dstRegisters[5] = {0, 1};
  rejects(p, "a vector has 1 elements");
  p = good;
  p.rounds[0].srcLane.pop_back();
  rejects(p, "one entry per lane");
  p = good;
  p.shuffle->wordsPerVector = 2;
  rejects(p, "wordsPerVector");
  p = good;
  p.shuffle.reset();
  rejects(p, "without its WarpShufflePlan");
  p = good;
  p.shuffle->registerCopies.push_back({2, 0});
  rejects(p, "register copy 0 -> 2 out of range");
  // A well-formed but wrong round is a mismatch, not an error.
  p = good;
  p.rounds[0].srcLane[0] ^= 1;
  EXPECT_FALSE(ok(simulate(p)).correct);
}

} // namespace
} // namespace lk::plan
