//===- LayoutCostTest.cpp - The layout pass's scorer and candidates -------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit-mlir/LayoutCost.h"

#include <gtest/gtest.h>

using namespace lk::tileas;

namespace {

Candidate make(const char *atom, CostTerms t) {
  return {
      atom, MemKind::Register, LayoutFamily::DotOperand, SubLayoutAxis::A, 16,
      t};
}

// The golden table of docs/design.md §6.6, default weights (1, 4, 0.25):
// 1*4 + 4*0 + 0.25*32 = 12, 1*2 + 0.25*64 = 18, 1*1 = 1.
TEST(LayoutCost, SpecGoldenTable) {
  CostWeights w;
  std::vector<Candidate> c = {make("LDSM_M88", {4, 0, 32}),
                              make("LDSM_M816", {2, 0, 64}),
                              make("CP_ASYNC_BULK_TENSOR", {1, 0, 0})};
  EXPECT_EQ(score(c[0].terms, w), 12.0);
  EXPECT_EQ(score(c[1].terms, w), 18.0);
  EXPECT_EQ(score(c[2].terms, w), 1.0);
  EXPECT_EQ(pickByCost(c, w), 2u);
  // The bulk copy filtered out by a register-fragment consumer: 12 < 18.
  c.pop_back();
  EXPECT_EQ(pickByCost(c, w), 0u);
}

// Equal scores: fewer registers first (2 + 8 = 10 = 6 + 4), then fewer
// wavefronts (weights (0, 4, 0.25): both 8, 32 registers each).
TEST(LayoutCost, TieBreaks) {
  CostWeights w;
  std::vector<Candidate> regs = {make("more registers", {2, 0, 32}),
                                 make("fewer registers", {6, 0, 16})};
  EXPECT_EQ(score(regs[0].terms, w), score(regs[1].terms, w));
  EXPECT_EQ(pickByCost(regs, w), 1u);
  CostWeights noSmem{0, 4, 0.25};
  std::vector<Candidate> banks = {make("32 wavefronts", {32, 0, 32}),
                                  make("4 wavefronts", {4, 0, 32})};
  EXPECT_EQ(pickByCost(banks, noSmem), 1u);
  // A full tie keeps the first.
  std::vector<Candidate> same = {make("a", {4, 0, 32}), make("b", {4, 0, 32})};
  EXPECT_EQ(pickByCost(same, w), 0u);
  EXPECT_FALSE(pickByCost({}, w).has_value());
}

// Candidates for the 128x64 f16 tile in 128B-swizzled SMEM on sm_90 (§6.6):
// the bulk copy (1, 0, 0); ldmatrix.x4 with one wavefront per 8x8 matrix
// (the swizzle XORs row r's 16-B chunk index with r) and 128*64*2 B /
// (128 threads * 4 B) = 32 registers; the 16-B vector load at its
// lane-group minimum of 4 wavefronts.
TEST(LayoutCost, SwizzledSharedTile) {
  AccessShape a;
  a.rows = 128;
  a.cols = 64;
  a.bufferLayout =
      *lk::cute::parseLayoutAttribute("<(128,64),(64,1),swizzle<3,4,3>>");
  auto c = candidatesFor(a);
  ASSERT_TRUE(c.hasValue());
  ASSERT_EQ(c->size(), 3u);
  EXPECT_EQ((*c)[0].atom, "cp.async.bulk.tensor");
  EXPECT_EQ((*c)[0].terms, (CostTerms{1, 0, 0}));
  EXPECT_EQ((*c)[1].atom, "ldmatrix.x4.b16");
  EXPECT_EQ((*c)[1].terms, (CostTerms{4, 0, 32}));
  EXPECT_EQ((*c)[2].atom, "universal");
  EXPECT_EQ((*c)[2].terms, (CostTerms{4, 0, 32}));
}

// Unswizzled 128-B rows: the 8 rows of a matrix share one 16-B bank group,
// 8 wavefronts per matrix, 32 per x4. An 8-byte aligned buffer allows
// neither the bulk copy nor ldmatrix, and limits the vector to 8 B (2).
TEST(LayoutCost, UnswizzledAndMisaligned) {
  AccessShape a;
  a.rows = 128;
  a.cols = 64;
  auto c = candidatesFor(a);
  ASSERT_TRUE(c.hasValue());
  EXPECT_EQ((*c)[1].terms, (CostTerms{32, 0, 32}));
  a.bufferAlignment = 8;
  auto m = candidatesFor(a);
  ASSERT_TRUE(m.hasValue());
  ASSERT_EQ(m->size(), 1u);
  EXPECT_EQ((*m)[0].atom, "universal");
  EXPECT_EQ((*m)[0].alignment, 8);
  EXPECT_EQ((*m)[0].terms, (CostTerms{2, 0, 32}));
}

// TMEM tiles only on sm_100: a 128x64 f32 tile, 64 cells per lane row:
// 32x32b.x64 in 1 instruction per warp, 16x256b.x8 in 2.
TEST(LayoutCost, TensorMemory) {
  AccessShape a;
  a.rows = 128;
  a.cols = 64;
  a.elementBits = 32;
  a.bufferKind = MemKind::Tmem;
  auto none = candidatesFor(a);
  ASSERT_TRUE(none.hasValue());
  EXPECT_TRUE(none->empty());
  a.arch = lk::hw::Arch::Sm100;
  a.tmemArch = true;
  auto c = candidatesFor(a);
  ASSERT_TRUE(c.hasValue());
  ASSERT_EQ(c->size(), 2u);
  EXPECT_EQ((*c)[0].atom, "tcgen05.ld.32x32b.x64");
  EXPECT_EQ((*c)[0].terms, (CostTerms{0, 1, 64}));
  EXPECT_EQ((*c)[1].atom, "tcgen05.ld.16x256b.x8");
  EXPECT_EQ((*c)[1].terms, (CostTerms{0, 2, 64}));
}

} // namespace
