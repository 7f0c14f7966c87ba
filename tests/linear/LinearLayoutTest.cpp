//===- LinearLayoutTest.cpp - The linear-layout core, by example ----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Each expected value is derived by hand beside its test (XOR of the bases
/// of the set bits), or comes from Triton's LinearLayoutTest.
///
//===----------------------------------------------------------------------===//

#include "support/LinearTestSupport.h"

#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/linear/Text.h"

#include <gtest/gtest.h>

#include <limits>
#include <unordered_set>

using namespace lk;
using namespace lk::linear;
using namespace lk::linear::dims;
using lk::linear::testing::ok;
using lk::linear::testing::P;

namespace {

const DimId kDim1 = dim(1);

// The first 8x8 quarter of the mma.sync accumulator (file comment of
// LinearLayout.h).
LinearLayout mmaQuarter() {
  return P("{register: [(0,1)], lane: [(0,2), (0,4), (1,0), (2,0), (4,0)]}"
           " -> {dim0: 8, dim1: 8}");
}

TEST(LinearLayout, DimNamesAreInterned) {
  EXPECT_EQ(internDim("register"), kRegister);
  EXPECT_EQ(internDim("dim3"), dim(3));
  DimId a = internDim("my_dim"), b = internDim("my_dim");
  EXPECT_EQ(a, b);
  EXPECT_EQ(dimName(a), "my_dim");
  EXPECT_EQ(dimName(kWarp), "warp");
}

TEST(LinearLayout, ApplyIsXorOfBases) {
  LinearLayout l = mmaQuarter();
  // lane 5 = bits 0 and 2: (0,2) ^ (1,0) = (1,2); with register 1: (1,3).
  EXPECT_EQ(ok(l.apply({1, 5})), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(ok(l.apply({0, 0})), (std::vector<int64_t>{0, 0}));
  // lane 31 = all five lane bits: (0,2)^(0,4)^(1,0)^(2,0)^(4,0) = (7,6).
  EXPECT_EQ(ok(l.apply({0, 31})), (std::vector<int64_t>{7, 6}));
  EXPECT_FALSE(l.apply({2, 0})); // register has size 2
  EXPECT_FALSE(l.apply({0}));    // one value per input dim
  // Flattened: register bit 0, lane bits 1..5; dim0 in bits 0..2, dim1 3..5.
  EXPECT_EQ(l.applyFlat(1 | (5 << 1)), uint64_t(1 | (3 << 3)));
}

TEST(LinearLayout, IdentityAndZeros) {
  LinearLayout id = ok(LinearLayout::identity1D(8, kRegister, dim(0)));
  EXPECT_EQ(id.str(), "{register: [(1), (2), (4)]} -> {dim0: 8}");
  LinearLayout z = ok(LinearLayout::zeros1D(4, kLane, dim(0)));
  EXPECT_EQ(z.str(), "{lane: [(0), (0)]} -> {dim0: 1}");
  EXPECT_EQ(ok(LinearLayout::identity1D(1, kRegister, dim(0))).str(),
            "{register: []} -> {dim0: 1}");
  EXPECT_FALSE(LinearLayout::identity1D(6, kRegister, dim(0)));
  EXPECT_EQ(LinearLayout::empty().str(), "{} -> {}");
}

TEST(LinearLayout, MakeChecksItsInput) {
  EXPECT_TRUE(LinearLayout::make({{kLane, {{1}, {2}}}}, {{dim(0), 4}}));
  Expected<LinearLayout> big =
      LinearLayout::make({{kLane, {{4}}}}, {{dim(0), 4}});
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("outside [0, 4)"), std::string::npos);
  EXPECT_FALSE(LinearLayout::make({{kLane, {{1, 0}}}}, {{dim(0), 4}}));
  EXPECT_FALSE(LinearLayout::make({{kLane, {{1}}}}, {{dim(0), 3}}));
  EXPECT_FALSE(
      LinearLayout::make({{kLane, {{1}}}, {kLane, {{2}}}}, {{dim(0), 4}}));
  // Inferred sizes must give a surjective layout: {1, 4} misses bit 1.
  EXPECT_FALSE(LinearLayout::make({{kLane, {{1}, {4}}}}, {dim(0)}));
  LinearLayout inferred =
      ok(LinearLayout::make({{kLane, {{1}, {2}, {0}}}}, {dim(0)}));
  EXPECT_EQ(inferred.outDimSize(dim(0)), 4);
  // 65 input bits do not fit.
  std::vector<std::vector<int64_t>> many(65, std::vector<int64_t>{0});
  std::vector<InDimBases> ins = {{kRegister, many}};
  std::vector<OutDim> outs = {{dim(0), 1}};
  EXPECT_FALSE(LinearLayout::make(std::span<const InDimBases>(ins),
                                  std::span<const OutDim>(outs)));
}

TEST(LinearLayout, ProductInnerIsMinor) {
  // identity(4) * identity(2) on the same dims is identity(8).
  LinearLayout a = ok(LinearLayout::identity1D(4, kRegister, dim(0)));
  LinearLayout b = ok(LinearLayout::identity1D(2, kRegister, dim(0)));
  EXPECT_EQ(ok(a * b), ok(LinearLayout::identity1D(8, kRegister, dim(0))));
  // Disjoint dims: a direct sum.
  LinearLayout lanes = ok(LinearLayout::identity1D(4, kLane, dim(0)));
  LinearLayout regs = ok(LinearLayout::identity1D(2, kRegister, kDim1));
  EXPECT_EQ(ok(lanes * regs).str(),
            "{lane: [(1,0), (2,0)], register: [(0,1)]} -> {dim0: 4, dim1: 2}");
  // Outer values are shifted above inner's size on a common output dim.
  LinearLayout z = ok(LinearLayout::zeros1D(2, kRegister, dim(0)));
  EXPECT_EQ(ok(z * a).str(), "{register: [(0), (1), (2)]} -> {dim0: 4}");
  // Common dims in different orders are refused.
  LinearLayout ab = ok(lanes * regs);
  LinearLayout ba = ok(regs * lanes);
  EXPECT_FALSE(product(ab, ba));
  // 2^40 x 2^40 outputs: 80 bits, over the 64 a layout holds.
  LinearLayout wide0 =
      ok(LinearLayout::make({{kRegister, {}}}, {{dim(0), int64_t(1) << 40}}));
  LinearLayout wide1 =
      ok(LinearLayout::make({{kLane, {}}}, {{kDim1, int64_t(1) << 40}}));
  Expected<LinearLayout> tooWide = product(wide0, wide1);
  ASSERT_FALSE(tooWide);
  EXPECT_EQ(tooWide.error().message,
            "product: the output dims would have 80 bits; a layout has at "
            "most 64");
}

TEST(LinearLayout, HeaderProductExample) {
  // The worked example of LinearLayout.h: the mma quarter as a product.
  LinearLayout r = ok(LinearLayout::identity1D(2, kRegister, kDim1));
  LinearLayout l1 = ok(LinearLayout::identity1D(4, kLane, kDim1));
  LinearLayout l0 = ok(LinearLayout::identity1D(8, kLane, dim(0)));
  LinearLayout p = ok(ok(r * l1) * l0);
  DimId order[] = {dim(0), kDim1};
  EXPECT_EQ(ok(p.transposeOuts(order)), mmaQuarter());
}

TEST(LinearLayout, ComposeAppliesOuterAfter) {
  // lane -> dim0 identity(4), then dim0 -> dim1 swapping the two bits.
  LinearLayout a = ok(LinearLayout::identity1D(4, kLane, dim(0)));
  LinearLayout swap = P("{dim0: [(2), (1)]} -> {dim1: 4}");
  LinearLayout c = ok(a.compose(swap));
  EXPECT_EQ(c.str(), "{lane: [(2), (1)]} -> {dim1: 4}");
  // Output larger than the outer input dim: refused.
  LinearLayout small = P("{dim0: [(1)]} -> {dim1: 2}");
  EXPECT_FALSE(a.compose(small));
  // Output dims in a different order than the outer input dims.
  LinearLayout l = mmaQuarter();
  LinearLayout t =
      P("{dim1: [(1,0), (2,0), (4,0)], dim0: [(0,1), (0,2), (0,4)]}"
        " -> {x: 8, y: 8}");
  LinearLayout lt = ok(l.compose(t));
  // (1,3) in (dim0, dim1) becomes x = dim1 = 3, y = dim0 = 1.
  EXPECT_EQ(ok(lt.apply({1, 5})), (std::vector<int64_t>{3, 1}));
}

TEST(LinearLayout, InvertAndPseudoinvert) {
  LinearLayout l = mmaQuarter(); // 6 bits -> 6 bits, bijective
  ASSERT_TRUE(l.isInvertible());
  LinearLayout inv = ok(l.invert());
  // Element (1,3) lives in register 1 of lane 5.
  EXPECT_EQ(ok(inv.apply({1, 3})), (std::vector<int64_t>{1, 5}));
  // The pseudoinverse example of the header: dim0=2 -> lane 4, not 6.
  LinearLayout b = P("{lane: [(1), (0), (2)]} -> {dim0: 4}");
  EXPECT_FALSE(b.invert());
  LinearLayout pinv = ok(b.pseudoinvert());
  EXPECT_EQ(pinv.str(), "{dim0: [(1), (4)]} -> {lane: 8}");
  // A duplicate column resolves to the first one: lane bit 2 equals bit 0.
  LinearLayout d = P("{lane: [(1), (2), (1)]} -> {dim0: 4}");
  EXPECT_EQ(ok(d.pseudoinvert()).str(), "{dim0: [(1), (2)]} -> {lane: 8}");
  // Not surjective: no right inverse.
  EXPECT_FALSE(P("{lane: [(1), (0)]} -> {dim0: 4}").pseudoinvert());
}

TEST(LinearLayout, InvertAndComposeMapsSourceToDestination) {
  // A: lane i holds element i; B: lane i holds element i ^ 1 (bases swapped
  // in bit 0 ... here a permutation of bits). C(x) = B^-1(A(x)).
  LinearLayout A = P("{lane: [(1), (2)]} -> {dim0: 4}");
  LinearLayout B = P("{lane: [(2), (1)]} -> {dim0: 4}");
  LinearLayout C = ok(A.invertAndCompose(B));
  EXPECT_EQ(C.str(), "{lane: [(2), (1)]} -> {lane: 4}");
  for (int64_t x = 0; x < 4; ++x)
    EXPECT_EQ(ok(A.apply({x})), ok(B.apply(ok(C.apply({x})))));
}

TEST(LinearLayout, SublayoutAndZeroTest) {
  LinearLayout l = mmaQuarter();
  DimId lane[] = {kLane}, d0[] = {dim(0)}, d1[] = {kDim1};
  EXPECT_EQ(ok(l.sublayout(lane, d0)).str(),
            "{lane: [(0), (0), (1), (2), (4)]} -> {dim0: 8}");
  DimId reg[] = {kRegister};
  EXPECT_TRUE(ok(l.sublayoutIsZero(reg, d0)));
  EXPECT_FALSE(ok(l.sublayoutIsZero(reg, d1)));
  EXPECT_TRUE(ok(l.sublayoutIsZero({}, d1))); // no bases at all
  // A dim the layout lacks fails (it does not count as zero), naming the
  // dims it has.
  DimId missing[] = {kWarp};
  EXPECT_FALSE(l.sublayout(missing, d0));
  Expected<bool> z = l.sublayoutIsZero(missing, d0);
  ASSERT_FALSE(z);
  EXPECT_EQ(z.error().message, "sublayout_is_zero: the layout has no in-dim "
                               "'warp' (its in-dims: register, lane)");
  z = l.sublayoutIsZero(reg, missing);
  ASSERT_FALSE(z);
  EXPECT_EQ(z.error().message, "sublayout_is_zero: the layout has no out-dim "
                               "'warp' (its out-dims: dim0, dim1)");
}

TEST(LinearLayout, DimReshaping) {
  LinearLayout l = mmaQuarter();
  DimId ins[] = {kLane, kRegister};
  EXPECT_EQ(ok(l.transposeIns(ins)).str(),
            "{lane: [(0,2), (0,4), (1,0), (2,0), (4,0)], register: [(0,1)]}"
            " -> {dim0: 8, dim1: 8}");
  DimId outs[] = {kDim1, dim(0)};
  LinearLayout t = ok(l.transposeOuts(outs));
  EXPECT_EQ(t.str(),
            "{register: [(1,0)], lane: [(2,0), (4,0), (0,1), (0,2), (0,4)]}"
            " -> {dim1: 8, dim0: 8}");
  // A transpose names each dim once: a dim the layout lacks is named with
  // the dims it has, a repeat and a short list are refused.
  DimId unknown[] = {kLane, kWarp};
  EXPECT_EQ(l.transposeIns(unknown).error().message,
            "transpose_ins: the layout has no in-dim 'warp' (its in-dims: "
            "register, lane)");
  DimId twice[] = {kDim1, kDim1};
  EXPECT_EQ(l.transposeOuts(twice).error().message,
            "transpose_outs: out-dim 'dim1' is given twice");
  EXPECT_EQ(l.transposeIns(std::span(ins, 1)).error().message,
            "transpose_ins: expected 2 in-dims, got 1");
  // Flattening the outputs: dim0 in bits 0..2, dim1 in bits 3..5.
  EXPECT_EQ(
      l.flattenOuts().str(),
      "{register: [(8)], lane: [(16), (32), (1), (2), (4)]} -> {dim0: 64}");
  EXPECT_EQ(l.flattenIns().str(),
            "{register: [(0,1), (0,2), (0,4), (1,0), (2,0), (4,0)]}"
            " -> {dim0: 8, dim1: 8}");
  OutDim newIns[] = {{kRegister, 4}, {kLane, 16}};
  EXPECT_EQ(ok(l.reshapeIns(newIns)).str(),
            "{register: [(0,1), (0,2)], lane: [(0,4), (1,0), (2,0), (4,0)]}"
            " -> {dim0: 8, dim1: 8}");
  OutDim wrong[] = {{kRegister, 4}};
  EXPECT_FALSE(l.reshapeIns(wrong));
  OutDim newOuts[] = {{dim(0), 64}};
  EXPECT_EQ(ok(l.reshapeOuts(newOuts)), l.flattenOuts());
  // squeeze drops size-1 dims.
  LinearLayout s = P("{register: [], lane: [(1,0)]} -> {dim0: 2, dim1: 1}");
  EXPECT_EQ(s.squeeze().str(), "{lane: [(1)]} -> {dim0: 2}");
  // concat.
  LinearLayout w = P("{warp: [(4)]} -> {dim0: 8}");
  LinearLayout r = P("{lane: [(1), (2)]} -> {dim0: 8}");
  EXPECT_EQ(ok(r.concatIns(w)).str(),
            "{lane: [(1), (2)], warp: [(4)]} -> {dim0: 8}");
  LinearLayout r2 = P("{lane: [(0), (1)]} -> {dim1: 2}");
  EXPECT_EQ(ok(r.concatOuts(r2)).str(),
            "{lane: [(1,0), (2,1)]} -> {dim0: 8, dim1: 2}");
  // rename, resize.
  EXPECT_EQ(ok(r.renameIn(kLane, kWarp)).str(),
            "{warp: [(1), (2)]} -> {dim0: 8}");
  EXPECT_EQ(ok(r.renameOut(dim(0), kDim1)).str(),
            "{lane: [(1), (2)]} -> {dim1: 8}");
  EXPECT_EQ(ok(r.resize(kLane, 16)).str(),
            "{lane: [(1), (2), (0), (0)]} -> {dim0: 8}");
  EXPECT_FALSE(r.resize(kLane, 2));
  EXPECT_EQ(ok(r.resizeOut(dim(0), 4)).str(),
            "{lane: [(1), (2)]} -> {dim0: 4}");
  EXPECT_FALSE(r.resizeOut(dim(0), 2));
}

TEST(LinearLayout, FreeVariablesAndBroadcast) {
  // lane bits 1 and 3 duplicate data: bit 1 is zero, bit 3 equals bit 0.
  LinearLayout l =
      P("{register: [(4)], lane: [(1), (0), (2), (1)]} -> {dim0: 8}");
  auto masks = l.freeVariableMasks();
  EXPECT_EQ(masks[0], 0u);
  EXPECT_EQ(masks[1], 0b1010u);
  auto zeros = l.zeroColumnMasks();
  EXPECT_EQ(zeros[1], 0b0010u);
  EXPECT_EQ(l.rank(), 3);
  EXPECT_FALSE(l.isInjective());
  EXPECT_TRUE(l.isSurjective());
  EXPECT_FALSE(l.isInvertible());
}

TEST(LinearLayout, EqualityAndHash) {
  LinearLayout a = mmaQuarter(), b = mmaQuarter();
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  LinearLayout c = ok(a.resizeOut(dim(0), 16));
  EXPECT_NE(a, c); // same bases, other sizes
  std::unordered_set<LinearLayout> set = {a, b, c};
  EXPECT_EQ(set.size(), 2u);
}

TEST(LinearLayout, ReadableForm) {
  LinearLayout l =
      P("{register: [(0,1)], lane: [], warp: [(1,0)]} -> {dim0: 2, dim1: 2}");
  EXPECT_EQ(l.toString(), " - register=1 -> (0, 1)\n"
                          " - lane is a size 1 dimension\n"
                          " - warp=1 -> (1, 0)\n"
                          "where out dims are: [dim0 (size 2), dim1 (size 2)]");
  EXPECT_EQ(LinearLayout().toString(), "(empty layout)");
}

TEST(LinearLayout, DivideLeftAndRight) {
  // A = B * C with B = identity(4) on register, C = lane identity(8).
  LinearLayout B = ok(LinearLayout::identity1D(4, kRegister, dim(0)));
  LinearLayout C = P("{register: [(1)], lane: [(2), (4)]} -> {dim0: 8}");
  LinearLayout A = ok(B * C);
  EXPECT_EQ(A.str(),
            "{register: [(1), (2), (4)], lane: [(8), (16)]} -> {dim0: 32}");
  EXPECT_EQ(ok(divideLeft(A, B)), C);
  LinearLayout Bq = ok(divideRight(A, C));
  EXPECT_EQ(ok(Bq * C), A);
  // Not a left factor: register bases (2, 1) instead of (1, 2).
  LinearLayout A2 =
      P("{register: [(2), (1), (4)], lane: [(8), (16)]} -> {dim0: 32}");
  EXPECT_FALSE(divideLeft(A2, B));
  // ... but a permutation of the registers makes it one.
  PermutedQuotient pq = ok(divideLeftWithPermutation(A2, B));
  EXPECT_EQ(pq.perm, (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(pq.quotient, C);
}

// applyFlat drops input bits above the layout's; applyFlatChecked, what a
// front end calls, reports them. 4 input bits: 15 is the last input, 16 is
// outside (applyFlat(16) == applyFlat(0) == 0).
TEST(LinearLayout, ApplyFlatCheckedRefusesInputsPastTheSize) {
  LinearLayout l = P("{register: [(1), (2)], lane: [(4), (8)]} -> {dim0: 16}");
  EXPECT_EQ(ok(l.applyFlatChecked(15)), 15u);
  EXPECT_EQ(l.applyFlat(16), 0u);
  auto e = l.applyFlatChecked(16);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "flat input 16 is outside [0, 16), the layout's 4 input bits");
  EXPECT_FALSE(l.applyFlatChecked(~uint64_t(0)));
  // 64 input bits (two dims of 32) take every uint64_t.
  std::vector<uint64_t> cols;
  for (int i = 0; i < 64; ++i)
    cols.push_back(uint64_t(1) << i);
  DimSize in[] = {{kRegister, 32}, {kLane, 32}};
  DimSize out[] = {{dim(0), 32}, {dim(1), 32}};
  LinearLayout full = ok(LinearLayout::fromColumns(in, out, cols));
  EXPECT_EQ(ok(full.applyFlatChecked(~uint64_t(0))), ~uint64_t(0));
}

} // namespace

// Names that do not come from the parser (the bindings') must be names the
// text form reads back, or the layout's text would not parse.
TEST(LinearLayout, DimNamedTakesTheTextFormsNamesOnly) {
  EXPECT_EQ(ok(dimNamed("lane")), kLane);
  EXPECT_EQ(ok(dimNamed("_x9")), internDim("_x9"));
  for (std::string bad : {"", "re g", "d}m", "9a", "l\xc3\xa4ne", "a-b"}) {
    Expected<DimId> d = dimNamed(bad);
    ASSERT_FALSE(d) << bad;
    EXPECT_EQ(d.error().message,
              "dim name '" + bad +
                  "' is not a name of the text form ([A-Za-z_][A-Za-z0-9_]*)");
  }
}

// A dim looked up by a user's name: its index, or an error listing the
// dims there are.
TEST(LinearLayout, FindDimNamesTheDimsThereAre) {
  LinearLayout l = ok(ok(LinearLayout::identity1D(4, kRegister, dim(0))) *
                      ok(LinearLayout::identity1D(2, kLane, dim(1))));
  EXPECT_EQ(ok(l.findInDim("lane")), 1);
  EXPECT_EQ(ok(l.findOutDim("dim0")), 0);
  Expected<int> in = l.findInDim("warp");
  ASSERT_FALSE(in);
  EXPECT_EQ(in.error().message,
            "the layout has no in-dim 'warp' (its in-dims: register, lane)");
  Expected<int> out = LinearLayout::empty().findOutDim("dim0");
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().message,
            "the layout has no out-dim 'dim0' (its out-dims: none)");
  EXPECT_TRUE(l.hasInDimNamed("lane") && l.hasOutDimNamed("dim1"));
  EXPECT_FALSE(l.hasInDimNamed("dim0") || l.hasOutDimNamed("l\xC3\xA4ne"));
}

// totalInSize / totalOutSize are 2^bits up to 62 bits and saturate at
// INT64_MAX at 63 and 64 bits, where 2^bits does not fit an int64_t
// (2^63 = INT64_MAX + 1); the bit counts stay exact. One dim has at most
// 62 bits, so every dim size is exact.
TEST(LinearLayout, SizesSaturateAt63And64Bits) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  auto identity = [](int regBits, int laneBits) {
    // register bit j -> dim0 bit j, lane bit j -> dim1 bit j.
    std::vector<uint64_t> cols;
    for (int j = 0; j < regBits + laneBits; ++j)
      cols.push_back(uint64_t(1) << j);
    DimSize ins[] = {{kRegister, regBits}, {kLane, laneBits}};
    DimSize outs[] = {{dim(0), regBits}, {dim(1), laneBits}};
    return ok(LinearLayout::fromColumns(ins, outs, cols));
  };
  LinearLayout l62 = identity(31, 31);
  EXPECT_EQ(l62.totalInSize(), int64_t(1) << 62);
  EXPECT_EQ(l62.totalOutSize(), int64_t(4611686018427387904));
  LinearLayout l63 = identity(32, 31);
  EXPECT_EQ(l63.totalInBits(), 63);
  EXPECT_EQ(l63.totalInSize(), kMax);
  EXPECT_EQ(l63.totalOutSize(), kMax);
  EXPECT_EQ(l63.outDimSize(dim(0)), int64_t(1) << 32);
  EXPECT_EQ(l63.inDimSize(kLane), int64_t(1) << 31);
  LinearLayout l64 = identity(32, 32);
  EXPECT_EQ(l64.totalInBits(), 64);
  EXPECT_EQ(l64.totalOutBits(), 64);
  EXPECT_EQ(l64.totalInSize(), kMax);
  EXPECT_EQ(l64.totalOutSize(), kMax);
  // The largest input of the 64-bit identity maps to itself.
  EXPECT_EQ(l64.applyFlat(~uint64_t(0)), ~uint64_t(0));
  EXPECT_EQ(pow2Saturated(0), 1);
  EXPECT_EQ(pow2Saturated(62), int64_t(1) << 62);
  EXPECT_EQ(pow2Saturated(63), kMax);
}

// One dim of 63 bits would have a size 2^63 that no int64_t holds (it
// printed as -2^63): every way of building one refuses it, naming the dim.
TEST(LinearLayout, OneDimHasAtMost62Bits) {
  std::vector<uint64_t> cols;
  for (int j = 0; j < 63; ++j)
    cols.push_back(uint64_t(1) << j);
  DimSize in63[] = {{kRegister, 63}}, out63[] = {{dim(0), 63}};
  DimSize in62[] = {{kRegister, 62}}, out62[] = {{dim(0), 62}};
  for (auto [ins, outs] : {std::pair{in63, out63}, std::pair{in62, out63},
                           std::pair{in63, out62}}) {
    Expected<LinearLayout> l = LinearLayout::fromColumns(
        std::span<const DimSize>(ins, 1), std::span<const DimSize>(outs, 1),
        std::span(cols).first(size_t(ins[0].log2)));
    ASSERT_FALSE(l);
    EXPECT_NE(l.error().message.find("would have 63 bits; one dim has at "
                                     "most 2^62 values"),
              std::string::npos)
        << l.error().message;
  }
  cols.pop_back();
  LinearLayout l62 = ok(LinearLayout::fromColumns(in62, out62, cols));
  EXPECT_EQ(l62.outDimSize(dim(0)), int64_t(1) << 62);
  // The product of 2^62 registers by 2 lanes on one dim: 63 bits.
  LinearLayout a =
      ok(LinearLayout::identity1D(int64_t(1) << 62, kRegister, dim(0)));
  LinearLayout b = ok(LinearLayout::identity1D(2, kLane, dim(0)));
  Expected<LinearLayout> p = product(a, b);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("output dim 'dim0' would have 63 bits"),
            std::string::npos)
      << p.error().message;
  // Bases whose out-dim sizes are inferred: a value of 2^62 needs a dim of
  // 2^63 values; the basis, both dims and the rule are named.
  const DimId outNames[] = {dim(0), dim(1)};
  InDimBases big{kRegister, {{1, 0}, {0, int64_t(1) << 62}}};
  Expected<LinearLayout> inferred =
      LinearLayout::make(std::span(&big, 1), std::span(outNames));
  ASSERT_FALSE(inferred);
  EXPECT_EQ(inferred.error().message,
            "basis 1 of input dim 'register': value 4611686018427387904 on "
            "output dim 'dim1' is at least 2^62, and one dim has at most "
            "2^62 values");
  InDimBases neg{kRegister, {{-1, 0}}};
  EXPECT_EQ(LinearLayout::make(std::span(&neg, 1), std::span(outNames))
                .error()
                .message,
            "basis 0 of input dim 'register': value -1 on output dim 'dim0' "
            "is negative");
}
