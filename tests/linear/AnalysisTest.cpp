//===- AnalysisTest.cpp - Families and code-generation utilities ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Analysis.h"
#include "layoutkit/linear/Standard.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::linear;
using lk::linear::testing::ok;
using lk::linear::testing::P;

namespace {

LinearLayout blocked(std::vector<unsigned> spt, std::vector<unsigned> tpw,
                     std::vector<unsigned> wpc, std::vector<unsigned> order,
                     std::vector<int64_t> shape) {
  return ok(blockedLayout(spt, tpw, wpc, order, shape));
}

TEST(Families, DistributedAndMemory) {
  EXPECT_TRUE(
      isDistributed(P("{register: [(1), (0)], lane: [(2)]} -> {dim0: 4}")));
  // A column with two bits is not distributed.
  EXPECT_FALSE(isDistributed(P("{register: [(3)]} -> {dim0: 4}")));
  // A repeated non-zero column is not distributed.
  EXPECT_FALSE(isDistributed(P("{register: [(1)], lane: [(1)]} -> {dim0: 2}")));
  // A swizzle: invertible, columns with 1 or 2 bits.
  EXPECT_TRUE(isMemory(P("{offset: [(1), (2), (5)]} -> {dim0: 8}")));
  EXPECT_FALSE(isMemory(P("{offset: [(1), (2), (7)]} -> {dim0: 8}"))); // 3 bits
  EXPECT_FALSE(
      isMemory(P("{offset: [(1), (3), (2)]} -> {dim0: 4}")));     // not square
  EXPECT_FALSE(isMemory(P("{offset: [(1), (1)]} -> {dim0: 4}"))); // singular
}

TEST(Utilities, ContiguityAcrossDimensions) {
  // Paper Table 2, f16[512, 2]: each thread holds an 8x2 block of a
  // row-major tensor. Registers map to (0,1), (1,0), (2,0), (4,0): row-major
  // offsets 1, 2, 4, 8. 16 contiguous elements, so 128-bit accesses; the
  // per-dimension heuristic sees only the 2 elements of dim1 (32 bits).
  LinearLayout l = blocked({8, 2}, {32, 1}, {2, 1}, {1, 0}, {512, 2});
  EXPECT_EQ(ok(contiguousElements(l)), 16);
  EXPECT_EQ(ok(contiguousElementsPerDim(l)), 2);
  EXPECT_EQ(ok(accessBits(l, 16)), 128);
  EXPECT_EQ(ok(contiguousElementsPerDim(l)) * 16, 32);
  // f8[512, 2] in the same layout: 16 vs 128 bits.
  EXPECT_EQ(ok(accessBits(l, 8)), 128);
  EXPECT_EQ(ok(contiguousElementsPerDim(l)) * 8, 16);
  // [128, 1]: the last dim has one element; the legacy heuristic found 1
  // contiguous element, the registers still run along rows 0..3.
  LinearLayout col = blocked({4, 1}, {32, 1}, {1, 1}, {1, 0}, {128, 1});
  EXPECT_EQ(ok(contiguousElements(col)), 4);
  EXPECT_EQ(ok(contiguousElementsPerDim(col)), 1);
  // Column-major memory order: dim0 fastest.
  unsigned colMajor[] = {0, 1};
  LinearLayout cm = blocked({4, 2}, {8, 4}, {1, 1}, {0, 1}, {32, 8});
  EXPECT_EQ(ok(contiguousElements(cm, colMajor)), 4);
  // A non-register basis on the low bits breaks alignment: lane 1 -> 1.
  EXPECT_EQ(
      ok(contiguousElements(P("{register: [(2)], lane: [(1)]} -> {dim0: 4}"))),
      1);
}

TEST(Utilities, DuplicatesForReductions) {
  // Oracle ShapeSmallerThanLayout: lane bit 1 and both warp bits duplicate.
  LinearLayout l = blocked({4}, {4}, {4}, {0}, {8});
  Duplicates d = duplicates(l);
  EXPECT_TRUE(d.any());
  EXPECT_EQ(d.freeMask(l, dims::kRegister), 0u);
  EXPECT_EQ(d.freeMask(l, dims::kLane), 0b10u);
  EXPECT_EQ(d.freeMask(l, dims::kWarp), 0b11u);
  EXPECT_FALSE(duplicates(blocked({4}, {4}, {4}, {0}, {64})).any());
}

TEST(Utilities, LargestVectorization) {
  // Registers 0,1 are contiguous offsets, register 2 jumps: 4 elements.
  LinearLayout a =
      P("{register: [(1), (2), (64)], lane: [(4), (8), (16), (32)]}"
        " -> {offset: 128}");
  Vectorization v = ok(largestVectorization(a, false));
  EXPECT_EQ(v.elements, 4);
  // Registers in the wrong order: (2) before (1). Without permutation only
  // 1 element; permuting the registers gives 8 (registers 1, 0, 2).
  LinearLayout b =
      P("{register: [(2), (1), (4)], lane: [(8), (16)]} -> {offset: 32}");
  EXPECT_EQ(ok(largestVectorization(b, false)).elements, 1);
  Vectorization vb = ok(largestVectorization(b));
  EXPECT_EQ(vb.elements, 8);
  EXPECT_EQ(vb.perm, (std::vector<int>{1, 0, 2}));
  // Storing a blocked layout (8 consecutive fp16 per thread along rows)
  // into a row-major swizzled shared layout with vec 8: 8-wide stores.
  LinearLayout reg = blocked({1, 8}, {8, 4}, {1, 1}, {1, 0}, {8, 32});
  Encoding sw;
  sw.kind = EncodingKind::SwizzledShared;
  sw.vec = 8;
  sw.perPhase = 1;
  sw.maxPhase = 4;
  sw.order = {1, 0};
  int64_t shape[] = {8, 32};
  LinearLayout mem = ok(toLinearLayout(sw, shape));
  LinearLayout cvt = ok(registerToOffset(reg, mem));
  DimId ins[] = {dims::kRegister, dims::kLane, dims::kWarp, dims::kBlock};
  DimId outs[] = {dims::kOffset};
  LinearLayout cvt1 = ok(cvt.sublayout(ins, outs));
  EXPECT_EQ(ok(largestVectorization(cvt1)).elements, 8);
}

TEST(Utilities, LdmatrixStmatrixByLeftDivision) {
  // The mma v2 accumulator 16x16 (fp16) stored to a row-major 16x16 tile:
  // register 0 and lanes 0-1 give 4 consecutive bytes x 4 lanes = one 16-byte
  // row: the stmatrix tile divides the map.
  unsigned instr[] = {16, 8}, warps[] = {1, 1};
  int64_t shape[] = {16, 16};
  LinearLayout acc = ok(nvidiaMmaLayout(2, instr, warps, shape));
  LinearLayout rowMajor =
      P("{offset: [(0,1), (0,2), (0,4), (0,8), (1,0), (2,0), "
        "(4,0), (8,0)]} -> {dim0: 16, dim1: 16}");
  LinearLayout cvt = ok(registerToOffset(acc, rowMajor));
  PermutedQuotient q = ok(matrixInstructionApplies(cvt, 2));
  EXPECT_EQ(q.perm, (std::vector<int>{0, 1, 2}));
  // With the registers stored column-major (dim0 fastest) the 4 bytes of a
  // thread are not contiguous: refused.
  LinearLayout colMajor =
      P("{offset: [(1,0), (2,0), (4,0), (8,0), (0,1), (0,2), "
        "(0,4), (0,8)]} -> {dim0: 16, dim1: 16}");
  EXPECT_FALSE(
      matrixInstructionApplies(ok(registerToOffset(acc, colMajor)), 2));
  // A register permutation is found when needed.
  LinearLayout perm =
      P("{register: [(64), (1)], lane: [(2), (4), (8), (16), (32)]}"
        " -> {offset: 128}");
  PermutedQuotient pq = ok(matrixInstructionApplies(perm, 2));
  EXPECT_EQ(pq.perm, (std::vector<int>{1, 0}));
  EXPECT_FALSE(matrixInstructionApplies(perm, 3));
}

} // namespace
