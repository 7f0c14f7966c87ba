//===- IntelDpasTest.cpp - Intel's DPAS layouts ---------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The Xe matrix-engine (DPAS) layouts against the pictures of Intel's
/// published definitions: the DpasEncodingAttr description (examples 1-3
/// for a sub-group of 16, the 64x128 tt.dot with warpsPerCTA [2, 2] and
/// repCluster [2, 2]) and the sub-group-32 pictures of the backend's
/// LinearLayoutConversions. Each expectation is the picture read as a
/// formula (lane, register) -> (row, col), derived beside the test; the
/// properties (bijective tiles, broadcast along K, sizes) are checked over
/// a sweep of parameters.
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Analysis.h"
#include "layoutkit/linear/Standard.h"

#include <gtest/gtest.h>

#include <functional>

using namespace lk;
using namespace lk::linear;
using lk::linear::dims::dim;
using lk::linear::testing::ok;

namespace {

using EncodingPtr = std::shared_ptr<const Encoding>;

/// A DPAS encoding with systolicDepth 8 (every Xe part) and one CTA.
EncodingPtr dpas(int repeatCount, int executionSize, int opsPerChannel,
                 unsigned subGroup, std::vector<unsigned> warps = {1, 1},
                 std::vector<unsigned> repCluster = {1, 1}) {
  auto e = std::make_shared<Encoding>();
  e->kind = EncodingKind::IntelDpas;
  e->repeatCount = repeatCount;
  e->systolicDepth = 8;
  e->executionSize = executionSize;
  e->opsPerChannel = opsPerChannel;
  e->threadsPerWarp = {subGroup};
  e->warpsPerCTA = std::move(warps);
  e->repCluster = std::move(repCluster);
  return e;
}

/// Operand opIdx (0 = A, 1 = B) of `parent`; kWidth 0 leaves it to the
/// parent.
Encoding operand(int opIdx, EncodingPtr parent, int kWidth = 0) {
  Encoding e;
  e.kind = EncodingKind::DotOperand;
  e.opIdx = opIdx;
  e.kWidth = kWidth;
  e.parent = std::move(parent);
  return e;
}

/// (row, col) of register r, lane l, warp w (2-D layouts).
std::pair<int64_t, int64_t> at(const LinearLayout &l, int64_t r, int64_t lane,
                               int64_t w = 0) {
  std::vector<int64_t> out = ok(l.apply({r, lane, w, 0}));
  return {out[0], out[1]};
}

using Expect =
    std::function<std::pair<int64_t, int64_t>(int64_t reg, int64_t lane)>;

/// Checks every (register, lane) of warp 0 against `want`, and that the
/// layout has exactly `regs` registers and `lanes` lanes.
void expectTile(const LinearLayout &l, int64_t regs, int64_t lanes,
                const Expect &want) {
  ASSERT_EQ(l.inDimSize(dims::kRegister), regs) << l.str();
  ASSERT_EQ(l.inDimSize(dims::kLane), lanes) << l.str();
  for (int64_t r = 0; r < regs; ++r)
    for (int64_t t = 0; t < lanes; ++t)
      EXPECT_EQ(at(l, r, t), want(r, t))
          << "register " << r << " lane " << t << " of " << l.str();
}

LinearLayout layoutOf(const Encoding &e, std::vector<int64_t> shape) {
  return ok(toLinearLayout(e, shape));
}

//===----------------------------------------------------------------------===//
// One instruction, from the published pictures
//===----------------------------------------------------------------------===//

TEST(IntelDpas, OperandAExample1OpsPerChannel2SubGroup16) {
  // Example 1 (repeatCount 8, executionSize 16, opsPerChan 2, sub-group
  // 16): A is 8 x 16 and every row reads t0 .. t15, so lane l holds column
  // l; "one scalar represents one row": register r is row r.
  LinearLayout a = layoutOf(operand(0, dpas(8, 16, 2, 16)), {8, 16});
  expectTile(a, 8, 16, [](int64_t r, int64_t l) { return std::pair{r, l}; });
  EXPECT_TRUE(a.isInjective() && a.isSurjective());
  EXPECT_TRUE(isDistributed(a));
}

TEST(IntelDpas, OperandAExample2OpsPerChannel1) {
  // Example 2 (opsPerChan 1): A is 8 x 8; even rows read t0 .. t7, odd
  // rows t8 .. t15, so lane l holds column l mod 8 of the rows of parity
  // l / 8; "one scalar represents multiple rows": register r covers rows
  // 2r and 2r + 1, 4 registers.
  LinearLayout a = layoutOf(operand(0, dpas(8, 16, 1, 16)), {8, 8});
  expectTile(a, 4, 16, [](int64_t r, int64_t l) {
    return std::pair{2 * r + l / 8, l % 8};
  });
  EXPECT_TRUE(a.isInjective() && a.isSurjective());
}

TEST(IntelDpas, OperandAExample3OpsPerChannel4) {
  // Example 3 (opsPerChan 4): A is 8 x 32 and each row reads "t0 t0 t1 t1
  // ... t15 t15": lane l holds columns 2l and 2l + 1 (an 8-bit pair packed
  // into 16 bits), "a partial row" per scalar: register 2 * row + (col
  // mod 2), 16 registers.
  LinearLayout a = layoutOf(operand(0, dpas(8, 16, 4, 16)), {8, 32});
  expectTile(a, 16, 16, [](int64_t r, int64_t l) {
    return std::pair{r / 2, 2 * l + r % 2};
  });
  EXPECT_TRUE(a.isInjective() && a.isSurjective());
}

TEST(IntelDpas, OperandASubGroup32) {
  // The sub-group-32 picture of A (repeat 8, depth 8, opsPerChan 2): rows
  // alternate t0 .. t15 and t16 .. t31, so lane l holds column l mod 16 of
  // the rows of parity l / 16, register r rows 2r, 2r + 1 (4 registers).
  LinearLayout a = layoutOf(operand(0, dpas(8, 16, 2, 32)), {8, 16});
  expectTile(a, 4, 32, [](int64_t r, int64_t l) {
    return std::pair{2 * r + l / 16, l % 16};
  });
}

TEST(IntelDpas, OperandBSubGroup16) {
  // Example 1's B (K = 16 x N = 16): every row reads t0 .. t15, so lane l
  // holds column l and all 16 k in its registers, register r = row r
  // (opsPerChan 2: a 32-bit channel holds rows 2c, 2c + 1, channel c in
  // registers 2c, 2c + 1). Example 3's B is "like opsPerChan 2 but K =
  // 32", example 2's "but K = 8": the same with 32 and 8 rows.
  LinearLayout b = layoutOf(operand(1, dpas(8, 16, 2, 16)), {16, 16});
  expectTile(b, 16, 16, [](int64_t r, int64_t l) { return std::pair{r, l}; });
  LinearLayout b4 = layoutOf(operand(1, dpas(8, 16, 4, 16)), {32, 16});
  expectTile(b4, 32, 16, [](int64_t r, int64_t l) { return std::pair{r, l}; });
  LinearLayout b1 = layoutOf(operand(1, dpas(8, 16, 1, 16)), {8, 16});
  expectTile(b1, 8, 16, [](int64_t r, int64_t l) { return std::pair{r, l}; });
  EXPECT_TRUE(b.isInjective() && b.isSurjective());
}

TEST(IntelDpas, OperandBSubGroup32) {
  // The sub-group-32 picture of B (opsPerChan 2, execution size 16): rows
  // 0-1 read t0 .. t15, rows 2-3 t16 .. t31, rows 4-5 t0 .. t15, ...: lane
  // l holds column l mod 16 of the row pairs (channels) c with c mod 2 =
  // l / 16; register 2j + h is element h of the lane's j-th channel, i.e.
  // row 4j + 2 (l / 16) + h. 16 x 16 / 32 = 8 registers.
  LinearLayout b = layoutOf(operand(1, dpas(8, 16, 2, 32)), {16, 16});
  expectTile(b, 8, 32, [](int64_t r, int64_t l) {
    return std::pair{4 * (r / 2) + 2 * (l / 16) + r % 2, l % 16};
  });
}

TEST(IntelDpas, AccumulatorPictures) {
  // Example 1's C / D (8 x 16, sub-group 16): every row reads t0 .. t15:
  // lane l column l, register r row r.
  expectTile(layoutOf(*dpas(8, 16, 2, 16), {8, 16}), 8, 16,
             [](int64_t r, int64_t l) {
               return std::pair{r, l};
             });
  // Sub-group 32 (the backend's picture): rows alternate t0 .. t15 and t16
  // .. t31: lane l column l mod 16 of the rows of parity l / 16.
  expectTile(layoutOf(*dpas(8, 16, 2, 32), {8, 16}), 4, 32,
             [](int64_t r, int64_t l) {
               return std::pair{2 * r + l / 16, l % 16};
             });
  // An ATSM-like part (executionSize 8, sub-group 8): C is 8 x 8, lane l
  // column l, register r row r; with a sub-group of 16 two rows share a
  // register (rows of parity l / 8).
  expectTile(layoutOf(*dpas(8, 8, 2, 8), {8, 8}), 8, 8,
             [](int64_t r, int64_t l) {
               return std::pair{r, l};
             });
  expectTile(layoutOf(*dpas(8, 8, 2, 16), {8, 8}), 4, 16,
             [](int64_t r, int64_t l) {
               return std::pair{2 * r + l / 8, l % 8};
             });
  // repeatCount 2: C is 2 x 16; sub-group 16 holds row r in register r.
  expectTile(layoutOf(*dpas(2, 16, 2, 16), {2, 16}), 2, 16,
             [](int64_t r, int64_t l) {
               return std::pair{r, l};
             });
}

//===----------------------------------------------------------------------===//
// repCluster and warps: the 64x128 tt.dot of the attribute's description
//===----------------------------------------------------------------------===//

// #dpas<{repeatCount 8, systolicDepth 8, executionSize 16, opsPerChan 2,
// threadsPerWarp 16, warpsPerCTA [2, 2], repCluster [2, 2]}>, C 64 x 128,
// A 64 x 32, B 32 x 128. The picture's cells are instruction tiles
// (8 x 16 for C and A); "WwRi" is warp w's i-th repetition, which occupies
// the lane's registers 8i .. 8i + 7 (8 x 16 / 16 = 8 per tile for A and
// C, 16 x 16 / 16 = 16 for B), laid out inside the tile as in example 1.

TEST(IntelDpas, AccumulatorRepClusterAndWarps) {
  // C's picture: along a row of tiles W0R0 W0R1 W1R0 W1R1 W0R4 W0R5 W1R4
  // W1R5, the next tile row W0R2 W0R3 ..., tile rows 2-3 warps W2 / W3,
  // tile rows 4-5 R8 .. R15. So tile column = (i & 1) + 2 (w & 1) +
  // 4 ((i >> 2) & 1), tile row = ((i >> 1) & 1) + 2 (w >> 1) +
  // 4 ((i >> 3) & 1).
  LinearLayout c = layoutOf(*dpas(8, 16, 2, 16, {2, 2}, {2, 2}), {64, 128});
  ASSERT_EQ(c.inDimSize(dims::kRegister), 8 * 16);
  ASSERT_EQ(c.inDimSize(dims::kWarp), 4);
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t reg = 0; reg < 128; ++reg)
      for (int64_t l = 0; l < 16; ++l) {
        int64_t i = reg / 8;
        int64_t tileCol = (i & 1) + 2 * (w & 1) + 4 * ((i >> 2) & 1);
        int64_t tileRow = ((i >> 1) & 1) + 2 * (w >> 1) + 4 * ((i >> 3) & 1);
        ASSERT_EQ(at(c, reg, l, w),
                  (std::pair{8 * tileRow + reg % 8, 16 * tileCol + l}))
            << "warp " << w << " register " << reg << " lane " << l;
      }
  EXPECT_TRUE(c.isInjective() && c.isSurjective());
}

TEST(IntelDpas, OperandARepClusterAndWarps) {
  // A's picture (64 x 32, tiles 8 x 16): tile column 0 holds R0, R1, W2R0,
  // W2R1, R4, R5, ... down the rows, tile column 1 R2, R3, ...: the
  // cluster (repCluster[0] = 2) first along M, then K (two 16-wide
  // tiles), then M again (R4 at tile row 4); W1 holds W0's tiles and W3
  // W2's ("K-dimension is shared among warps"); W2 starts at tile row 2.
  // tile row = (i & 1) + 2 (w >> 1) + 4 ((i >> 2) & 1), tile col =
  // (i >> 1) & 1.
  Encoding a = operand(0, dpas(8, 16, 2, 16, {2, 2}, {2, 2}), 1);
  LinearLayout l = layoutOf(a, {64, 32});
  ASSERT_EQ(l.inDimSize(dims::kRegister), 8 * 8);
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t reg = 0; reg < 64; ++reg)
      for (int64_t t = 0; t < 16; ++t) {
        int64_t i = reg / 8;
        int64_t tileRow = (i & 1) + 2 * (w >> 1) + 4 * ((i >> 2) & 1);
        int64_t tileCol = (i >> 1) & 1;
        ASSERT_EQ(at(l, reg, t, w),
                  (std::pair{8 * tileRow + reg % 8, 16 * tileCol + t}))
            << "warp " << w << " register " << reg << " lane " << t;
      }
  EXPECT_TRUE(l.isSurjective());
  // Warp bit 0 (W1 vs W0) moves nothing: a zero column.
  EXPECT_EQ(l.basis(dims::kWarp, 0, dim(0)), 0);
  EXPECT_EQ(l.basis(dims::kWarp, 0, dim(1)), 0);
}

TEST(IntelDpas, OperandBRepClusterAndWarps) {
  // B (32 x 128) by the same rules, with the roles of the dims swapped:
  // the cluster (repCluster[1] = 2) along N, then K (two 16-deep tiles),
  // then N; warps split N (W1 32 columns right), W2 holds W0's tiles.
  // Tiles are 16 x 16 with 16 registers each (example 1's B).
  // tile col = (i & 1) + 2 (w & 1) + 4 ((i >> 2) & 1), tile row =
  // (i >> 1) & 1.
  Encoding b = operand(1, dpas(8, 16, 2, 16, {2, 2}, {2, 2}), 2);
  LinearLayout l = layoutOf(b, {32, 128});
  ASSERT_EQ(l.inDimSize(dims::kRegister), 16 * 8);
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t reg = 0; reg < 128; ++reg)
      for (int64_t t = 0; t < 16; ++t) {
        int64_t i = reg / 16;
        int64_t tileCol = (i & 1) + 2 * (w & 1) + 4 * ((i >> 2) & 1);
        int64_t tileRow = (i >> 1) & 1;
        ASSERT_EQ(at(l, reg, t, w),
                  (std::pair{16 * tileRow + reg % 16, 16 * tileCol + t}))
            << "warp " << w << " register " << reg << " lane " << t;
      }
  EXPECT_EQ(l.basis(dims::kWarp, 1, dim(0)), 0);
  EXPECT_EQ(l.basis(dims::kWarp, 1, dim(1)), 0);
}

//===----------------------------------------------------------------------===//
// Properties over a sweep of parameters
//===----------------------------------------------------------------------===//

struct Params {
  int R, E, O;
  unsigned S;
  std::vector<unsigned> warps, cluster;
};

/// Every valid combination of the sweep (an invalid one, e.g. a sub-group
/// smaller than the execution size, is skipped here and tested below).
std::vector<Params> sweep() {
  std::vector<Params> r;
  for (int R : {1, 2, 4, 8})
    for (int E : {8, 16})
      for (int O : {1, 2, 4})
        for (unsigned S : {8u, 16u, 32u})
          for (std::vector<unsigned> w :
               {std::vector<unsigned>{1, 1}, {2, 4}, {4, 1}})
            for (std::vector<unsigned> c :
                 {std::vector<unsigned>{1, 1}, {2, 1}, {1, 4}})
              r.push_back({R, E, O, S, w, c});
  return r;
}

int log2i(int64_t x) {
  int k = 0;
  while ((int64_t(1) << k) < x)
    ++k;
  return k;
}

TEST(IntelDpas, SizesAndBijectionsOverTheSweep) {
  int valid = 0;
  for (const Params &p : sweep()) {
    EncodingPtr enc = dpas(p.R, p.E, p.O, p.S, p.warps, p.cluster);
    const int64_t K = 8 * p.O, w0 = p.warps[0], w1 = p.warps[1];
    const int64_t c0 = p.cluster[0], c1 = p.cluster[1];
    // One CTA's tile of each operand: A (R c0 w0) x K, B K x (E c1 w1),
    // C (R c0 w0) x (E c1 w1).
    std::vector<int64_t> shapeA{p.R * c0 * w0, K}, shapeB{K, p.E * c1 * w1},
        shapeC{p.R * c0 * w0, p.E * c1 * w1};
    Expected<LinearLayout> a = toLinearLayout(operand(0, enc), shapeA);
    Expected<LinearLayout> b = toLinearLayout(operand(1, enc), shapeB);
    Expected<LinearLayout> c = toLinearLayout(*enc, shapeC);
    int64_t colsA = p.O == 4 ? 16 : K; // lanes across a row of A
    bool okA = p.S >= colsA && p.S / colsA <= p.R;
    bool okB = p.S >= uint64_t(p.E) && p.S / p.E <= 8;
    bool okC = p.S >= uint64_t(p.E) && p.S / p.E <= uint64_t(p.R);
    SCOPED_TRACE("R " + std::to_string(p.R) + " E " + std::to_string(p.E) +
                 " O " + std::to_string(p.O) + " S " + std::to_string(p.S) +
                 " warps " + std::to_string(w0) + "x" + std::to_string(w1) +
                 " cluster " + std::to_string(c0) + "x" + std::to_string(c1));
    ASSERT_EQ(bool(a), okA) << (a ? a->str() : a.error().message);
    ASSERT_EQ(bool(b), okB) << (b ? b->str() : b.error().message);
    ASSERT_EQ(bool(c), okC) << (c ? c->str() : c.error().message);
    if (okC) {
      // The accumulator tile is a bijection: registers R E / S per
      // instruction, c0 c1 instructions per warp.
      EXPECT_EQ(c->inDimSize(dims::kRegister), p.R * p.E / p.S * c0 * c1);
      EXPECT_EQ(c->inDimSize(dims::kLane), p.S);
      EXPECT_TRUE(c->isInjective() && c->isSurjective());
      EXPECT_TRUE(isDistributed(*c));
      ++valid;
    }
    // A and B: all of one warp's tile (c0 (resp. c1) instructions)
    // bijectively, the warps along K holding copies: the rank falls short
    // of the input bits by exactly the K warp bits.
    if (okA) {
      EXPECT_EQ(a->inDimSize(dims::kRegister), p.R * K / p.S * c0);
      EXPECT_TRUE(a->isSurjective());
      EXPECT_EQ(a->rank(), a->totalInBits() - log2i(w1));
      for (int bit = 0; bit < log2i(w1); ++bit)
        EXPECT_EQ(a->basis(dims::kWarp, bit, dim(1)), 0);
    }
    if (okB) {
      EXPECT_EQ(b->inDimSize(dims::kRegister), K * p.E / p.S * c1);
      EXPECT_TRUE(b->isSurjective());
      EXPECT_EQ(b->rank(), b->totalInBits() - log2i(w0));
    }
  }
  EXPECT_GT(valid, 50); // the sweep is not vacuous
}

TEST(IntelDpas, TensorShapeHandling) {
  EncodingPtr enc = dpas(8, 16, 2, 16);
  // A tensor 4x larger (16 x 32): two register bits above the tile, K
  // (dim1, stride 16) first, then M (stride 8), as the repetitions go.
  LinearLayout c = layoutOf(*enc, {16, 32});
  ASSERT_EQ(c.inDimLog2(dims::kRegister), 5);
  EXPECT_EQ(at(c, 8, 0), (std::pair<int64_t, int64_t>{0, 16}));
  EXPECT_EQ(at(c, 16, 0), (std::pair<int64_t, int64_t>{8, 0}));
  EXPECT_TRUE(c.isInjective() && c.isSurjective());
  // A tensor smaller than the tile (4 x 16): the largest row basis
  // (register 4 -> row 4) is zeroed: registers 4..7 repeat rows 0..3.
  LinearLayout small = layoutOf(*enc, {4, 16});
  EXPECT_EQ(small.outDimSize(dim(0)), 4);
  EXPECT_EQ(at(small, 4, 3), at(small, 0, 3));
  EXPECT_TRUE(small.isSurjective());
  // A along K: a 64-deep tensor repeats the 16-deep tile 4 times in
  // registers (stride 16 along dim1).
  LinearLayout a = layoutOf(operand(0, enc), {8, 64});
  EXPECT_EQ(at(a, 8, 1), (std::pair<int64_t, int64_t>{0, 17}));
  EXPECT_EQ(at(a, 16, 1), (std::pair<int64_t, int64_t>{0, 33}));
  EXPECT_TRUE(a.isInjective() && a.isSurjective());
}

TEST(IntelDpas, BatchDim) {
  // Rank 3: dim0 is the batch; one warp's tile has batch 1, so 2 batches
  // take a register bit above the tile (after K and M), warps[0] = 2 a
  // warp bit instead.
  EncodingPtr one = dpas(8, 16, 2, 16, {1, 1, 1}, {1, 1, 1});
  LinearLayout c = layoutOf(*one, {2, 8, 16});
  ASSERT_EQ(c.inDimSize(dims::kRegister), 16);
  EXPECT_EQ(ok(c.apply({8, 0, 0, 0})), (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(ok(c.apply({3, 5, 0, 0})), (std::vector<int64_t>{0, 3, 5}));
  EncodingPtr two = dpas(8, 16, 2, 16, {2, 1, 1}, {1, 1, 1});
  LinearLayout w = layoutOf(*two, {2, 8, 16});
  EXPECT_EQ(ok(w.apply({0, 0, 1, 0})), (std::vector<int64_t>{1, 0, 0}));
  EXPECT_TRUE(w.isInjective() && w.isSurjective());
  // A slice of the accumulator (Triton's reductions) goes through the
  // generic slice: dim 1 removed, each lane keeps its column.
  Encoding s;
  s.kind = EncodingKind::Slice;
  s.dim = 0;
  s.parent = dpas(8, 16, 2, 16);
  LinearLayout sl = layoutOf(s, {16});
  EXPECT_EQ(ok(sl.apply({0, 5, 0, 0})), (std::vector<int64_t>{5}));
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::string errorOf(const Encoding &e, std::vector<int64_t> shape) {
  Expected<LinearLayout> l = toLinearLayout(e, shape);
  return l ? "no error: " + l->str() : l.error().message;
}

TEST(IntelDpas, RejectsBadParameters) {
  auto with = [](const std::function<void(Encoding &)> &edit) {
    Encoding e = *dpas(8, 16, 2, 16);
    edit(e);
    return e;
  };
  std::vector<int64_t> s{8, 16};
  EXPECT_EQ(errorOf(with([](Encoding &e) { e.repeatCount = 3; }), s),
            "intel_dpas: repeatCount must be a power of two in 1..8 (got 3)");
  EXPECT_EQ(errorOf(with([](Encoding &e) { e.repeatCount = 16; }), s),
            "intel_dpas: repeatCount must be a power of two in 1..8 (got 16)");
  EXPECT_EQ(errorOf(with([](Encoding &e) { e.systolicDepth = 4; }), s),
            "intel_dpas: systolicDepth must be 8 (got 4)");
  EXPECT_EQ(errorOf(with([](Encoding &e) { e.opsPerChannel = 3; }), s),
            "intel_dpas: opsPerChannel must be 1, 2 or 4 (got 3)");
  EXPECT_EQ(errorOf(with([](Encoding &e) { e.threadsPerWarp = {64}; }), s),
            "intel_dpas: the sub-group size (threadsPerWarp) must be 8, 16 "
            "or 32 (got 64)");
  EXPECT_EQ(errorOf(with([](Encoding &e) {
                      e.threadsPerWarp = {16, 1};
                    }),
                    s),
            "intel_dpas: threadsPerWarp is the sub-group size, one number "
            "(got 2 entries)");
  EXPECT_EQ(errorOf(with([](Encoding &e) { e.executionSize = 12; }), s),
            "intel_dpas: executionSize must be a power of two in 1..32 (got "
            "12)");
  EXPECT_EQ(errorOf(with([](Encoding &e) { e.executionSize = 64; }), s),
            "intel_dpas: executionSize must be a power of two in 1..32 (got "
            "64)");
  EXPECT_EQ(errorOf(with([](Encoding &e) {
                      e.warpsPerCTA = {3, 1};
                    }),
                    s),
            "intel_dpas: every entry of warpsPerCTA must be a power of two "
            "up to 65536 (got 3)");
  EXPECT_EQ(errorOf(with([](Encoding &e) { e.repCluster = {2}; }), s),
            "intel_dpas: repCluster has 1 entries; expected the tensor's "
            "rank 2");
  EXPECT_EQ(errorOf(with([](Encoding &e) {
                      e.cta = CTALayout::single(2);
                      e.cta.ctasPerCGA = {2, 1};
                    }),
                    s),
            "intel_dpas: a DPAS layout lives in one CTA (CTAsPerCGA must be "
            "all ones)");
  EXPECT_EQ(errorOf(*dpas(8, 16, 2, 16), {16}),
            "intel_dpas: the tensor must be 2-D or 3-D (got rank 1)");
}

TEST(IntelDpas, RejectsSubGroupsThatDoNotFitTheTile) {
  // A with opsPerChan 2 needs 16 lanes across a row; 8 is too few.
  EXPECT_EQ(errorOf(operand(0, dpas(8, 8, 2, 8)), {8, 16}),
            "intel_dpas: operand A needs a sub-group of at least 16 lanes, "
            "one per column group (got 8)");
  // C with executionSize 16 on a sub-group of 8.
  EXPECT_EQ(errorOf(*dpas(8, 16, 2, 8), {8, 16}),
            "intel_dpas: operand C needs a sub-group of at least 16 lanes, "
            "one per column (got 8)");
  // repeatCount 1 with 32 lanes of 16 columns: two rows, the tile has one.
  EXPECT_EQ(errorOf(*dpas(1, 16, 2, 32), {1, 16}),
            "intel_dpas: a sub-group of 32 covers 2 rows of operand C, more "
            "than repeatCount 1");
  // kWidth must be Intel's: opsPerChan / 2 for A, opsPerChan for B.
  EXPECT_EQ(errorOf(operand(0, dpas(8, 16, 2, 16), 2), {8, 16}),
            "dot_operand: operand A of a DPAS layout with opsPerChannel 2 has "
            "kWidth 1 (got 2)");
  EXPECT_EQ(errorOf(operand(1, dpas(8, 16, 4, 16), 2), {32, 16}),
            "dot_operand: operand B of a DPAS layout with opsPerChannel 4 has "
            "kWidth 4 (got 2)");
  EXPECT_EQ(
      errorOf(operand(1, dpas(8, 16, 4, 16), 4), {32, 16}).rfind("no error", 0),
      0u);
}

} // namespace
