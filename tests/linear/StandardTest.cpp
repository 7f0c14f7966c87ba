//===- StandardTest.cpp - Triton's standard layouts -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// The full set of transcribed Triton expectations runs as ctest
/// conformance.linear-public; these tests pin a few of them in C++, the
/// layouts the oracle does not cover (derived by hand from the hardware
/// description beside each test), and family membership of random ones.
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/Analysis.h"
#include "layoutkit/linear/Standard.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::linear;
using lk::linear::testing::ok;
using lk::linear::testing::Random;

namespace {

LinearLayout blocked(std::vector<unsigned> spt, std::vector<unsigned> tpw,
                     std::vector<unsigned> wpc, std::vector<unsigned> order,
                     std::vector<int64_t> shape) {
  return ok(blockedLayout(spt, tpw, wpc, order, shape));
}

std::shared_ptr<const Encoding> mmaV2(std::vector<unsigned> warps) {
  auto e = std::make_shared<Encoding>();
  e->kind = EncodingKind::NvidiaMma;
  e->versionMajor = 2;
  e->instrShape = {16, 8};
  e->warpsPerCTA = warps;
  return e;
}

TEST(Standard, BlockedRepeatsAndBroadcasts) {
  // Oracle ReplicateInRegisterDim: an 8-element tile on 32 elements.
  EXPECT_EQ(
      blocked({2}, {4}, {1}, {0}, {32}).str(),
      "{register: [(1), (8), (16)], lane: [(2), (4)], warp: [], block: []}"
      " -> {dim0: 32}");
  // Oracle ShapeSmallerThanLayout: a 64-element tile on 8 elements; the
  // largest bases (warps, then lane 8) are zeroed.
  LinearLayout small = blocked({4}, {4}, {4}, {0}, {8});
  EXPECT_EQ(small.str(), "{register: [(1), (2)], lane: [(4), (0)], "
                         "warp: [(0), (0)], block: []} -> {dim0: 8}");
  EXPECT_TRUE(isDistributed(small));
}

TEST(Standard, MmaV2Accumulator) {
  unsigned instr[] = {16, 8}, warps[] = {1, 1};
  int64_t shape[] = {16, 16};
  // Oracle MMAv2_16x16.
  EXPECT_EQ(ok(nvidiaMmaLayout(2, instr, warps, shape)).str(),
            "{register: [(0,1), (8,0), (0,8)], lane: [(0,2), (0,4), (1,0), "
            "(2,0), (4,0)], warp: [], block: []} -> {dim0: 16, dim1: 16}");
  unsigned bad[] = {16};
  EXPECT_FALSE(nvidiaMmaLayout(2, bad, warps, shape));
  EXPECT_FALSE(nvidiaMmaLayout(4, instr, warps, shape));
}

TEST(Standard, AmdMfmaAccumulator) {
  // mfma 32x32: each of 64 lanes holds 16 elements of one column: 4
  // consecutive rows, then a gap of 4 rows (the other half of the lanes).
  Encoding e;
  e.kind = EncodingKind::AmdMfma;
  e.mDim = e.nDim = 32;
  e.warpsPerCTA = {1, 1};
  int64_t shape[] = {32, 32};
  EXPECT_EQ(ok(toLinearLayout(e, shape)).str(),
            "{register: [(1,0), (2,0), (8,0), (16,0)], lane: [(0,1), (0,2), "
            "(0,4), (0,8), (0,16), (4,0)], warp: [], block: []}"
            " -> {dim0: 32, dim1: 32}");
}

TEST(Standard, SliceAndDotOperands) {
  Encoding dot;
  dot.kind = EncodingKind::DotOperand;
  dot.opIdx = 0;
  dot.kWidth = 8;
  dot.parent = mmaV2({1, 1});
  Encoding slice;
  slice.kind = EncodingKind::Slice;
  slice.dim = 1;
  slice.parent = std::make_shared<Encoding>(dot);
  int64_t shape[] = {16};
  // Oracle SliceDot.
  EXPECT_EQ(ok(toLinearLayout(slice, shape)).str(),
            "{register: [(8)], lane: [(0), (0), (1), (2), (4)], warp: [], "
            "block: []} -> {dim0: 16}");
  dot.opIdx = 1;
  dot.parent = std::make_shared<Encoding>([] {
    Encoding e = *mmaV2({1, 1});
    e.versionMajor = 3;
    e.instrShape = {16, 16, 8};
    return e;
  }());
  int64_t shape2[] = {64, 64};
  EXPECT_FALSE(toLinearLayout(dot, shape2)); // wgmma B comes from shared memory
}

// Triton never splits a dot operand across CTAs along K. Parent: mma v2,
// 4x1 warps, two CTAs splitting M (dim0): CTAsPerCGA = CTASplitNum =
// [2, 1]. A (64x16, K = dim1) keeps the M split: block 1 holds rows 32..63,
// basis (32, 0). B (64x128, K = dim0): the parent's M split falls on B's
// K, so it is dropped and block 1 holds a copy: basis (0, 0). The CGA
// form (block basis [1, 0]: one CTA tile along dim0) gives the same.
TEST(Standard, DotOperandsAreNotSplitAlongK) {
  auto mma = std::make_shared<Encoding>(*mmaV2({4, 1}));
  mma->cta.ctasPerCGA = {2, 1};
  mma->cta.ctaSplitNum = {2, 1};
  mma->cta.ctaOrder = {1, 0};
  Encoding dot;
  dot.kind = EncodingKind::DotOperand;
  dot.kWidth = 2;
  dot.parent = mma;
  auto blockBasis = [&](int opIdx, std::vector<int64_t> shape) {
    dot.opIdx = opIdx;
    LinearLayout l = ok(toLinearLayout(dot, shape));
    return std::pair{l.basis(dims::kBlock, 0, dims::dim(0)),
                     l.basis(dims::kBlock, 0, dims::dim(1))};
  };
  EXPECT_EQ(blockBasis(0, {64, 16}), (std::pair<int64_t, int64_t>{32, 0}));
  EXPECT_EQ(blockBasis(1, {64, 128}), (std::pair<int64_t, int64_t>{0, 0}));
  mma->cta = CTALayout{};
  mma->cta.blockBases = std::vector<std::vector<int64_t>>{{1, 0}};
  EXPECT_EQ(blockBasis(0, {64, 16}), (std::pair<int64_t, int64_t>{32, 0}));
  EXPECT_EQ(blockBasis(1, {64, 128}), (std::pair<int64_t, int64_t>{0, 0}));
}

// A slice of a blocked layout wider than the tensor keeps the parent's
// registers per thread, as zero bases (Triton's SliceWithShape1). Parent
// blocked sizePerThread [1,4], threadsPerWarp [8,4], warpsPerCTA [2,2],
// order [1,0], sliced along dim 0 for shape [1]: the parent shape is [1,1];
// along dim 1 a thread holds ceil(1 / (4*4*2)) * 4 = 4 registers (2 bases),
// all of them on the one element: [(0), (0)]. Along dim 0 (sliced away)
// sizePerThread is 1, so nothing else is added. Slicing along dim 1 (where
// the 4 registers lie) keeps ceil(1 / (1*8*2)) * 1 = 1 register: none.
TEST(Standard, SliceOfWiderBlockedKeepsZeroRegisters) {
  auto parent = std::make_shared<Encoding>();
  parent->kind = EncodingKind::Blocked;
  parent->sizePerThread = {1, 4};
  parent->threadsPerWarp = {8, 4};
  parent->warpsPerCTA = {2, 2};
  parent->order = {1, 0};
  Encoding slice;
  slice.kind = EncodingKind::Slice;
  slice.dim = 0;
  slice.parent = parent;
  int64_t one[] = {1};
  EXPECT_EQ(ok(toLinearLayout(slice, one)).str(),
            "{register: [(0), (0)], lane: [(0), (0), (0), (0), (0)], "
            "warp: [(0), (0)], block: []} -> {dim0: 1}");
  slice.dim = 1;
  EXPECT_EQ(ok(toLinearLayout(slice, one)).str(),
            "{register: [], lane: [(0), (0), (0), (0), (0)], "
            "warp: [(0), (0)], block: []} -> {dim0: 1}");
  // A tensor the parent covers: registers as before, none added. Order
  // [1,0] walks dim 1 first: registers (1), (2); lanes (4), (8) then the
  // three dim-0 lane bits, now 0; warps (16) then the dim-0 one.
  slice.dim = 0;
  int64_t wide[] = {32};
  EXPECT_EQ(ok(toLinearLayout(slice, wide)).str(),
            "{register: [(1), (2)], lane: [(4), (8), (0), (0), (0)], "
            "warp: [(16), (0)], block: []} -> {dim0: 32}");
}

// ensureLayoutNotLargerThan works with out-dim sizes as int64: a 63-bit
// out-dim (2^63 elements, not an int64) is reported; it used to read as a
// negative size and then loop forever doubling the recomputed size.
TEST(Standard, EnsureNotLargerThanTakesA62BitOutDim) {
  // A 63-bit out dim (2^63 elements, no int64 size) cannot be built.
  std::vector<uint64_t> cols;
  for (int i = 0; i < 63; ++i)
    cols.push_back(uint64_t(1) << i);
  DimSize in{dims::kRegister, 63}, out{dims::dim(0), 63};
  EXPECT_FALSE(
      LinearLayout::fromColumns(std::span(&in, 1), std::span(&out, 1), cols));
  // 62 bits fit: fitting to 2^61 zeroes the top basis.
  cols.pop_back();
  in.log2 = out.log2 = 62;
  LinearLayout l62 = ok(
      LinearLayout::fromColumns(std::span(&in, 1), std::span(&out, 1), cols));
  int64_t half[] = {int64_t(1) << 61};
  EXPECT_EQ(ok(ensureLayoutNotLargerThan(l62, half)).outDimSize(dims::dim(0)),
            int64_t(1) << 61);
}

TEST(Standard, SharedLayoutsAreMemoryLayouts) {
  Encoding sw;
  sw.kind = EncodingKind::SwizzledShared;
  sw.vec = 2;
  sw.perPhase = 1;
  sw.maxPhase = 4;
  sw.order = {1, 0};
  int64_t shape[] = {4, 8};
  // Oracle SharedSwizzled2D_Vec.
  LinearLayout l = ok(toLinearLayout(sw, shape));
  EXPECT_EQ(l.str(), "{offset: [(0,1), (0,2), (0,4), (1,2), (2,4)], block: []}"
                     " -> {dim0: 4, dim1: 8}");
  EXPECT_TRUE(isMemory(l));
  EXPECT_FALSE(isDistributed(l));
  Encoding nv;
  nv.kind = EncodingKind::NvmmaShared;
  nv.elementBitWidth = 16;
  for (int bytes : {32, 64, 128}) {
    nv.swizzleSizeInBytes = bytes;
    int64_t s[] = {64, 64};
    LinearLayout m = ok(toLinearLayout(nv, s));
    EXPECT_TRUE(isMemory(m)) << m.str();
    // Row 1 of the 128-byte swizzle XORs 8 elements (16 bytes) into the column.
    if (bytes == 128) {
      EXPECT_EQ(m.basis(dims::kOffset, 6, dims::dim(0)), 1);
      EXPECT_EQ(m.basis(dims::kOffset, 6, dims::dim(1)), 8);
    }
  }
  nv.swizzleSizeInBytes = 48;
  int64_t s[] = {64, 64};
  EXPECT_FALSE(toLinearLayout(nv, s));
}

TEST(Standard, LdmatrixAndStmatrix) {
  // ldmatrix.x4 for operand A (fp16) of a 16x16 tile: lanes 0-7 give the
  // rows of the first 8x8 matrix, lanes 8-15 rows 8-15, lanes 16-31 the
  // right half (k 8-15); each thread receives 8 consecutive k (4 registers
  // of two halves).
  Encoding dot;
  dot.kind = EncodingKind::DotOperand;
  dot.opIdx = 0;
  dot.kWidth = 8;
  dot.parent = mmaV2({1, 1});
  int64_t shape[] = {16, 16};
  EXPECT_EQ(ok(ldmatrixLayout(dot, shape, false, 16)).str(),
            "{register: [(0,1), (0,2), (0,4)], lane: [(1,0), (2,0), (4,0), "
            "(8,0), (0,8)], warp: [], block: []} -> {dim0: 16, dim1: 16}");
  // With .trans the roles of rows and k swap.
  EXPECT_EQ(ok(ldmatrixLayout(dot, shape, true, 16)).str(),
            "{register: [(1,0), (2,0), (4,0)], lane: [(0,1), (0,2), (0,4), "
            "(8,0), (0,8)], warp: [], block: []} -> {dim0: 16, dim1: 16}");
  EXPECT_FALSE(ldmatrixLayout(dot, shape, true, 32));
  // stmatrix without swizzling of an mma v3 accumulator (instr N = 64, 4
  // warps along M) on 64x64: registers 0-2 run along a row (8 consecutive
  // fp16), lanes 0-7 pick rows, lane bit 4 the next 8 columns.
  Encoding mma;
  mma.kind = EncodingKind::NvidiaMma;
  mma.versionMajor = 3;
  mma.instrShape = {16, 64, 16};
  mma.warpsPerCTA = {4, 1};
  int64_t s2[] = {64, 64};
  LinearLayout st = ok(stmatrixLayout(mma, s2, 0));
  EXPECT_EQ(dimName(st.outDim(0).id), "offset");
  EXPECT_EQ(st.outDimSize(dims::kOffset), 64 * 64);
  EXPECT_TRUE(st.isInjective());
  EXPECT_EQ(st.basis(dims::kRegister, 0, dims::kOffset), 1);
  EXPECT_EQ(st.basis(dims::kLane, 0, dims::kOffset), 64); // next row
  LinearLayout sw = ok(stmatrixLayout(mma, s2, 128));
  EXPECT_TRUE(sw.isInjective());
  EXPECT_FALSE(stmatrixLayout(mma, s2, 48));
  // v3's instrShape is [m, n, k]: two or four values are refused.
  for (std::vector<unsigned> bad :
       {std::vector<unsigned>{16, 64}, std::vector<unsigned>{16, 64, 16, 4}}) {
    mma.instrShape = bad;
    Expected<LinearLayout> l = toLinearLayout(mma, s2);
    ASSERT_FALSE(l);
    EXPECT_EQ(l.error().message.rfind("nvidia_mma v3: instrShape is [m, n, k] "
                                      "(got " +
                                          std::to_string(bad.size()) +
                                          " values)",
                                      0),
              0u)
        << l.error().message;
  }
}

TEST(Standard, ShmemForRegToReg) {
  Encoding e;
  e.kind = EncodingKind::ShmemForRegToReg;
  e.tensorShape = {64, 32};
  e.repShape = {16, 32};
  e.order = {1, 0};
  int64_t none[] = {64, 32};
  LinearLayout l = ok(toLinearLayout(e, none));
  // offsets: dim1 (32) then dim0 (16); iterations: dim0 x4.
  // Triton keeps the output dims in `order` (dim1 first).
  EXPECT_EQ(l.str(), "{offset: [(1,0), (2,0), (4,0), (8,0), (16,0), (0,1), "
                     "(0,2), (0,4), (0,8)], iteration: [(0,16), (0,32)], "
                     "block: []} -> {dim1: 32, dim0: 64}");
}

TEST(Standard, RandomBlockedLayoutsAreDistributed) {
  Random r(11);
  for (int t = 0; t < 300; ++t) {
    size_t rank = size_t(r.uniform(1, 3));
    std::vector<unsigned> spt, tpw, wpc, order(rank);
    std::vector<int64_t> shape;
    unsigned lanes = 32, warps = unsigned(1) << r.uniform(0, 3);
    for (size_t d = 0; d < rank; ++d) {
      spt.push_back(unsigned(1) << r.uniform(0, 2));
      unsigned tl =
          d + 1 == rank
              ? lanes
              : unsigned(1)
                    << r.uniform(0, std::min<int64_t>(3, __builtin_ctz(lanes)));
      lanes /= tl;
      tpw.push_back(tl);
      unsigned tw = d + 1 == rank
                        ? warps
                        : unsigned(1) << r.uniform(0, __builtin_ctz(warps));
      warps /= tw;
      wpc.push_back(tw);
      shape.push_back(int64_t(1) << r.uniform(0, 7));
      order[d] = unsigned(d);
    }
    std::shuffle(order.begin(), order.end(), r.rng());
    LinearLayout l = ok(blockedLayout(spt, tpw, wpc, order, shape));
    EXPECT_TRUE(isDistributed(l)) << l.str();
    EXPECT_TRUE(l.isSurjective()) << l.str();
    for (size_t d = 0; d < rank; ++d)
      EXPECT_EQ(l.outDimSize(dims::dim(int(d))), shape[d]);
    EXPECT_EQ(l.inDimSize(dims::kLane), 32);
  }
}

} // namespace

// A layout of rank 2 over a shape of rank 3: the diagnostic names both
// ranks (the order's length is the layout's rank), not only the order. The
// layout's fields agree on rank 2, so the fault is the shape's; a field of
// another length than the order is the field's.
TEST(Standard, RankMismatchNamesBothRanks) {
  const unsigned spt[] = {1, 4}, tpw[] = {8, 4}, wpc[] = {4, 1},
                 order[] = {1, 0};
  const int64_t shape[] = {64, 32, 2};
  Expected<LinearLayout> l = blockedLayout(spt, tpw, wpc, order, shape);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message,
            "the layout has rank 2 (order has 2 entries) but the tensor shape "
            "has 3 dims");
  EXPECT_EQ(l.error().parameter, "shape");
  const unsigned wpc3[] = {4, 1, 1};
  Expected<LinearLayout> f = blockedLayout(spt, tpw, wpc3, order, shape);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().message,
            "blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order "
            "must have one length (the rank)");
  EXPECT_EQ(f.error().parameter, "warpsPerCTA");
}
