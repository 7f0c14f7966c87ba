//===- SharedMemoryTest.cpp - ldmatrix/stmatrix, budgets, multi-CTA -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// The shared-memory plan's three extensions (docs/plan.md): ldmatrix /
// stmatrix sides, repetition through a smaller buffer, CTA-local plans of
// multi-CTA layouts. Every plan runs through plan::simulate, which executes
// the matrix instructions with the lane/register semantics of docs/hardware.md
// §3 and counts wavefronts with the hw layer's model, independently of the
// planner's formulas.
//
// Notation: rK / cK is the logical bit of row K / column K (or kK / nK for
// a [k, n] operand); "regs" and "lanes" list the columns of register bits
// 0.. and lane bits 0..4.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/Analysis.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/plan/MatrixAccess.h"
#include "layoutkit/plan/Plan.h"
#include "layoutkit/plan/Simulator.h"

#include "support/PlanTestSupport.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace lk::plan {
namespace {

using linear::DimId;
using linear::Encoding;
using linear::EncodingKind;
using linear::LinearLayout;
namespace dims = linear::dims;
// ok(), the encoding and layout builders, randomDistributed: PlanTestSupport.h.
using namespace test;

/// The mma.sync operand `opIdx` (kWidth 2) of a one-warp accumulator.
LinearLayout dotOperand(int opIdx, std::vector<int64_t> shape) {
  return layoutOf(*dotEnc(mmaV2Enc({1, 1}), opIdx, 2), shape);
}

/// The logical coordinates of input bit `bit` of `l`.
std::vector<int64_t> at(const LinearLayout &l, DimId d, int bit) {
  int i = l.inDimIndex(d);
  return l.unpackOut(l.column(l.inShift(i) + bit));
}
using C = std::vector<int64_t>;

/// Simulates `p` and checks it is correct and that the simulator's counts
/// (over every CTA) equal the plan's predictions (per CTA) times the CTAs.
SimulationResult simulated(const Plan &p, const std::string &what) {
  SimulationResult s = ok(simulate(p));
  EXPECT_TRUE(s.correct) << what << ": " << s.firstMismatch << "\n"
                         << p.describe();
  if (p.smem) {
    const int64_t ctas = p.layouts.src.inDimSize(dims::kBlock);
    EXPECT_EQ(s.storeInstructions, ctas * p.smem->store.instructions) << what;
    EXPECT_EQ(s.loadInstructions, ctas * p.smem->load.instructions) << what;
    EXPECT_EQ(s.storeWavefronts, ctas * p.smem->store.wavefronts) << what;
    EXPECT_EQ(s.loadWavefronts, ctas * p.smem->load.wavefronts) << what;
    EXPECT_EQ(s.barriers, ctas * p.smem->barriers) << what;
  }
  return s;
}

/// The 16x16 ldmatrix.x4 row starts: lane 8j + i addresses row i of matrix
/// j, whose first element in the destination is logical (i + 8 (j & 1),
/// 8 (j >> 1)).
void expectX4RowStarts(const Plan &p) {
  ASSERT_TRUE(p.smem);
  for (int64_t lane = 0; lane < 32; ++lane) {
    MatrixRowStart rs = matrixRowStart(p.smem->load.matrix, 0, lane);
    std::vector<int64_t> in = {rs.reg, rs.lane, 0, 0};
    int64_t i = lane & 7, j = lane >> 3;
    EXPECT_EQ(ok(p.layouts.dst.apply(in)), (C{i + 8 * (j & 1), 8 * (j >> 1)}))
        << lane;
  }
}

/// ldmatrix / stmatrix allowed: the default, spelled out where a test
/// compares with vectorOnly().
PlanOptions withMatrices() {
  PlanOptions o;
  EXPECT_TRUE(o.matrixInstructions);
  return o;
}

// f16 16x16, one warp.
//   A = blocked([1,8],[16,2]): regs c1 c2 c4, lanes c8 r1 r2 r4 r8.
//   B = dot operand A of mma.m16n8k16 (docs/hardware.md §2.1: a0,a1 = row g,
//       k 2q,2q+1; a2,a3 row g+8; a4..a7 the same at k+8): regs k1 r8 k8,
//       lanes k2 k4 r1 r2 r4 (k = column).
// Vector path: the only common register bit is c1, so 4-byte accesses:
// 4 stores + 4 loads. ldmatrix (non-trans): B's half register k1 and lane
// bits 0, 1 (k2, k4) are the rows' offsets 1, 2, 4 (the tile of Theorem
// 5.1); B's registers r8, k8 select 4 matrices, so one ldmatrix.x4 loads
// all 8 elements. The rows [c1 c2 c4] are A's three registers, so the
// store becomes one 16-byte vector: 1 + 1 instructions.
// Swizzle (Plan.h step 3 with the row bits as Vec): line = 6 offset bits,
// Idx 2; G_A = the 8-lane group of a 16-byte store = {c8 r1 r2}; G_B = the
// rows of one matrix = B's lanes 2-4 = {r1 r2 r4}; Z = {r8}, X = {c8},
// Y = {r4}: Idx = [r8, c8^r4]. Conflict-free: 4 wavefronts per 16-byte
// store (4 lane groups), 1 per matrix (4), as the baseline's 4 + 4.
TEST(SharedMemoryMatrix, LdmatrixLoadsADotOperand) {
  LinearLayout a = blocked({1, 8}, {16, 2}, {1, 1}, {1, 0}, {16, 16});
  LinearLayout b = dotOperand(0, {16, 16});
  // The premises of the derivation.
  EXPECT_EQ(at(b, dims::kRegister, 0), (C{0, 1}));
  EXPECT_EQ(at(b, dims::kRegister, 1), (C{8, 0}));
  EXPECT_EQ(at(b, dims::kRegister, 2), (C{0, 8}));
  EXPECT_EQ(at(b, dims::kLane, 0), (C{0, 2}));
  EXPECT_EQ(at(b, dims::kLane, 2), (C{1, 0}));
  EXPECT_EQ(at(a, dims::kLane, 0), (C{0, 8}));

  Plan vec = ok(planSharedMemory(a, b, 16, vectorOnly()));
  ASSERT_TRUE(vec.smem);
  EXPECT_FALSE(vec.smem->load.matrixInstruction);
  EXPECT_EQ(vec.smem->vectorElements, 2);
  EXPECT_EQ(vec.smem->store.instructions + vec.smem->load.instructions, 8);
  simulated(vec, "vector");

  Plan p = ok(planSharedMemory(a, b, 16, withMatrices()));
  ASSERT_EQ(p.strategy, Strategy::SharedMemory);
  const SharedMemoryPlan &sp = *p.smem;
  EXPECT_TRUE(sp.load.matrixInstruction);
  EXPECT_FALSE(sp.load.trans);
  EXPECT_FALSE(sp.store.matrixInstruction);
  EXPECT_EQ(sp.matrixCount, 4);
  EXPECT_EQ(sp.load.matrix.halfRegBit, 0);
  EXPECT_EQ(sp.load.matrix.matrixRegBits, (std::vector<int>{1, 2}));
  EXPECT_EQ(sp.vectorElements, 8);
  EXPECT_EQ(sp.accessBytes, 16);
  EXPECT_EQ(sp.store.instructions, 1);
  EXPECT_EQ(sp.load.instructions, 1);
  EXPECT_EQ(sp.store.wavefronts, 4);
  EXPECT_EQ(sp.load.wavefronts, 4);
  EXPECT_EQ(sp.store.wavefronts, sp.store.lowerBound);
  EXPECT_EQ(sp.load.wavefronts, sp.load.lowerBound);
  // The rows are c1 c2 c4, then Idx = [r8, c8^r4] on top.
  for (int j = 0; j < 3; ++j)
    EXPECT_EQ(sp.memory.column(j), a.column(j)) << j;
  EXPECT_EQ(sp.memory.unpackOut(sp.memory.column(6)), (C{8, 0}));
  EXPECT_EQ(sp.memory.unpackOut(sp.memory.column(7)), (C{4, 8}));
  // Lane 8j + i addresses row i of matrix j: logical (i + 8 (j & 1),
  // 8 (j >> 1)) (registers r8 and k8 pick the matrix).
  expectX4RowStarts(p);
  SimulationResult s = simulated(p, "ldmatrix");
  EXPECT_EQ(s.barriers, 1);
}

// The reverse direction with an mma accumulator source: f16 16x16,
//   A = mma v2 accumulator: regs c1 r8 c8, lanes c2 c4 r1 r2 r4
//   (docs/hardware.md
//       §2.1 C fragment: c0,c1 = row g, col 2q,2q+1; c2,c3 row g+8; the
//       second n8 tile at col+8),
//   B = blocked([1,8],[16,2]): regs c1 c2 c4.
// stmatrix (non-trans) takes A's half register c1 and lanes c2, c4 as the
// rows and r8, c8 as 4 matrices: one stmatrix.x4, and B loads the rows as
// one 16-byte vector: 1 + 1 instructions instead of 4 + 4.
TEST(SharedMemoryMatrix, StmatrixStoresAnMmaAccumulator) {
  LinearLayout a = layoutOf(*mmaV2Enc({1, 1}), {16, 16});
  LinearLayout b = blocked({1, 8}, {16, 2}, {1, 1}, {1, 0}, {16, 16});
  EXPECT_EQ(at(a, dims::kRegister, 0), (C{0, 1}));
  EXPECT_EQ(at(a, dims::kRegister, 1), (C{8, 0}));
  EXPECT_EQ(at(a, dims::kRegister, 2), (C{0, 8}));
  EXPECT_EQ(at(a, dims::kLane, 1), (C{0, 4}));
  Plan p = ok(planSharedMemory(a, b, 16, withMatrices()));
  ASSERT_TRUE(p.smem);
  const SharedMemoryPlan &sp = *p.smem;
  EXPECT_TRUE(sp.store.matrixInstruction);
  EXPECT_FALSE(sp.store.trans);
  EXPECT_FALSE(sp.load.matrixInstruction);
  EXPECT_EQ(sp.matrixCount, 4);
  EXPECT_EQ(sp.store.instructions, 1);
  EXPECT_EQ(sp.load.instructions, 1);
  EXPECT_EQ(sp.vectorElements, 8);
  EXPECT_EQ(sp.store.wavefronts, sp.store.lowerBound);
  EXPECT_EQ(sp.load.wavefronts, sp.load.lowerBound);
  simulated(p, "stmatrix");
  // stmatrix needs sm_90: the simulator refuses the plan on sm_80.
  EXPECT_FALSE(simulate(p, hw::Arch::Sm80));
}

// .trans: f16 [k, n] = 16x16,
//   A = blocked([1,8],[16,2]): regs n1 n2 n4, lanes n8 k1 k2 k4 k8;
//   B = dot operand B of mma.m16n8k16 (docs/hardware.md §2.1: b0,b1 = k
//   2q,2q+1,
//       n g; b2,b3 at k+8; the second n8 tile at n+8): regs k1 k8 n8,
//       lanes k2 k4 n1 n2 n4.
// No common register bit: the vector path moves 2-byte scalars, 8 + 8
// instructions. ldmatrix.trans: B's lanes 2-4 (n1 n2 n4) are the offsets
// 1, 2, 4 of a row and the half register k1 with lanes k2, k4 select the
// row 2q + h; registers k8, n8 pick 4 matrices. The rows [n1 n2 n4] are
// A's registers: one 16-byte store, 1 + 1 instructions. Swizzle: G_A =
// {n8 k1 k2}, G_B = {k1 k2 k4}, Z = {k8}, X = {n8}, Y = {k4}: Idx = [k8,
// n8^k4], conflict-free (4 + 4 wavefronts).
TEST(SharedMemoryMatrix, LdmatrixTransLoadsABOperand) {
  LinearLayout a = blocked({1, 8}, {16, 2}, {1, 1}, {1, 0}, {16, 16});
  LinearLayout b = dotOperand(1, {16, 16});
  EXPECT_EQ(at(b, dims::kRegister, 0), (C{1, 0}));
  EXPECT_EQ(at(b, dims::kRegister, 1), (C{8, 0}));
  EXPECT_EQ(at(b, dims::kRegister, 2), (C{0, 8}));
  EXPECT_EQ(at(b, dims::kLane, 2), (C{0, 1}));
  Plan vec = ok(planSharedMemory(a, b, 16, vectorOnly()));
  EXPECT_EQ(vec.smem->store.instructions + vec.smem->load.instructions, 16);
  Plan p = ok(planSharedMemory(a, b, 16, withMatrices()));
  ASSERT_TRUE(p.smem);
  const SharedMemoryPlan &sp = *p.smem;
  EXPECT_TRUE(sp.load.matrixInstruction);
  EXPECT_TRUE(sp.load.trans);
  EXPECT_EQ(sp.matrixCount, 4);
  EXPECT_EQ(sp.load.matrix.halfRegBit, 0);
  EXPECT_EQ(sp.store.instructions, 1);
  EXPECT_EQ(sp.load.instructions, 1);
  EXPECT_EQ(sp.store.wavefronts, 4);
  EXPECT_EQ(sp.load.wavefronts, 4);
  EXPECT_EQ(sp.memory.unpackOut(sp.memory.column(7)), (C{4, 8}));
  // .trans row i of matrix j starts at k = i (h = i & 1 is k1, q = i >> 1
  // gives k2, k4), n = 0, plus the matrix offsets k8 (j & 1), n8 (j >> 1).
  expectX4RowStarts(p);
  simulated(p, "ldmatrix.trans");

  // The simulator executes the hardware semantics: the same addresses read
  // without .trans deliver other elements.
  Plan wrong = p;
  wrong.smem->load.matrix.trans = false;
  wrong.smem->load.trans = false;
  Expected<SimulationResult> ws = simulate(wrong);
  EXPECT_TRUE(!ws || !ws->correct);
}

// One matrix per instruction (.x1), and a matrix side only where it moves
// more than a vector: f16 8x8,
//   A = blocked([2,1],[4,8], order [0,1]): regs r1, lanes r2 r4 c1 c2 c4;
//   B = blocked([1,2],[8,4], order [1,0]): regs c1, lanes c2 c4 r1 r2 r4.
// No common register: the vector path is 2 + 2 two-byte accesses. The
// source's rows come first: [r1 r2 r4] are A's half register and lanes 0, 1
// (a plain stmatrix.x1 fits) and B's lanes 2-4 (ldmatrix.x1.trans). But
// stmatrix.x1 moves 2 elements per lane, no more than A's 4-byte vector
// over the row bit r1, so A stores one 4-byte vector and B loads one
// ldmatrix.x1.trans: 1 + 1 instructions (the mirror rows [c1 c2 c4] give
// no fewer, and the first of equal plans is kept). The tile is one
// 128-byte row (Idx empty): 1 wavefront each.
TEST(SharedMemoryMatrix, OneMatrixPerInstructionOnlyWhereItMovesMore) {
  LinearLayout a = blocked({2, 1}, {4, 8}, {1, 1}, {0, 1}, {8, 8});
  LinearLayout b = blocked({1, 2}, {8, 4}, {1, 1}, {1, 0}, {8, 8});
  EXPECT_EQ(at(a, dims::kRegister, 0), (C{1, 0}));
  EXPECT_EQ(at(a, dims::kLane, 2), (C{0, 1}));
  EXPECT_EQ(at(b, dims::kRegister, 0), (C{0, 1}));
  EXPECT_EQ(at(b, dims::kLane, 2), (C{1, 0}));
  Plan vec = ok(planSharedMemory(a, b, 16, vectorOnly()));
  EXPECT_EQ(vec.smem->store.instructions + vec.smem->load.instructions, 4);
  Plan p = ok(planSharedMemory(a, b, 16, withMatrices()));
  const SharedMemoryPlan &sp = *p.smem;
  EXPECT_FALSE(sp.store.matrixInstruction);
  EXPECT_EQ(sp.vectorElements, 2);
  EXPECT_EQ(sp.store.vecRegBits, (std::vector<int>{0}));
  EXPECT_TRUE(sp.load.matrixInstruction);
  EXPECT_TRUE(sp.load.trans);
  EXPECT_EQ(sp.matrixCount, 1);
  EXPECT_EQ(sp.load.matrix.halfRegBit, 0);
  EXPECT_TRUE(sp.load.matrix.matrixRegBits.empty());
  EXPECT_EQ(sp.rowBits.size(), 3u);
  for (int j = 0; j < 3; ++j)
    EXPECT_EQ(sp.memory.unpackOut(sp.memory.column(j)),
              (C{int64_t(1) << j, 0}));
  EXPECT_EQ(sp.store.instructions, 1);
  EXPECT_EQ(sp.load.instructions, 1);
  EXPECT_EQ(sp.store.wavefronts, 1);
  EXPECT_EQ(sp.load.wavefronts, 1);
  simulated(p, "vector + ldmatrix.x1.trans");
}

// Where matrices do not pay: both sides already move 16-byte vectors
// (regs c1 c2 c4 on both; A's lanes c8 r1 r2 r4 r8, B's r1 r2 r4 r8 c8), 1 + 1
// instructions, and a matrix instruction cannot go below one per side. f32
// never uses them (16-bit only).
TEST(SharedMemoryMatrix, NotUsedWhenTheyDoNotReduceInstructions) {
  LinearLayout a = blocked({1, 8}, {16, 2}, {1, 1}, {1, 0}, {16, 16});
  LinearLayout b = blocked({1, 8}, {16, 2}, {1, 1}, {0, 1}, {16, 16});
  Plan p = ok(planSharedMemory(a, b, 16, withMatrices()));
  ASSERT_TRUE(p.smem);
  EXPECT_FALSE(p.smem->load.matrixInstruction);
  EXPECT_FALSE(p.smem->store.matrixInstruction);
  EXPECT_EQ(p.smem->matrixCount, 0);
  EXPECT_EQ(p.smem->vectorElements, 8);
  EXPECT_EQ(p.smem->store.instructions + p.smem->load.instructions, 2);
  simulated(p, "16-byte vectors");

  LinearLayout a32 = blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {16, 16});
  LinearLayout b32 = blocked({4, 1}, {4, 8}, {1, 1}, {0, 1}, {16, 16});
  Plan q = ok(planSharedMemory(a32, b32, 32, withMatrices()));
  EXPECT_FALSE(q.smem->load.matrixInstruction ||
               q.smem->store.matrixInstruction);
  simulated(q, "f32");
}

// Theorem 5.1 directly: B = the dot operand A above over a row-major
// 16x16 buffer (offset bits c1 c2 c4 c8 r1 r2 r4 r8). B's half register
// c1 is offset 1 but lane bit 0 (c2) is offset 2 and lane bit 1 (c4)
// offset 4: the tile divides, halfRegBit 0. Over the column-major buffer
// c1 is offset 16: the tile does not divide.
TEST(SharedMemoryMatrix, TileDivisionDecidesApplicability) {
  LinearLayout b = dotOperand(0, {16, 16});
  LinearLayout rowMajor = ok(
      linear::identityStandardND(dims::kOffset, std::vector<unsigned>{16, 16},
                                 std::vector<unsigned>{1, 0}));
  LinearLayout colMajor = ok(
      linear::identityStandardND(dims::kOffset, std::vector<unsigned>{16, 16},
                                 std::vector<unsigned>{0, 1}));
  AlignedPair p = ok(alignLayouts(b, b));
  MatrixAccess m = ok(matchMatrixAccess(p.dst, rowMajor, false));
  EXPECT_FALSE(m.trans);
  EXPECT_EQ(m.halfRegBit, 0);
  EXPECT_EQ(m.matrixRegBits, (std::vector<int>{1, 2}));
  EXPECT_EQ(m.count(), 4);
  EXPECT_FALSE(matchMatrixAccess(p.dst, colMajor, false));
  // The division itself (linear::matrixInstructionApplies) agrees.
  EXPECT_TRUE(linear::matrixInstructionApplies(
      ok(linear::registerToOffset(p.dst, rowMajor)), 2));
  EXPECT_FALSE(linear::matrixInstructionApplies(
      ok(linear::registerToOffset(p.dst, colMajor)), 2));
  // .trans needs lanes 2-4 (r1 r2 r4) at offsets 1, 2, 4: true column-major.
  Expected<MatrixAccess> t = matchMatrixAccess(p.dst, rowMajor, true);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("lane bit 2"), std::string::npos)
      << t.error().message;
  EXPECT_TRUE(matchMatrixAccess(p.dst, colMajor, true));
}

/// The memory layout of matchMatrixRows' contract: offset bits 0-2 are the
/// logical bits `rows`, the others the remaining logical bits in order.
LinearLayout rowsMemory(const LinearLayout &side, std::span<const int> rows) {
  const int n = side.totalOutBits();
  std::vector<uint64_t> cols;
  uint64_t used = 0;
  for (int b : rows) {
    cols.push_back(uint64_t(1) << b);
    used |= uint64_t(1) << b;
  }
  for (int b = 0; b < n; ++b)
    if (!(used >> b & 1))
      cols.push_back(uint64_t(1) << b);
  std::vector<linear::DimSize> outs;
  for (int i = 0; i < side.numOutDims(); ++i)
    outs.push_back(side.outDim(i));
  linear::DimSize off{dims::kOffset, n};
  return ok(LinearLayout::fromColumns(std::span(&off, 1), outs, cols));
}

/// A buffer over the logical dims of `side`, in the side's out-dim order
/// (so that logical bit k of both is the same bit).
LinearLayout bufferOver(const LinearLayout &side, std::vector<unsigned> order) {
  LinearLayout mem = ok(linear::identityStandardND(
      dims::kOffset, std::vector<unsigned>{16, 16}, order));
  std::vector<DimId> outs;
  for (int i = 0; i < side.numOutDims(); ++i)
    outs.push_back(side.outDim(i).id);
  return ok(mem.transposeOuts(outs));
}

// matchMatrixRows is matchMatrixAccess without building the memory: the
// same answers on the two 16x16 buffers of the test above...
TEST(SharedMemoryMatrix, RowTestMatchesTheTileDivisionOnBuffers) {
  LinearLayout b = dotOperand(0, {16, 16});
  AlignedPair p = ok(alignLayouts(b, b));
  for (auto order :
       {std::vector<unsigned>{1, 0}, std::vector<unsigned>{0, 1}}) {
    LinearLayout mem = bufferOver(p.dst, order);
    std::vector<int> rows;
    for (int j = 0; j < 3; ++j)
      rows.push_back(__builtin_ctzll(mem.column(j)));
    for (bool trans : {false, true}) {
      Expected<MatrixAccess> slow = matchMatrixAccess(p.dst, mem, trans);
      Expected<MatrixAccess> fast = matchMatrixRows(p.dst, rows, trans);
      ASSERT_EQ(bool(slow), bool(fast)) << trans;
      if (fast) {
        EXPECT_EQ(fast->halfRegBit, slow->halfRegBit);
        EXPECT_EQ(fast->matrixRegBits, slow->matrixRegBits);
      }
    }
  }
  // Row-major: non-trans (half c1, lanes c2 c4); .trans fails at lane bit 2.
  std::vector<int> rowMajorRows;
  LinearLayout rowMajor = bufferOver(p.dst, {1, 0});
  for (int j = 0; j < 3; ++j)
    rowMajorRows.push_back(__builtin_ctzll(rowMajor.column(j)));
  MatrixAccess m = ok(matchMatrixRows(p.dst, rowMajorRows, false));
  EXPECT_EQ(m.halfRegBit, 0);
  EXPECT_EQ(m.matrixRegBits, (std::vector<int>{1, 2}));
  Expected<MatrixAccess> t = matchMatrixRows(p.dst, rowMajorRows, true);
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("lane bit 2"), std::string::npos)
      << t.error().message;
  // Malformed rows are diagnosed, not read out of range.
  EXPECT_FALSE(matchMatrixRows(p.dst, std::vector<int>{0, 1}, false));
  EXPECT_FALSE(matchMatrixRows(p.dst, std::vector<int>{0, 1, 1}, false));
  EXPECT_FALSE(matchMatrixRows(p.dst, std::vector<int>{0, 1, 8}, true));
}

// ...and on random layouts, for the row sets the planner tries (a register
// bit and lane bits 0, 1; lane bits 2-4 of either layout) and random ones,
// with every matrix-count limit: success, half and matrix bits agree.
TEST(SharedMemoryMatrix, RowTestMatchesTheTileDivisionOnRandomLayouts) {
  std::mt19937_64 rng(515);
  int agreed = 0, matched[2] = {0, 0};
  for (int iter = 0; iter < 300; ++iter) {
    int r0 = 3 + int(rng() % 3), r1 = 3 + int(rng() % 3);
    int warpBits = int(rng() % 3);
    LinearLayout a = randomDistributed(rng, r0, r1, warpBits, iter % 3 == 0);
    LinearLayout o = randomDistributed(rng, r0, r1, warpBits, false);
    AlignedPair p = ok(alignLayouts(a, o));
    const int n = p.src.totalOutBits();
    std::vector<std::vector<int>> rowSets;
    for (const LinearLayout *l : {&p.src, &p.dst}) {
      auto col = [&](DimId d, int b) {
        return l->column(l->inShift(l->inDimIndex(d)) + b);
      };
      for (int r = 0; r < l->inDimLog2(dims::kRegister); ++r)
        if (col(dims::kRegister, r) && col(dims::kLane, 0) &&
            col(dims::kLane, 1))
          rowSets.push_back({__builtin_ctzll(col(dims::kRegister, r)),
                             __builtin_ctzll(col(dims::kLane, 0)),
                             __builtin_ctzll(col(dims::kLane, 1))});
      if (col(dims::kLane, 2) && col(dims::kLane, 3) && col(dims::kLane, 4))
        rowSets.push_back({__builtin_ctzll(col(dims::kLane, 2)),
                           __builtin_ctzll(col(dims::kLane, 3)),
                           __builtin_ctzll(col(dims::kLane, 4))});
    }
    std::vector<int> perm(size_t(n), 0);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    rowSets.push_back({perm[0], perm[1], perm[2]});
    for (const std::vector<int> &rows : rowSets) {
      std::set<int> distinct(rows.begin(), rows.end());
      if (distinct.size() != 3)
        continue; // a layout with two equal columns: not a row set
      for (const LinearLayout *l : {&p.src, &p.dst}) {
        LinearLayout mem = rowsMemory(*l, rows);
        for (bool trans : {false, true})
          for (int maxBits = 0; maxBits <= 2; ++maxBits) {
            Expected<MatrixAccess> slow =
                matchMatrixAccess(*l, mem, trans, maxBits);
            Expected<MatrixAccess> fast =
                matchMatrixRows(*l, rows, trans, maxBits);
            if (!trans) {
              // The independent reference: Theorem 5.1's left division of
              // register/lane -> offset by identity(2) x identity(4).
              Expected<linear::PermutedQuotient> q =
                  linear::matrixInstructionApplies(
                      ok(linear::registerToOffset(*l, mem)), 2);
              ASSERT_EQ(bool(q), bool(fast)) << l->str();
              if (q && fast) {
                EXPECT_EQ(q->perm[0], fast->halfRegBit) << l->str();
              }
            }
            ASSERT_EQ(bool(slow), bool(fast))
                << l->str() << " rows " << rows[0] << "," << rows[1] << ","
                << rows[2] << " trans " << trans << ": "
                << (slow ? fast.error().message : slow.error().message);
            if (!fast)
              continue;
            EXPECT_EQ(fast->trans, trans);
            EXPECT_EQ(fast->halfRegBit, slow->halfRegBit) << l->str();
            EXPECT_EQ(fast->matrixRegBits, slow->matrixRegBits) << l->str();
            ++matched[trans];
          }
        ++agreed;
      }
    }
  }
  // Both kinds of match occur, so the agreement is not only on failures.
  EXPECT_GT(matched[0], 100);
  EXPECT_GT(matched[1], 100);
  EXPECT_GT(agreed, 1000);
}

// f32 128x128 = 64 KiB with 4 warps, through a 16 KiB buffer: 2 iteration
// bits, 4 iterations of 16 KiB, 2 * 4 - 1 = 7 barriers (store, barrier,
// load, barrier before the next stores). The iteration bits are register
// bits of both layouts outside the vector, so every instruction stays in
// one iteration and the instruction and wavefront totals are those of the
// single-buffer plan (still at the lower bound).
TEST(SharedMemoryBudget, F32Tile128x128ThroughSixteenKiB) {
  LinearLayout a = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}, {128, 128});
  LinearLayout b = blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}, {128, 128});
  Plan full = ok(planSharedMemory(a, b, 32));
  ASSERT_TRUE(full.smem);
  EXPECT_EQ(full.smem->bytes, 65536);
  PlanOptions o;
  o.smemBudgetBytes = 16384;
  // Data crosses warps, so planConversion picks shared memory.
  Plan p = ok(planConversion(a, b, 32, o));
  ASSERT_EQ(p.strategy, Strategy::SharedMemory);
  ASSERT_TRUE(p.smem);
  const SharedMemoryPlan &sp = *p.smem;
  EXPECT_EQ(sp.bytes, 16384);
  EXPECT_EQ(p.cost.smemBytes, 16384);
  EXPECT_EQ(sp.iterations, 4);
  ASSERT_EQ(sp.iterationBits.size(), 2u);
  EXPECT_EQ(sp.barriers, 7);
  EXPECT_EQ(p.cost.barriers, 7);
  for (int bit : sp.iterationBits) {
    uint64_t col = uint64_t(1) << bit;
    bool inA = false, inB = false;
    for (int r = 0; r < p.layouts.src.inDimLog2(dims::kRegister); ++r)
      inA |= p.layouts.src.column(r) == col;
    for (int r = 0; r < p.layouts.dst.inDimLog2(dims::kRegister); ++r)
      inB |= p.layouts.dst.column(r) == col;
    EXPECT_TRUE(inA && inB) << bit;
    for (int v : sp.vecBits)
      EXPECT_NE(v, bit);
  }
  EXPECT_EQ(sp.store.instructions, full.smem->store.instructions);
  EXPECT_EQ(sp.load.instructions, full.smem->load.instructions);
  EXPECT_EQ(sp.store.wavefronts, full.smem->store.wavefronts);
  EXPECT_EQ(sp.load.wavefronts, full.smem->load.wavefronts);
  EXPECT_EQ(sp.store.wavefronts, sp.store.lowerBound);
  EXPECT_EQ(sp.load.wavefronts, sp.load.lowerBound);
  SimulationResult s = simulated(p, "budget");
  EXPECT_EQ(s.barriers, 7);

  // A budget that fits the tile changes nothing.
  o.smemBudgetBytes = 65536;
  Plan same = ok(planSharedMemory(a, b, 32, o));
  EXPECT_EQ(same.smem->iterations, 1);
  EXPECT_EQ(same.smem->memory, full.smem->memory);

  // Matrix instructions and budgets together (f16, 8 KiB tile -> 2 KiB).
  LinearLayout a16 = blocked({1, 8}, {16, 2}, {4, 1}, {1, 0}, {64, 64});
  LinearLayout b16 = blocked({8, 1}, {2, 16}, {1, 4}, {0, 1}, {64, 64});
  PlanOptions mo = withMatrices();
  mo.smemBudgetBytes = 2048;
  Plan m = ok(planSharedMemory(a16, b16, 16, mo));
  EXPECT_EQ(m.smem->bytes, 2048);
  EXPECT_EQ(m.smem->iterations, 4);
  simulated(m, "f16 budget");
}

// The HeaderExample pair (Plan.h): A regs c1 c2 r8, B regs r1 r2 c8, no
// warp bits. No logical bit is a register or warp bit of both, so nothing
// can be iterated: the smallest legal buffer is the whole 16x16 f32 tile,
// 1024 bytes, and a 512-byte budget is refused.
TEST(SharedMemoryBudget, RefusedBelowTheSmallestLegalBuffer) {
  LinearLayout a = blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {16, 16});
  LinearLayout b = blocked({4, 1}, {4, 8}, {1, 1}, {0, 1}, {16, 16});
  PlanOptions o;
  o.smemBudgetBytes = 512;
  Expected<Plan> p = planSharedMemory(a, b, 32, o);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("smallest legal buffer of 1024 bytes"),
            std::string::npos)
      << p.error().message;
  o.smemBudgetBytes = 1024;
  EXPECT_TRUE(planSharedMemory(a, b, 32, o));
  o.smemBudgetBytes = -1;
  EXPECT_FALSE(planSharedMemory(a, b, 32, o));
}

// Two CTAs, each holding one 16x16 half of a 32x16 f32 tensor (block bit
// = r16 in both layouts), converted as in the HeaderExample: the plan is
// per CTA (the block bit is the top offset bit, a 1024-byte buffer per
// CTA), and the simulator runs both CTAs: 8 stores and 8 loads of 1
// wavefront each per CTA (16 + 16 in the simulator's totals), every
// register of both CTAs correct.
TEST(SharedMemoryCta, EqualBlockColumnsArePlannedPerCta) {
  LinearLayout block =
      ok(LinearLayout::identity1D(2, dims::kBlock, dims::dim(0)));
  LinearLayout a =
      ok(blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {16, 16}) * block);
  LinearLayout b =
      ok(blocked({4, 1}, {4, 8}, {1, 1}, {0, 1}, {16, 16}) * block);
  Plan p = ok(planSharedMemory(a, b, 32));
  ASSERT_EQ(p.strategy, Strategy::SharedMemory);
  const SharedMemoryPlan &sp = *p.smem;
  ASSERT_EQ(sp.ctaBits.size(), 1u);
  EXPECT_EQ(sp.memory.unpackOut(sp.memory.column(8)), (C{16, 0}));
  EXPECT_EQ(sp.bytes, 1024);
  EXPECT_EQ(sp.store.instructions, 8);
  EXPECT_EQ(sp.load.instructions, 8);
  EXPECT_EQ(sp.store.wavefronts, 8);
  EXPECT_EQ(sp.load.wavefronts, 8);
  SimulationResult s = simulated(p, "two CTAs");
  EXPECT_EQ(s.checked, 2 * 32 * 8);
  EXPECT_EQ(s.storeInstructions, 16);
  EXPECT_EQ(s.storeWavefronts, 16);
  EXPECT_EQ(s.barriers, 2);

  // With a budget too (the HeaderExample has nothing to iterate): refused.
  PlanOptions o;
  o.smemBudgetBytes = 512;
  EXPECT_FALSE(planSharedMemory(a, b, 32, o));
}

// Block bit r16 in the source, c8 in the destination (32x16 both): the
// destination's CTA 1 needs elements of both source CTAs.
TEST(SharedMemoryCta, DifferentBlockColumnsAreRefused) {
  LinearLayout a =
      ok(blocked({1, 4}, {8, 4}, {1, 1}, {1, 0}, {16, 16}) *
         ok(LinearLayout::identity1D(2, dims::kBlock, dims::dim(0))));
  LinearLayout b =
      ok(blocked({1, 8}, {32, 1}, {1, 1}, {1, 0}, {32, 8}) *
         ok(LinearLayout::identity1D(2, dims::kBlock, dims::dim(1))));
  Expected<Plan> p = planSharedMemory(a, b, 32);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message,
            "data moves between CTAs: block basis 0 is (16,0) in the source "
            "and (0,8) in the destination (distributed shared memory across "
            "a cluster is not planned)");
}

/// The fields of a shared-memory plan that a different search result would
/// change: the memory layout, the sides and every count.
void expectSamePlan(const Plan &a, const Plan &b, const std::string &what) {
  ASSERT_TRUE(a.smem && b.smem) << what;
  const SharedMemoryPlan &x = *a.smem, &y = *b.smem;
  EXPECT_EQ(x.memory, y.memory) << what;
  EXPECT_EQ(x.store.matrixInstruction, y.store.matrixInstruction) << what;
  EXPECT_EQ(x.store.trans, y.store.trans) << what;
  EXPECT_EQ(x.load.matrixInstruction, y.load.matrixInstruction) << what;
  EXPECT_EQ(x.load.trans, y.load.trans) << what;
  EXPECT_EQ(x.matrixCount, y.matrixCount) << what;
  EXPECT_EQ(x.store.matrix.halfRegBit, y.store.matrix.halfRegBit) << what;
  EXPECT_EQ(x.store.matrix.matrixRegBits, y.store.matrix.matrixRegBits) << what;
  EXPECT_EQ(x.load.matrix.halfRegBit, y.load.matrix.halfRegBit) << what;
  EXPECT_EQ(x.load.matrix.matrixRegBits, y.load.matrix.matrixRegBits) << what;
  EXPECT_EQ(x.vecBits, y.vecBits) << what;
  EXPECT_EQ(x.iterationBits, y.iterationBits) << what;
  EXPECT_EQ(a.cost.instructions, b.cost.instructions) << what;
  EXPECT_EQ(a.cost.wavefronts, b.cost.wavefronts) << what;
  EXPECT_EQ(a.cost.barriers, b.cost.barriers) << what;
  EXPECT_EQ(a.cost.smemBytes, b.cost.smemBytes) << what;
}

// The matrix search skips candidates by their wavefront bound and stops at
// the first instruction count above the best plan's (Plan.h); building
// every candidate instead (PlanOptions::exhaustiveMatrixSearch) must give
// the same plan: on every ordered pair of the standard f16 layouts
// (16..128, 1-8 warps; unlimited and a quarter-tile budget, sm_80, two
// CTAs) and on random layouts.
TEST(SharedMemoryMatrix, StoppingEarlyChoosesTheExhaustivePlan) {
  PlanOptions exhaustive;
  exhaustive.exhaustiveMatrixSearch = true;
  int compared = 0, withMatrices = 0, budgeted = 0;
  auto compare = [&](const LinearLayout &a, const LinearLayout &b,
                     const std::string &what) {
    Expected<Plan> fast = planSharedMemory(a, b, 16);
    Expected<Plan> slow = planSharedMemory(a, b, 16, exhaustive);
    ASSERT_EQ(bool(fast), bool(slow)) << what;
    if (!fast)
      return;
    expectSamePlan(*fast, *slow, what);
    ++compared;
    withMatrices += fast->smem->store.matrixInstruction ||
                    fast->smem->load.matrixInstruction;
    PlanOptions q, qx = exhaustive;
    q.smemBudgetBytes = qx.smemBudgetBytes = fast->smem->bytes / 4;
    Expected<Plan> fq = planSharedMemory(a, b, 16, q);
    Expected<Plan> sq = planSharedMemory(a, b, 16, qx);
    ASSERT_EQ(bool(fq), bool(sq)) << what;
    if (fq) {
      expectSamePlan(*fq, *sq, what + " (budget)");
      ++budgeted;
    }
    // sm_80 (no stmatrix) and two CTAs.
    PlanOptions s80, s80x = exhaustive;
    s80.arch = s80x.arch = hw::Arch::Sm80;
    expectSamePlan(ok(planSharedMemory(a, b, 16, s80)),
                   ok(planSharedMemory(a, b, 16, s80x)), what + " (sm_80)");
    LinearLayout block =
        ok(LinearLayout::identity1D(2, dims::kBlock, a.outDim(0).id));
    LinearLayout a2 = ok(a * block), b2 = ok(b * block);
    expectSamePlan(ok(planSharedMemory(a2, b2, 16)),
                   ok(planSharedMemory(a2, b2, 16, exhaustive)),
                   what + " (2 CTAs)");
  };
  for (unsigned warps : {1u, 2u, 4u, 8u})
    for (int64_t n : {16, 32, 64, 128}) {
      auto encs = bench::standardEncodings(warps, 16);
      for (auto &[na, ea] : encs)
        for (auto &[nb, eb] : encs) {
          std::vector<int64_t> shape = {n, n};
          Expected<LinearLayout> a = linear::toLinearLayout(*ea, shape);
          Expected<LinearLayout> b = linear::toLinearLayout(*eb, shape);
          if (a && b)
            compare(*a, *b,
                    na + "->" + nb + " " + std::to_string(n) + " w" +
                        std::to_string(warps));
        }
    }
  std::mt19937_64 rng(2611);
  for (int iter = 0; iter < 200; ++iter) {
    int warpBits = int(rng() % 3);
    LinearLayout a = randomDistributed(rng, 4, 4, warpBits, iter % 2);
    LinearLayout b = randomDistributed(rng, 4, 4, warpBits, iter % 3 == 0);
    compare(a, b, a.str() + " -> " + b.str());
  }
  std::printf("pruned vs exhaustive matrix search: %d plans (%d with "
              "matrices), %d with a budget\n",
              compared, withMatrices, budgeted);
  EXPECT_GT(compared, 500);
  EXPECT_GT(withMatrices, 100);
  EXPECT_GT(budgeted, 100);
}

// A side may keep vectors over rows where its matrix instruction fits too.
// f16 16x16, 4 warps, from the mma accumulator with warps [2, 2]
// (registers c1 r8, lanes c2 c4 r1 r2 r4, warps c8 and a broadcast) to the
// A operand of an mma with warps [4, 1] (registers c1 r8 c8, the same
// lanes, both warp bits broadcast: every warp loads everything).
//  * Vectors only: the common register bits c1, r8 give 8-byte vectors:
//    1 store per warp x 2 storing warps + 2 loads per warp x 4 warps = 10.
//  * Rows c1 c2 c4 (the operand's half register and lanes 0, 1): the
//    operand loads with ldmatrix.x4 (half c1, matrices r8, c8): 1 per warp,
//    4. The accumulator fits the same rows with stmatrix.x2 (half c1,
//    matrix r8), but two matrix sides issue the smaller count, x2, and the
//    load then takes 2 per warp: 2 + 8 = 10, not fewer. Keeping vectors on
//    the store side (c1 only: 4-byte vectors, 2 per warp x 2 warps = 4)
//    gives 4 + 4 = 8 instructions with the same 4 + 16 wavefronts.
TEST(SharedMemoryMatrix, VectorStoreUnderLdmatrixWhereStmatrixAlsoFits) {
  LinearLayout a = layoutOf(*mmaV2Enc({2, 2}), {16, 16});
  LinearLayout b = layoutOf(*dotEnc(mmaV2Enc({4, 1}), 0, 2), {16, 16});
  Plan vec = ok(planSharedMemory(a, b, 16, vectorOnly()));
  EXPECT_EQ(vec.smem->store.instructions, 2);
  EXPECT_EQ(vec.smem->load.instructions, 8);
  Plan p = ok(planSharedMemory(a, b, 16));
  const SharedMemoryPlan &sp = *p.smem;
  EXPECT_FALSE(sp.store.matrixInstruction);
  EXPECT_TRUE(sp.load.matrixInstruction);
  EXPECT_FALSE(sp.load.trans);
  EXPECT_EQ(sp.matrixCount, 4);
  EXPECT_EQ(sp.accessBytes, 4);
  EXPECT_EQ(sp.store.instructions, 4);
  EXPECT_EQ(sp.load.instructions, 4);
  EXPECT_EQ(sp.store.wavefronts, 4);
  EXPECT_EQ(sp.load.wavefronts, 16);
  EXPECT_EQ(p.cost.wavefronts, vec.cost.wavefronts);
  simulated(p, "vector store + ldmatrix.x4");
}

// PlanOptions::arch = sm_80 (ldmatrix, no stmatrix; hw::Machine): on every
// ordered pair of the standard f16 layouts (16..64, 1-4 warps) no plan
// stores with stmatrix, every plan simulates correct on sm_80 (whose
// simulator refuses stmatrix), costs no more than the vector plan, and
// some plans load with ldmatrix. Where the sm_90 plan takes no stmatrix,
// the sm_80 plan is the same plan.
TEST(SharedMemoryMatrix, Sm80PlansUseLdmatrixButNeverStmatrix) {
  PlanOptions sm80;
  sm80.arch = hw::Arch::Sm80;
  int plans = 0, ldmatrixPlans = 0, sameAsSm90 = 0;
  for (unsigned warps : {1u, 2u, 4u})
    for (int64_t n : {16, 32, 64}) {
      auto encs = bench::standardEncodings(warps, 16);
      for (auto &[na, ea] : encs)
        for (auto &[nb, eb] : encs) {
          std::vector<int64_t> shape = {n, n};
          Expected<LinearLayout> a = linear::toLinearLayout(*ea, shape);
          Expected<LinearLayout> b = linear::toLinearLayout(*eb, shape);
          if (!a || !b)
            continue;
          std::string what = na + "->" + nb + " " + std::to_string(n) + " w" +
                             std::to_string(warps);
          Plan p = ok(planSharedMemory(*a, *b, 16, sm80));
          Plan v = ok(planSharedMemory(*a, *b, 16, vectorOnly()));
          Plan q = ok(planSharedMemory(*a, *b, 16));
          ++plans;
          EXPECT_FALSE(p.smem->store.matrixInstruction) << what;
          SimulationResult s = ok(simulate(p, hw::Arch::Sm80));
          EXPECT_TRUE(s.correct) << what << ": " << s.firstMismatch;
          EXPECT_EQ(s.storeWavefronts, p.smem->store.wavefronts) << what;
          EXPECT_EQ(s.loadWavefronts, p.smem->load.wavefronts) << what;
          EXPECT_LE(p.cost.cycles, v.cost.cycles) << what;
          EXPECT_LE(p.cost.instructions, v.cost.instructions) << what;
          ldmatrixPlans += p.smem->load.matrixInstruction;
          if (!q.smem->store.matrixInstruction) {
            expectSamePlan(p, q, what);
            ++sameAsSm90;
          }
        }
    }
  std::printf("sm_80: %d plans, %d with ldmatrix, %d the same as on sm_90\n",
              plans, ldmatrixPlans, sameAsSm90);
  EXPECT_GT(ldmatrixPlans, 50);
  EXPECT_GT(sameAsSm90, plans / 2);
}

// Standard layouts (blocked variants, mma v2 accumulator, both dot
// operands) over 16..64 x 16..64 with 1, 2, 4 warps, every ordered pair,
// f8 / f16 / f32 (matrix instructions only for f16):
//  * with matrices allowed, every plan is simulated correct and the
//    simulator's counts equal the prediction; a plan that uses a matrix
//    instruction has fewer instructions than the vector plan and no more
//    wavefronts, its matrix side at the bound (one wavefront per matrix);
//  * with a budget of a quarter of the tile, the plan (when one exists) is
//    correct through the smaller buffer with 2 * iterations - 1 barriers,
//    and a refusal names the smallest legal buffer;
//  * the pair repeated over 2 CTAs (block bit on dim0 in both) is planned
//    per CTA with the single-CTA counts and simulated correct in both.
TEST(SharedMemorySweep, StandardPairsWithMatricesBudgetsAndCtas) {
  int plans = 0, matrixPlans = 0, ldm = 0, stm = 0, trans = 0, budgeted = 0,
      refused = 0, budgetedMatrix = 0;
  std::map<int, int> byCount; // matrices per instruction -> plans
  int both = 0;               // plans with stmatrix and ldmatrix
  for (int bits : {8, 16, 32})
    for (unsigned warps : {1u, 2u, 4u})
      for (int64_t m : {16, 32, 64})
        for (int64_t n : {16, 32, 64}) {
          std::vector<int64_t> shape = {m, n};
          std::vector<LinearLayout> ls;
          auto add = [&](Expected<LinearLayout> l) {
            if (l)
              ls.push_back(*l);
          };
          Encoding e;
          e.kind = EncodingKind::Blocked;
          e.cta = linear::CTALayout::single(2);
          for (auto [spt, tpw, wpc, order] :
               std::vector<std::array<std::vector<unsigned>, 4>>{
                   {{{1, 8}, {16, 2}, {warps, 1}, {1, 0}}},
                   {{{8, 1}, {2, 16}, {1, warps}, {0, 1}}},
                   {{{1, 2}, {8, 4}, {warps, 1}, {1, 0}}},
                   {{{2, 2}, {4, 8}, {1, warps}, {0, 1}}}}) {
            e.sizePerThread = spt;
            e.threadsPerWarp = tpw;
            e.warpsPerCTA = wpc;
            e.order = order;
            add(linear::toLinearLayout(e, shape));
          }
          add(linear::toLinearLayout(*mmaV2Enc({warps, 1}), shape));
          for (int op : {0, 1}) {
            Encoding d;
            d.kind = EncodingKind::DotOperand;
            d.opIdx = op;
            d.kWidth = 2;
            d.parent = mmaV2Enc({warps, 1});
            d.cta = d.parent->cta;
            add(linear::toLinearLayout(d, shape));
          }
          for (const LinearLayout &a : ls)
            for (const LinearLayout &b : ls) {
              if (a.inDimSize(dims::kWarp) != b.inDimSize(dims::kWarp))
                continue;
              std::string what =
                  a.str() + " -> " + b.str() + " f" + std::to_string(bits);
              Plan v = ok(planSharedMemory(a, b, bits, vectorOnly()));
              Plan p = ok(planSharedMemory(a, b, bits, withMatrices()));
              ++plans;
              simulated(p, what);
              const SharedMemoryPlan &sp = *p.smem;
              if (sp.store.matrixInstruction || sp.load.matrixInstruction) {
                ++matrixPlans;
                ++byCount[sp.matrixCount];
                both += sp.store.matrixInstruction && sp.load.matrixInstruction;
                ldm += sp.load.matrixInstruction;
                stm += sp.store.matrixInstruction;
                trans += sp.load.trans || sp.store.trans;
                EXPECT_LT(p.cost.instructions, v.cost.instructions) << what;
                EXPECT_LE(p.cost.wavefronts, v.cost.wavefronts) << what;
                if (sp.store.matrixInstruction) {
                  EXPECT_EQ(sp.store.wavefronts, sp.store.lowerBound) << what;
                }
                if (sp.load.matrixInstruction) {
                  EXPECT_EQ(sp.load.wavefronts, sp.load.lowerBound) << what;
                }
              } else {
                EXPECT_EQ(sp.memory, v.smem->memory) << what;
              }
              // A half, a quarter and a sixteenth of the tile.
              for (int64_t div : {2, 4, 16}) {
                PlanOptions o = withMatrices();
                o.smemBudgetBytes = sp.bytes / div;
                Expected<Plan> q = planSharedMemory(a, b, bits, o);
                if (!q) {
                  ++refused;
                  EXPECT_NE(q.error().message.find("smallest legal buffer"),
                            std::string::npos)
                      << q.error().message;
                  continue;
                }
                ++budgeted;
                budgetedMatrix += q->smem->store.matrixInstruction ||
                                  q->smem->load.matrixInstruction;
                EXPECT_EQ(q->smem->bytes, sp.bytes / div) << what;
                EXPECT_EQ(q->smem->iterations, div) << what;
                EXPECT_EQ(q->smem->barriers, 2 * div - 1);
                simulated(*q, what + " (budget)");
                // The iteration bits are in Z (not lane bits): vector sides
                // stay conflict-free.
                if (!q->smem->store.matrixInstruction) {
                  EXPECT_EQ(q->smem->store.wavefronts,
                            q->smem->store.lowerBound)
                      << what;
                }
                if (!q->smem->load.matrixInstruction) {
                  EXPECT_EQ(q->smem->load.wavefronts, q->smem->load.lowerBound)
                      << what;
                }
              }
              // Two CTAs.
              LinearLayout block =
                  ok(LinearLayout::identity1D(2, dims::kBlock, dims::dim(0)));
              Plan c = ok(planSharedMemory(ok(a * block), ok(b * block), bits,
                                           withMatrices()));
              SimulationResult cs = simulated(c, what + " (2 CTAs)");
              EXPECT_EQ(cs.checked,
                        2 * 32 * a.inDimSize(dims::kWarp) *
                            c.layouts.dst.inDimSize(dims::kRegister));
              EXPECT_EQ(c.smem->bytes, sp.bytes) << what;
              EXPECT_EQ(c.cost.instructions, p.cost.instructions) << what;
            }
        }
  std::printf("sweep: %d pairs, %d with matrices (%d ldmatrix, %d "
              "stmatrix, %d .trans), %d budgeted (%d with matrices), %d "
              "refused\n",
              plans, matrixPlans, ldm, stm, trans, budgeted, budgetedMatrix,
              refused);
  for (auto [count, plansWith] : byCount)
    std::printf("  .x%d: %d plans\n", count, plansWith);
  std::printf("  both sides by matrices: %d plans\n", both);
  EXPECT_GT(both, 0);
  EXPECT_GT(ldm, 0);
  EXPECT_GT(stm, 0);
  EXPECT_GT(trans, 0);
  EXPECT_GT(budgeted, 0);
  EXPECT_GT(budgetedMatrix, 0);
}

} // namespace
} // namespace lk::plan
