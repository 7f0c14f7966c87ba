//===- GatherTest.cpp - Gather plans and their simulation -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every plan built here is executed by plan::simulateGather, which runs the
// shuffles lane by lane as __shfl_sync does and compares each output
// register with src[N(x) + e_v] computed from the layouts alone. The choice
// of strategy is checked against a brute-force search over the warp's
// (and the thread's) elements, independent of the planner's linear algebra.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/plan/Gather.h"
#include "layoutkit/linear/Standard.h"

#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace lk::plan {
namespace {

using linear::LinearLayout;
namespace dims = linear::dims;
// ok(), the encoding and layout builders, randomDistributed: PlanTestSupport.h.
using namespace test;

template <class T> std::string errorOf(const Expected<T> &e) {
  return e ? std::string("<no error>") : e.error().message;
}

LinearLayout mmaV2(std::vector<unsigned> wpc, std::vector<int64_t> shape) {
  std::vector<unsigned> instr = {16, 8};
  return ok(linear::nvidiaMmaLayout(2, instr, wpc, shape));
}

/// Row-major index values of a tensor of `shape`, uniform in [0, axisSize).
std::vector<int64_t> randomIndices(std::mt19937 &rng, int64_t elements,
                                   int64_t axisSize) {
  std::uniform_int_distribution<int64_t> d(0, axisSize - 1);
  std::vector<int64_t> v(static_cast<size_t>(elements));
  for (int64_t &x : v)
    x = d(rng);
  return v;
}

/// Simulates `p` on `idx` and checks correctness and that the counts agree
/// with the plan's cost (one CTA).
GatherSimulation checkedRun(const GatherPlan &p,
                            const std::vector<int64_t> &idx,
                            const std::string &what) {
  GatherSimulation s = ok(simulateGather(p, idx));
  EXPECT_TRUE(s.correct) << what << ": " << s.firstMismatch << "\n"
                         << p.describe();
  EXPECT_EQ(s.checked, p.index.inDimSize(dims::kRegister) *
                           p.index.inDimSize(dims::kLane) *
                           p.index.inDimSize(dims::kWarp))
      << what;
  EXPECT_EQ(s.shuffles, p.cost.shuffles) << what;
  EXPECT_EQ(s.selects, p.cost.selects) << what;
  EXPECT_EQ(s.sharedStores, p.cost.sharedStores) << what;
  EXPECT_EQ(s.sharedLoads, p.cost.sharedLoads) << what;
  EXPECT_EQ(s.barriers, p.cost.barriers) << what;
  return s;
}

//===----------------------------------------------------------------------===//
// Hand-derived cases
//===----------------------------------------------------------------------===//

// The header example. f32 8x8, one warp, S = I =
//   {register: [(0,1)], lane: [(0,2),(0,4),(1,0),(2,0),(4,0)]}, axis 1.
// The column bits: c1 in register bit 0 (Reg_axis = {c1}), c2, c4 in lane
// bits 0, 1 (Lane_axis = {c2, c4}). So P: v bit 0 -> register 1, v bit 1 ->
// lane 1, v bit 2 -> lane 2. Lane bits 0, 1 of I only carry the axis (their
// off-axis part is 0, so they do not move the partner); lane bits 2..4 carry
// the row and stay on the reading lane. Output register 1 is column bit 0:
// off the axis it is 0, so D(register 1) = 0. Hence both output registers
// take 2^|Reg_axis| = 2 rounds, sending source registers 0 then 1; lane l
// reads from (l & ~3) | (v >> 1) and keeps round v & 1. Cost per warp:
// 2 registers x 2 rounds = 4 shfl and 4 selects.
TEST(GatherHandDerived, EightByEightAlongLanesAndRegisters) {
  LinearLayout l = ok(LinearLayout::make(
      {{dims::kRegister, {{0, 1}}},
       {dims::kLane, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}}},
      {{dims::dim(0), 8}, {dims::dim(1), 8}}));
  GatherPlan p = ok(planGather(l, l, 1, 32));
  EXPECT_EQ(p.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(p.roundsPerRegister, 2);
  ASSERT_EQ(p.steps.size(), 2u);
  for (const GatherRegisterSteps &st : p.steps) {
    EXPECT_EQ(st.base, (SourceLocation{0, 0}));
    EXPECT_EQ(st.sendRegisters, (std::vector<int64_t>{0, 1}));
  }
  EXPECT_EQ(p.fromIndex, (std::vector<SourceLocation>{{1, 0}, {0, 1}, {0, 2}}));
  EXPECT_EQ(p.fromLane, (std::vector<SourceLocation>{
                            {0, 0}, {0, 0}, {0, 4}, {0, 8}, {0, 16}}));
  EXPECT_TRUE(p.fromWarp.empty());
  EXPECT_EQ(p.cost.shuffles, 4);
  EXPECT_EQ(p.cost.selects, 4);
  EXPECT_EQ(p.cost.sharedLoads, 0);
  EXPECT_EQ(p.cost.barriers, 0);

  // Reverse every row: out[i][j] = src[i][7 - j].
  std::vector<int64_t> reverse(64);
  for (int i = 0; i < 64; ++i)
    reverse[size_t(i)] = 7 - i % 8;
  checkedRun(p, reverse, "reverse rows");
  std::mt19937 rng(6);
  for (int t = 0; t < 10; ++t)
    checkedRun(p, randomIndices(rng, 64, 8), "random");
}

// f32 32x4, blocked sizePerThread [1,4], threadsPerWarp [32,1], one warp:
//   register [(0,1),(0,2)], lane [(1,0),(2,0),(4,0),(8,0),(16,0)].
// Gathering rows (axis 0): every row bit is a lane bit, |Reg_axis| = 0, so
// one round per output register (no select); lane l reads from lane v.
// 4 output registers -> 4 shfl. Gathering columns (axis 1): every column
// bit is a register bit, |Lane_axis| = 0 and I = S on the lanes, so no
// shuffle at all: 2^2 = 4 candidate registers per output register, 16
// selects.
TEST(GatherHandDerived, ThirtyTwoByFourRowsAndColumns) {
  LinearLayout l = blocked({1, 4}, {32, 1}, {1, 1}, {1, 0}, {32, 4});
  GatherPlan rows = ok(planGather(l, l, 0, 32));
  EXPECT_EQ(rows.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(rows.roundsPerRegister, 1);
  EXPECT_EQ(rows.cost.shuffles, 4);
  EXPECT_EQ(rows.cost.selects, 0);
  EXPECT_EQ(rows.fromIndex, (std::vector<SourceLocation>{
                                {0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}));
  for (int64_t r = 0; r < 4; ++r)
    EXPECT_EQ(rows.steps[size_t(r)].sendRegisters,
              (std::vector<int64_t>{r})); // D(r) = r: same column
  std::mt19937 rng(7);
  checkedRun(rows, randomIndices(rng, 128, 32), "rows");

  GatherPlan cols = ok(planGather(l, l, 1, 32));
  EXPECT_EQ(cols.strategy, GatherStrategy::ThreadLocal);
  EXPECT_EQ(cols.roundsPerRegister, 4);
  EXPECT_EQ(cols.cost.shuffles, 0);
  EXPECT_EQ(cols.cost.selects, 16);
  checkedRun(cols, randomIndices(rng, 128, 4), "columns");

  // f64 rows: two 32-bit shuffles per round.
  GatherPlan rows64 = ok(planGather(l, l, 0, 64));
  EXPECT_EQ(rows64.cost.shuffles, 8);
  checkedRun(rows64, randomIndices(rng, 128, 32), "rows f64");
}

// The source has twice the columns of the index (gather 8 wide from 16).
// S = blocked([1,2],[8,4],[1,1]) on 8x16 (register [(0,1),(0,8)],
// lane [(0,2),(0,4),(1,0),(2,0),(4,0)]), I the same encoding on 8x8: the
// CTA tile is 8 columns wide, so S repeats it with a second register bit
// c8. |Reg_axis| = 2 (c1, c8): 4 rounds per output register. I has 2
// registers -> 8 shfl, 8 selects.
TEST(GatherHandDerived, SourceWiderThanIndex) {
  LinearLayout s = blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 16});
  LinearLayout i = blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8});
  GatherPlan p = ok(planGather(s, i, 1, 16));
  EXPECT_EQ(p.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(p.roundsPerRegister, 4);
  EXPECT_EQ(p.cost.shuffles, 8);
  EXPECT_EQ(p.cost.selects, 8);
  std::mt19937 rng(8);
  for (int t = 0; t < 5; ++t)
    checkedRun(p, randomIndices(rng, 64, 16), "wider source");
}

// The axis has a warp bit: f32 64x4, blocked([1,4],[32,1],[2,1]): rows
// 0..31 in warp 0, 32..63 in warp 1, gathered along rows. A lane of warp 0
// may need row 40, held only by warp 1: shared memory. Row-major buffer:
// element (i, j) at byte 16 i + 4 j. Stores: 4 registers x 2 warps = 8
// instructions; lane l writes word 4 l + j, bank (4 l + j) mod 32, so lanes
// l, l+8, l+16, l+24 share a bank: 4 wavefronts per store, 32 in all.
// Loads: 4 per warp, 8. With index = own row every load is a store's mirror
// (32 wavefronts); with index 0 everywhere all lanes read one word of row 0
// (broadcast): 1 wavefront per load, 8.
TEST(GatherSharedMemory, AxisAcrossWarps) {
  LinearLayout l = blocked({1, 4}, {32, 1}, {2, 1}, {1, 0}, {64, 4});
  GatherPlan p = ok(planGather(l, l, 0, 32));
  EXPECT_EQ(p.strategy, GatherStrategy::SharedMemory);
  EXPECT_EQ(p.cost.sharedStores, 8);
  EXPECT_EQ(p.cost.sharedLoads, 8);
  EXPECT_EQ(p.cost.barriers, 1);
  EXPECT_EQ(p.cost.smemBytes, 64 * 4 * 4);
  EXPECT_EQ(p.cost.shuffles, 0);
  std::vector<int64_t> own(256), zero(256, 0);
  for (int e = 0; e < 256; ++e)
    own[size_t(e)] = e / 4;
  GatherSimulation a = checkedRun(p, own, "identity");
  EXPECT_EQ(a.storeWavefronts, 32);
  EXPECT_EQ(a.loadWavefronts, 32);
  GatherSimulation b = checkedRun(p, zero, "zeros");
  EXPECT_EQ(b.loadWavefronts, 8);
  std::mt19937 rng(9);
  checkedRun(p, randomIndices(rng, 256, 64), "random");
}

// Off-axis coordinates on different warps: 32x8, axis 0, S puts column 4
// on the warp bit, I puts column 1 there:
//   S: register [(0,1),(0,2)], lane rows, warp [(0,4)]
//   I: register [(0,2),(0,4)], lane rows, warp [(0,1)]
// Condition (c): off(I_warp) ^ S_warp = c1 ^ c4 is not in S's register and
// lane span (c1, c2, rows): warp 0 of I holds columns 0, 2, 4, 6, but warp
// 0 of S only columns 0..3 -> shared memory.
TEST(GatherSharedMemory, OffAxisOnDifferentWarps) {
  std::vector<linear::InDimBases> rowsLane = {
      {dims::kLane, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}}};
  LinearLayout s =
      ok(LinearLayout::make({{dims::kRegister, {{0, 1}, {0, 2}}},
                             rowsLane[0],
                             {dims::kWarp, {{0, 4}}}},
                            {{dims::dim(0), 32}, {dims::dim(1), 8}}));
  LinearLayout i =
      ok(LinearLayout::make({{dims::kRegister, {{0, 2}, {0, 4}}},
                             rowsLane[0],
                             {dims::kWarp, {{0, 1}}}},
                            {{dims::dim(0), 32}, {dims::dim(1), 8}}));
  GatherPlan p = ok(planGather(s, i, 0, 16));
  EXPECT_EQ(p.strategy, GatherStrategy::SharedMemory);
  std::mt19937 rng(10);
  checkedRun(p, randomIndices(rng, 256, 32), "different warps");
  // The same pair along axis 1: the axis is on S's warp bit -> shared
  // memory as well.
  GatherPlan q = ok(planGather(s, i, 1, 16));
  EXPECT_EQ(q.strategy, GatherStrategy::SharedMemory);
  checkedRun(q, randomIndices(rng, 256, 8), "axis on warp");
}

// S broadcast over warps: a 32x4 tensor on 2 warps with
// blocked([1,4],[32,1],[2,1]) has its warp column zeroed (both warps hold
// everything). I splits the same tensor over warps by column:
//   I: register [(0,1)], lane rows, warp [(0,2)].
// Condition (c): off(I_warp) ^ S_warp = c2 ^ 0 = c2, a register bit of S:
// warp-local, with D(warp) = register 2 (S holds c2 in register bit 1).
// Axis 0 is all lanes (Reg_axis is empty), but warp 1 wants the registers
// of column bit c2 set and warp 0 those with it clear: the runtime register
// parts span {0, 2}, so 2 rounds per output register. I's register bit is
// c1 = S's register 1: output register 1 sends registers 1 and 3.
TEST(GatherHandDerived, BroadcastSourceOverWarps) {
  LinearLayout s = blocked({1, 4}, {32, 1}, {2, 1}, {1, 0}, {32, 4});
  ASSERT_EQ(s.basis(dims::kWarp, 0, dims::dim(0)), 0);
  LinearLayout i = ok(LinearLayout::make(
      {{dims::kRegister, {{0, 1}}},
       {dims::kLane, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}},
       {dims::kWarp, {{0, 2}}}},
      {{dims::dim(0), 32}, {dims::dim(1), 4}}));
  GatherPlan p = ok(planGather(s, i, 0, 32));
  EXPECT_EQ(p.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(p.roundsPerRegister, 2);
  ASSERT_EQ(p.fromWarp.size(), 1u);
  EXPECT_EQ(p.fromWarp[0], (SourceLocation{2, 0}));
  EXPECT_EQ(p.steps[1].sendRegisters, (std::vector<int64_t>{1, 3}));
  std::mt19937 rng(11);
  for (int t = 0; t < 5; ++t)
    checkedRun(p, randomIndices(rng, 128, 32), "broadcast source");
}

// The mma.sync 16x8 accumulator (mma v2), f16, 64x32 on 4 warps [4,1]:
// each warp owns 16 rows; within the 16x8 tile column bit c1 is a register
// bit, c2 and c4 lane bits, rows r1 r2 r4 lanes and r8 a register; the
// CTA tile (64x8) repeats 4 times along the columns: c8 and c16 are
// register bits. So |Reg_axis| = 3, |Lane_axis| = 2 along the columns:
// 8 rounds per output register; 64*32 / 128 threads = 16 output registers,
// 16 x 8 = 128 shfl per warp, 512 per CTA. Along the rows the warp bits
// r16 r32 are on the axis: shared memory. With warps [1,4] the warps split
// the columns and the CTA tile (16x32) repeats along the rows (r16, r32
// registers): |Reg_axis| = 3 (r8, r16, r32) along the rows, 8 rounds again.
TEST(GatherHandDerived, MmaAccumulator) {
  LinearLayout m41 = mmaV2({4, 1}, {64, 32});
  GatherPlan cols = ok(planGather(m41, m41, 1, 16));
  EXPECT_EQ(cols.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(cols.roundsPerRegister, 8);
  EXPECT_EQ(cols.steps.size(), 16u);
  EXPECT_EQ(cols.cost.shuffles, 512);
  EXPECT_EQ(cols.cost.selects, 512);
  std::mt19937 rng(14);
  checkedRun(cols, randomIndices(rng, 2048, 32), "mma [4,1] columns");
  GatherPlan rows = ok(planGather(m41, m41, 0, 16));
  EXPECT_EQ(rows.strategy, GatherStrategy::SharedMemory);
  checkedRun(rows, randomIndices(rng, 2048, 64), "mma [4,1] rows");

  LinearLayout m14 = mmaV2({1, 4}, {64, 32});
  GatherPlan rows14 = ok(planGather(m14, m14, 0, 16));
  EXPECT_EQ(rows14.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(rows14.roundsPerRegister, 8);
  checkedRun(rows14, randomIndices(rng, 2048, 64), "mma [1,4] rows");
}

// Columns held twice. f32 8x4 (rows r1 r2 r4, columns c1 c2), one warp.
//   S1: register [(0,1),(0,2)], lane [(1,0),(2,0),(4,0),(0,2),(0,0)]
// Lane bit 3 repeats c2 (also register bit 1), lane bit 4 is a broadcast.
// Along columns every thread holds its whole row (c1, c2 in registers):
// thread-local. P: c1 -> register 1, c2 -> register 2. Lane bit 3 of I
// (= S1) is matched by the same lane corrected by register 2 (lane 3 flips
// c2, register bit 1 flips it back), so fromLane[3] = (register 2, lane 8);
// lane 4 is a broadcast: itself. Candidates {0,1,2,3}: 4 rounds, 4 output
// registers x 4 = 16 selects, no shuffle.
//   S2: register [(0,2)], lane [(1,0),(2,0),(4,0),(0,2),(0,1)]
// c1 only in lane bit 4: not thread-local. Lanes first: c1 -> lane 16,
// c2 -> lane 8 (not register 1); I's lane bits 3, 4 only carry the axis
// (off-axis part 0). No register part anywhere: 1 round per output register
// (the register holding c2 is never needed), 2 registers -> 2 shfl, and lane
// l reads from lane (l & 7) | (v & 2) << 2 | (v & 1) << 4.
TEST(GatherHandDerived, DuplicatedColumns) {
  LinearLayout s1 = ok(LinearLayout::make(
      {{dims::kRegister, {{0, 1}, {0, 2}}},
       {dims::kLane, {{1, 0}, {2, 0}, {4, 0}, {0, 2}, {0, 0}}}},
      {{dims::dim(0), 8}, {dims::dim(1), 4}}));
  GatherPlan p1 = ok(planGather(s1, s1, 1, 32));
  EXPECT_EQ(p1.strategy, GatherStrategy::ThreadLocal);
  EXPECT_EQ(p1.roundsPerRegister, 4);
  EXPECT_EQ(p1.fromIndex, (std::vector<SourceLocation>{{1, 0}, {2, 0}}));
  EXPECT_EQ(p1.fromLane[3], (SourceLocation{2, 8}));
  EXPECT_EQ(p1.fromLane[4], (SourceLocation{0, 16}));
  EXPECT_EQ(p1.cost.selects, 16);
  EXPECT_EQ(p1.cost.shuffles, 0);
  std::mt19937 rng(12);
  for (int t = 0; t < 5; ++t)
    checkedRun(p1, randomIndices(rng, 32, 4), "S1");

  LinearLayout s2 = ok(LinearLayout::make(
      {{dims::kRegister, {{0, 2}}},
       {dims::kLane, {{1, 0}, {2, 0}, {4, 0}, {0, 2}, {0, 1}}}},
      {{dims::dim(0), 8}, {dims::dim(1), 4}}));
  GatherPlan p2 = ok(planGather(s2, s2, 1, 32));
  EXPECT_EQ(p2.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(p2.roundsPerRegister, 1);
  EXPECT_EQ(p2.fromIndex, (std::vector<SourceLocation>{{0, 16}, {0, 8}}));
  EXPECT_EQ(p2.fromLane, (std::vector<SourceLocation>{
                             {0, 1}, {0, 2}, {0, 4}, {0, 0}, {0, 0}}));
  EXPECT_EQ(p2.cost.shuffles, 2);
  EXPECT_EQ(p2.cost.selects, 0);
  for (int t = 0; t < 5; ++t)
    checkedRun(p2, randomIndices(rng, 32, 4), "S2");
}

// Two CTAs: S = I = {register: [(0,1)], lane: rows, block: [(0,2)]} on
// 32x4. Along rows the block bit is off the axis and identical in S and I:
// warp-local, one round per output register (rows are lanes), 2 shfl per
// CTA, 4 over the grid. Along columns the axis has a block bit: a
// shared-memory plan would cross CTAs, which is refused.
TEST(GatherHandDerived, TwoCtas) {
  LinearLayout l = ok(LinearLayout::make(
      {{dims::kRegister, {{0, 1}}},
       {dims::kLane, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}},
       {dims::kBlock, {{0, 2}}}},
      {{dims::dim(0), 32}, {dims::dim(1), 4}}));
  GatherPlan p = ok(planGather(l, l, 0, 32));
  EXPECT_EQ(p.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(p.roundsPerRegister, 1);
  EXPECT_EQ(p.cost.shuffles, 2);
  ASSERT_EQ(p.fromWarp.size(), 1u);
  EXPECT_EQ(p.fromWarp[0], (SourceLocation{0, 0}));
  std::mt19937 rng(13);
  GatherSimulation s = ok(simulateGather(p, randomIndices(rng, 128, 32)));
  EXPECT_TRUE(s.correct) << s.firstMismatch;
  EXPECT_EQ(s.checked, 2 * 32 * 2);
  EXPECT_EQ(s.shuffles, 4);
  EXPECT_EQ(errorOf(planGather(l, l, 1, 32)),
            "the gather needs data from other warps, and a shared-memory "
            "gather across CTAs (block dim of size 2) is not supported");
}

//===----------------------------------------------------------------------===//
// Standard layouts with random index tensors
//===----------------------------------------------------------------------===//

/// Brute force, independent of the planner: does every thread (every warp)
/// hold every element its output registers may need, whatever the index?
/// Coordinates of register r, lane l, warp w (block 0) under `l`.
std::vector<int64_t> at(const LinearLayout &lay, int64_t r, int64_t l,
                        int64_t w) {
  std::vector<int64_t> in(static_cast<size_t>(lay.numInDims()), 0);
  for (int d = 0; d < lay.numInDims(); ++d) {
    linear::DimId id = lay.inDim(d).id;
    in[size_t(d)] = id == dims::kRegister ? r
                    : id == dims::kLane   ? l
                    : id == dims::kWarp   ? w
                                          : 0;
  }
  return ok(lay.apply(in));
}

struct Locality {
  bool warpLocal = true, threadLocal = true;
};
Locality bruteForceLocality(const LinearLayout &s, const LinearLayout &i,
                            int axis) {
  const int64_t lanes = s.inDimSize(dims::kLane);
  const int64_t warps = s.inDimSize(dims::kWarp);
  const int64_t sRegs = s.inDimSize(dims::kRegister);
  const int64_t iRegs = i.inDimSize(dims::kRegister);
  const int64_t rows = s.outDimSize(dims::dim(0));
  const int64_t cols = s.outDimSize(dims::dim(1));
  const int64_t axisSize = axis == 0 ? rows : cols;
  auto pos = [&](const std::vector<int64_t> &c) {
    return size_t(c[0] * cols + c[1]);
  };
  Locality loc;
  for (int64_t w = 0; w < warps; ++w) {
    std::vector<char> warpHeld(size_t(rows * cols), 0);
    std::vector<std::vector<char>> laneHeld(
        static_cast<size_t>(lanes), std::vector<char>(size_t(rows * cols), 0));
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < sRegs; ++r) {
        size_t p = pos(at(s, r, l, w));
        warpHeld[p] = 1;
        laneHeld[size_t(l)][p] = 1;
      }
    for (int64_t l = 0; l < lanes; ++l)
      for (int64_t r = 0; r < iRegs; ++r) {
        std::vector<int64_t> c = at(i, r, l, w);
        for (int64_t v = 0; v < axisSize; ++v) {
          c[size_t(axis)] = v;
          if (!warpHeld[pos(c)])
            loc.warpLocal = false;
          if (!laneHeld[size_t(l)][pos(c)])
            loc.threadLocal = false;
        }
      }
  }
  return loc;
}

/// Register columns of a distributed layout that lie on `axis` (nonzero).
int registerBitsOnAxis(const LinearLayout &l, int axis) {
  int n = 0;
  for (int j = 0; j < l.inDimLog2(dims::kRegister); ++j)
    if (l.basis(dims::kRegister, j, dims::dim(axis)) != 0)
      ++n;
  return n;
}

struct Case {
  std::string name;
  LinearLayout src, index;
};

// Pairs of standard layouts (same encoding for source and index, the index
// possibly narrower along the axis), gathered along each axis for 8/16/32/64
// bit elements, each simulated on 3 random index tensors. Expected strategy
// from the brute force above; when the source and index are the same
// layout, the shuffle plan takes the paper's 2^|Reg_axis| rounds with
// |Reg_axis| the number of source register columns on the axis (standard
// layouts hold no axis bit in both a register and a lane).
TEST(GatherStandardLayouts, RandomIndicesAreGatheredCorrectly) {
  struct Enc {
    std::string name;
    std::function<LinearLayout(std::vector<int64_t>)> make;
  };
  std::vector<Enc> encs = {
      {"blocked[1,4][8,4][1,1]",
       [](auto sh) {
         return blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, sh);
       }},
      {"blocked[2,2][4,8][2,2]",
       [](auto sh) {
         return blocked({2, 2}, {4, 8}, {2, 2}, {1, 0}, sh);
       }},
      {"blocked[1,1][32,1][1,4]",
       [](auto sh) {
         return blocked({1, 1}, {32, 1}, {1, 4}, {0, 1}, sh);
       }},
      {"blocked[4,1][2,16][4,1]o01",
       [](auto sh) {
         return blocked({4, 1}, {2, 16}, {4, 1}, {0, 1}, sh);
       }},
      {"blocked[1,16][32,1][2,1]",
       [](auto sh) {
         return blocked({1, 16}, {32, 1}, {2, 1}, {1, 0}, sh);
       }},
      {"mma[4,1]",
       [](auto sh) {
         return mmaV2({4, 1}, sh);
       }},
      {"mma[1,4]",
       [](auto sh) {
         return mmaV2({1, 4}, sh);
       }},
      {"mma[2,2]",
       [](auto sh) {
         return mmaV2({2, 2}, sh);
       }},
      {"mma[1,1]",
       [](auto sh) {
         return mmaV2({1, 1}, sh);
       }},
  };
  std::vector<std::vector<int64_t>> shapes = {{16, 16}, {64, 32}, {32, 64}};
  std::mt19937 rng(2026);
  int plans = 0, shuffle = 0, thread = 0, smem = 0;
  for (const Enc &e : encs)
    for (const auto &shape : shapes)
      for (int axis = 0; axis < 2; ++axis)
        for (int64_t shrink : {1, 2}) {
          std::vector<int64_t> ishape = shape;
          ishape[size_t(axis)] /= shrink;
          LinearLayout s = e.make(shape), i = e.make(ishape);
          std::string what = e.name + " " + std::to_string(shape[0]) + "x" +
                             std::to_string(shape[1]) + " axis " +
                             std::to_string(axis) + " index/" +
                             std::to_string(shrink);
          Locality loc = bruteForceLocality(s, i, axis);
          for (int64_t bits : {8, 16, 32, 64}) {
            GatherPlan p = ok(planGather(s, i, axis, bits));
            ++plans;
            GatherStrategy want = loc.threadLocal ? GatherStrategy::ThreadLocal
                                  : loc.warpLocal
                                      ? GatherStrategy::WarpShuffle
                                      : GatherStrategy::SharedMemory;
            EXPECT_EQ(p.strategy, want) << what;
            if (p.strategy != GatherStrategy::SharedMemory && shrink == 1) {
              EXPECT_EQ(p.roundsPerRegister, int64_t(1)
                                                 << registerBitsOnAxis(s, axis))
                  << what;
            }
            shuffle += p.strategy == GatherStrategy::WarpShuffle;
            thread += p.strategy == GatherStrategy::ThreadLocal;
            smem += p.strategy == GatherStrategy::SharedMemory;
            if (bits != 16 && bits != 32)
              continue; // f8 / f64 plans: the plan above, one run below
            for (int t = 0; t < 3; ++t)
              checkedRun(p,
                         randomIndices(rng, i.totalOutSize(),
                                       s.outDimSize(dims::dim(axis))),
                         what + " bits " + std::to_string(bits));
          }
          GatherPlan p64 = ok(planGather(s, i, axis, 64));
          checkedRun(p64,
                     randomIndices(rng, i.totalOutSize(),
                                   s.outDimSize(dims::dim(axis))),
                     what + " bits 64");
        }
  EXPECT_EQ(plans, 9 * 3 * 2 * 2 * 4);
  // Every strategy is exercised.
  EXPECT_GT(shuffle, 0);
  EXPECT_GT(thread, 0);
  EXPECT_GT(smem, 0);
}

// Random distributed pairs that put the off-axis coordinates on the same
// warp but on different registers / lanes: the general form of equation
// (1) (Dreg on lanes and warps) and broadcast columns.
TEST(GatherRandomLayouts, DistributedPairsOfOneWarpFamily) {
  std::mt19937 rng(42);
  int checkedPlans = 0, shuffles = 0, generalForm = 0;
  for (int t = 0; t < 150; ++t) {
    // A 2-D tensor of 2^n bits, n = 7..9, rows rb bits, columns n - rb.
    int n = 7 + int(rng() % 3), rb = 2 + int(rng() % (n - 3));
    int warpBits = int(rng() % 3);
    auto unit = [&](int bit) {
      return bit < rb ? std::vector<int64_t>{int64_t(1) << bit, 0}
                      : std::vector<int64_t>{0, int64_t(1) << (bit - rb)};
    };
    auto makeLayout = [&](std::vector<int> perm, int zeros) {
      // perm: logical bit per hardware bit (5 lanes, warpBits warps, the
      // rest registers), plus `zeros` broadcast register bits.
      std::vector<std::vector<int64_t>> reg, lane, warp;
      int k = 0;
      for (int j = 0; j < 5; ++j)
        lane.push_back(unit(perm[size_t(k++)]));
      for (int j = 0; j < warpBits; ++j)
        warp.push_back(unit(perm[size_t(k++)]));
      while (k < n)
        reg.push_back(unit(perm[size_t(k++)]));
      for (int z = 0; z < zeros; ++z)
        reg.insert(reg.begin() + ptrdiff_t(rng() % (reg.size() + 1)),
                   std::vector<int64_t>{0, 0});
      return ok(LinearLayout::make(
          {{dims::kRegister, reg}, {dims::kLane, lane}, {dims::kWarp, warp}},
          {{dims::dim(0), int64_t(1) << rb},
           {dims::dim(1), int64_t(1) << (n - rb)}}));
    };
    std::vector<int> ps(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j)
      ps[size_t(j)] = j;
    std::shuffle(ps.begin(), ps.end(), rng);
    // The index: same warp bits half of the time, the rest shuffled.
    std::vector<int> pi = ps;
    if (rng() % 2) {
      std::shuffle(pi.begin(), pi.end(), rng);
    } else {
      std::shuffle(pi.begin(), pi.begin() + 5, rng);
      std::shuffle(pi.begin() + 5 + warpBits, pi.end(), rng);
    }
    LinearLayout s = makeLayout(ps, int(rng() % 2));
    LinearLayout i = makeLayout(pi, int(rng() % 2));
    int axis = int(rng() % 2);
    int64_t bits = int64_t(8) << (rng() % 4);
    std::string what = "case " + std::to_string(t) + ": " + s.str() + " / " +
                       i.str() + " axis " + std::to_string(axis);
    GatherPlan p = ok(planGather(s, i, axis, bits));
    Locality loc = bruteForceLocality(s, i, axis);
    GatherStrategy want = loc.threadLocal ? GatherStrategy::ThreadLocal
                          : loc.warpLocal ? GatherStrategy::WarpShuffle
                                          : GatherStrategy::SharedMemory;
    EXPECT_EQ(p.strategy, want) << what;
    bool runtimeRegister = false;
    for (const auto *terms : {&p.fromLane, &p.fromWarp})
      for (const SourceLocation &x : *terms)
        runtimeRegister |= x.reg != 0;
    generalForm += p.strategy == GatherStrategy::WarpShuffle && runtimeRegister;
    shuffles += p.strategy == GatherStrategy::WarpShuffle;
    checkedRun(
        p, randomIndices(rng, i.totalOutSize(), s.outDimSize(dims::dim(axis))),
        what);
    ++checkedPlans;
  }
  EXPECT_EQ(checkedPlans, 150);
  // Both strategies occur, and some shuffle plans need the general form
  // (the wanted register depends on the lane or the warp).
  EXPECT_GT(shuffles, 20);
  EXPECT_GT(generalForm, 5);
}

//===----------------------------------------------------------------------===//
// The simulator catches wrong plans
//===----------------------------------------------------------------------===//

TEST(GatherSimulator, CatchesWrongPlans) {
  LinearLayout l = ok(LinearLayout::make(
      {{dims::kRegister, {{0, 1}}},
       {dims::kLane, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}}},
      {{dims::dim(0), 8}, {dims::dim(1), 8}}));
  GatherPlan good = ok(planGather(l, l, 1, 32));
  std::vector<int64_t> idx(64);
  for (int e = 0; e < 64; ++e)
    idx[size_t(e)] = (e * 5 + 3) % 8; // every column value occurs
  // A missing round: lanes wanting register 1 never receive their value.
  GatherPlan noRound = good;
  noRound.steps[0].sendRegisters = {0};
  GatherSimulation a = ok(simulateGather(noRound, idx));
  EXPECT_FALSE(a.correct);
  // A wrong partner: the lane term of v bit 1 dropped.
  GatherPlan wrongLane = good;
  wrongLane.fromIndex[1] = {0, 0};
  GatherSimulation b = ok(simulateGather(wrongLane, idx));
  EXPECT_FALSE(b.correct);
  EXPECT_NE(b.firstMismatch.find("holds"), std::string::npos);
  // A "thread-local" plan that needs other lanes is malformed.
  GatherPlan fakeLocal = good;
  fakeLocal.strategy = GatherStrategy::ThreadLocal;
  EXPECT_NE(errorOf(simulateGather(fakeLocal, idx)).find("thread-local plan"),
            std::string::npos);
  // A round register out of range.
  GatherPlan badReg = good;
  badReg.steps[1].sendRegisters = {0, 2};
  EXPECT_EQ(errorOf(simulateGather(badReg, idx)),
            "malformed gather plan: round register 2 out of range");
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(GatherErrors, BadInputsAreDiagnosed) {
  LinearLayout l = blocked({1, 4}, {32, 1}, {1, 1}, {1, 0}, {32, 4});
  LinearLayout half = blocked({1, 4}, {32, 1}, {1, 1}, {1, 0}, {16, 4});
  LinearLayout twoWarps = blocked({1, 4}, {32, 1}, {2, 1}, {1, 0}, {64, 4});
  EXPECT_EQ(errorOf(planGather(l, l, 2, 32)),
            "gather axis 2 is out of range for a tensor of rank 2");
  EXPECT_EQ(errorOf(planGather(l, l, -1, 32)),
            "gather axis -1 is out of range for a tensor of rank 2");
  EXPECT_EQ(errorOf(planGather(l, half, 1, 32)),
            "the index and source tensors differ off the gather axis: dim "
            "'dim0' has size 16 in the index and 32 in the source");
  // Along axis 0 the sizes may differ.
  EXPECT_TRUE(planGather(l, half, 0, 32).hasValue());
  EXPECT_EQ(errorOf(planGather(l, l, 0, 12)),
            "element width 12 bits is not supported (allowed: 8, 16, 32, 64)");
  EXPECT_EQ(
      errorOf(planGather(
          twoWarps, twoWarps.resize(dims::kWarp, 4).valueOr(twoWarps), 0, 32)),
      "the source and index layouts use different numbers of warps: "
      "2 vs 4");
  LinearLayout mem =
      ok(LinearLayout::make({{dims::kOffset, {{0, 1}, {0, 2}, {1, 0}}}},
                            {{dims::dim(0), 2}, {dims::dim(1), 4}}));
  EXPECT_EQ(errorOf(planGather(mem, mem, 0, 32)),
            "cannot plan a gather on a source layout with input dim 'offset' "
            "(expected register, lane, warp, block)");
  LinearLayout partial = ok(
      LinearLayout::make({{dims::kRegister, {{0, 1}}}, {dims::kLane, {{1, 0}}}},
                         {{dims::dim(0), 2}, {dims::dim(1), 4}}));
  EXPECT_EQ(errorOf(planGather(partial, partial, 0, 32)),
            "the source layout holds 4 of its tensor's 8 elements (its columns "
            "span 2 of 3 logical bits), so it does not cover the tensor: " +
                partial.str());
  LinearLayout rank1 =
      ok(LinearLayout::identity1D(32, dims::kLane, dims::dim(0)));
  EXPECT_EQ(errorOf(planGather(l, rank1, 0, 32)),
            "the index tensor has rank 1 but the source has rank 2");
}

// Layouts far beyond real ones are refused instead of exhausting memory:
// 2^25 columns in registers (a thread-local plan of 2^25 rounds for each of
// 2^25 registers), and a source with 25 broadcast register bits that plans
// fine (one round) but would take 2^30 simulated locations.
TEST(GatherErrors, OversizedLayoutsAreRefused) {
  std::vector<std::vector<int64_t>> regs, zeros(25, {0, 0}), rows;
  for (int i = 0; i < 25; ++i)
    regs.push_back({0, int64_t(1) << i});
  for (int i = 0; i < 5; ++i)
    rows.push_back({int64_t(1) << i, 0});
  LinearLayout wide = ok(LinearLayout::make(
      {{dims::kRegister, regs}, {dims::kLane, rows}},
      {{dims::dim(0), 32}, {dims::dim(1), int64_t(1) << 25}}));
  EXPECT_EQ(errorOf(planGather(wide, wide, 1, 32)),
            "the gather plan would list 2^25 shuffle rounds for each of 2^25 "
            "output registers (at most 2^24 in all)");
  LinearLayout dup =
      ok(LinearLayout::make({{dims::kRegister, zeros}, {dims::kLane, rows}},
                            {{dims::dim(0), 32}, {dims::dim(1), 1}}));
  LinearLayout lanesOnly = ok(LinearLayout::make(
      {{dims::kLane, rows}}, {{dims::dim(0), 32}, {dims::dim(1), 1}}));
  GatherPlan p = ok(planGather(dup, lanesOnly, 0, 32));
  EXPECT_EQ(p.strategy, GatherStrategy::WarpShuffle);
  EXPECT_EQ(p.roundsPerRegister, 1);
  std::vector<int64_t> idx(32, 0);
  EXPECT_EQ(errorOf(simulateGather(p, idx))
                .rfind("the gather simulator runs up to 2^24 locations and "
                       "elements per layout; ",
                       0),
            0u);
}

TEST(GatherErrors, BadIndexTensorsAreDiagnosed) {
  LinearLayout l = blocked({1, 4}, {32, 1}, {1, 1}, {1, 0}, {32, 4});
  GatherPlan p = ok(planGather(l, l, 1, 32));
  std::vector<int64_t> idx(128, 0);
  idx[5] = 4; // the source axis has 4 columns
  EXPECT_EQ(errorOf(simulateGather(p, idx)),
            "index value 4 at row-major position 5 is out of range of the "
            "source axis 1 (size 4)");
  idx[5] = -1;
  EXPECT_EQ(errorOf(simulateGather(p, idx)),
            "index value -1 at row-major position 5 is out of range of the "
            "source axis 1 (size 4)");
  std::vector<int64_t> shortIdx(100, 0);
  EXPECT_EQ(errorOf(simulateGather(p, shortIdx)),
            "the index tensor has 128 elements but 100 index values were "
            "given");
}

TEST(GatherPlanText, DescribeNamesTheStrategyAndCost) {
  LinearLayout l = blocked({1, 4}, {32, 1}, {1, 1}, {1, 0}, {32, 4});
  EXPECT_EQ(ok(planGather(l, l, 0, 32)).describe(),
            "warp shuffle: 1 round(s) per output register, 4 shfl, 0 selects");
  EXPECT_EQ(ok(planGather(l, l, 1, 32)).describe(),
            "thread-local: 4 round(s) per output register, 0 shfl, 16 selects");
  LinearLayout w2 = blocked({1, 4}, {32, 1}, {2, 1}, {1, 0}, {64, 4});
  EXPECT_EQ(ok(planGather(w2, w2, 0, 16)).describe(),
            "shared memory: row-major buffer of 512 B, 8 stores, 1 barrier, "
            "8 loads");
}

} // namespace
} // namespace lk::plan
