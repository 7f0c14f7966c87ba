//===- PaddedBridgeTest.cpp - Cute and tile layouts of any shape, padded --===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Every expected layout, step and mask below is derived by hand in the
/// comment beside it, from the rules of PaddedBridge.h. A final property
/// checks, on every valid coordinate of each exact case, that the padded
/// layout puts the element where the original did.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/bridge/PaddedBridge.h"

#include "layoutkit/cute/Algebra.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/tile/TilePresets.h"
#include "layoutkit/tile/TileText.h"

#include <gtest/gtest.h>

using namespace lk;
using namespace lk::bridge;
using lk::linear::LinearLayout;

namespace {

template <class T> T ok(Expected<T> e) {
  EXPECT_TRUE(bool(e)) << (e ? "" : e.error().message);
  return e ? std::move(*e) : T{};
}

LinearLayout P(std::string_view text) {
  return ok(linear::parseLinearLayout(text));
}

std::vector<std::string> stepTexts(const PaddedConversion &pc) {
  std::vector<std::string> s;
  for (const PadStep &p : pc.steps)
    s.push_back(p.str());
  return s;
}

std::vector<int64_t> range(int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t i = lo; i < hi; ++i)
    v.push_back(i);
  return v;
}

// (4,3):(1,4): mode 1's only leaf 3:4 is padded to 4:4. Columns 1, 2 (mode
// 0) and 4, 8 (mode 1) are disjoint, so extents alone suffice (exact). The
// inverse sends offset bit k to (2^k, 0) for k < 2 and (0, 2^(k-2)) above.
// Element (i, j) is valid iff j < 3: offsets 12..15 (j = 3) are masked.
TEST(PaddedBridge, Cute4x3) {
  PaddedConversion pc = ok(cuteToPadded(ok(cute::parseLayout("(4,3):(1,4)"))));
  EXPECT_TRUE(pc.exact);
  EXPECT_EQ(pc.paddedText, "(4,4):(1,4)");
  EXPECT_EQ(stepTexts(pc),
            (std::vector<std::string>{"dim 1: extent 3 -> 4",
                                      "leaf 1 (3:4): extent 3 -> 4"}));
  EXPECT_EQ(pc.layout.layout(),
            P("{offset: [(1,0), (2,0), (0,1), (0,2)]} -> {dim0: 4, dim1: 4}"));
  linear::Waste w = ok(pc.layout.waste());
  EXPECT_EQ(w.paddedElements, 4);
  EXPECT_EQ(w.masked[0].values, range(12, 16));
}

// A 3-stage ring of 64 elements, (64,3):(1,64): exact; offsets 192..255
// (stage 3) masked, 64 of 256 elements (25%).
TEST(PaddedBridge, CuteThreeStageRing) {
  PaddedConversion pc =
      ok(cuteToPadded(ok(cute::parseLayout("(64,3):(1,64)"))));
  EXPECT_TRUE(pc.exact);
  EXPECT_EQ(pc.paddedText, "(64,4):(1,64)");
  linear::Waste w = ok(pc.layout.waste());
  EXPECT_EQ(w.elements, 256);
  EXPECT_EQ(w.paddedElements, 64);
  EXPECT_EQ(w.masked[0].values, range(192, 256));
  EXPECT_DOUBLE_EQ(w.fraction, 0.25);
}

// (3,4):(1,3): padding leaf 0 to 4:1 gives columns 1, 2 and 3, 6 (carry),
// so the walk restrides: sorted strides 1 (e 3 -> 4), 3 (e 4); 3 = 1 * (1*3)
// so the new stride is 1 * (1*4) = 4. Padded (4,4):(1,4), the identity;
// element (i, j) valid iff i < 3, so offsets 4j + 3 are masked.
TEST(PaddedBridge, CuteRestride) {
  PaddedConversion pc = ok(cuteToPadded(ok(cute::parseLayout("(3,4):(1,3)"))));
  EXPECT_FALSE(pc.exact);
  EXPECT_EQ(pc.paddedText, "(4,4):(1,4)");
  EXPECT_EQ(stepTexts(pc),
            (std::vector<std::string>{"dim 0: extent 3 -> 4",
                                      "leaf 0 (3:1): extent 3 -> 4",
                                      "leaf 1 (4:3): stride 3 -> 4"}));
  linear::Waste w = ok(pc.layout.waste());
  EXPECT_EQ(w.masked[0].values, (std::vector<int64_t>{3, 7, 11, 15}));
  EXPECT_NE(pc.describe().find("restrided"), std::string::npos);
}

// ((2,3),4):((1,2),8): mode 0 = (2,3) of extent 6; its most major leaf 3:2
// is padded to 4:2, mode 0 to 8. Columns 1, 2, 4 (mode 0), 8, 16 (mode 1):
// exact. dim0 valid iff < 6: offsets o with (o mod 8) >= 6 masked.
TEST(PaddedBridge, CuteHierarchicalMode) {
  PaddedConversion pc =
      ok(cuteToPadded(ok(cute::parseLayout("((2,3),4):((1,2),8)"))));
  EXPECT_TRUE(pc.exact);
  EXPECT_EQ(pc.paddedText, "((2,4),4):((1,2),8)");
  std::vector<int64_t> masked;
  for (int64_t o = 0; o < 32; ++o)
    if (o % 8 >= 6)
      masked.push_back(o);
  EXPECT_EQ(ok(pc.layout.waste()).masked[0].values, masked);
}

// An extent in (2^62, 2^63) pads to 2^63, beyond int64: the leaf's
// rounding and the mode's both report it (the rounding used to loop
// forever). 2^62 + 1 and 2^63 - 1 are the two ends of the range.
TEST(PaddedBridge, ExtentPaddingOverflows) {
  for (const char *text : {"4611686018427387905:1", "9223372036854775807:1"}) {
    auto r = cuteToPadded(ok(cute::parseLayout(text)));
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find("integer overflow in the padded extent"),
              std::string::npos)
        << r.error().message;
  }
}

TEST(PaddedBridge, CuteDiagnostics) {
  // Overlapping modes: 4:1 spans 4, and 2:2 starts inside it.
  auto overlap = cuteToPadded(ok(cute::parseLayout("(4,2):(1,2)")));
  ASSERT_FALSE(overlap);
  EXPECT_EQ(overlap.error().message,
            "the strides do not nest: leaf 1 (2:2) has stride 2, not a "
            "multiple of 4 (the span of leaf 0 (4:1)), so the two interleave "
            "or overlap and no padding keeps them apart");
  // A non-power-of-two leaf below another leaf of its mode.
  auto inner = cuteToPadded(ok(cute::parseLayout("((3,2),4):((1,3),6)")));
  ASSERT_FALSE(inner);
  EXPECT_EQ(inner.error().message,
            "leaf 0 (3:1) of ((3,2),4):((1,3),6) has extent 3, not a power of "
            "two, and is not the most major leaf of mode 0: padding it would "
            "change the logical coordinate of the leaves above it");
  // Broadcast: not a bijection onto the offsets.
  auto bcast = cuteToPadded(ok(cute::parseLayout("(3,2):(1,0)")));
  ASSERT_FALSE(bcast);
  EXPECT_NE(bcast.error().message.find("is not a bijection"),
            std::string::npos);
}

// tmem_accumulator S[(2,128,112):(112@TCol,1@TLane,1@TCol)] over
// (2,128,112): dim 2 (112) is iter 2 alone, padded to 128:1@TCol. Iter 0
// keeps stride 112, which is not a power of two: not linear. The walk on
// TCol: 1 (e 112 -> 128), then 112 = 1 * (1*112), new stride 1 * (1*128) =
// 128. Padded S[(2,128,128):(128@TCol,1@TLane,1@TCol)]: TLane bit k ->
// dim1 2^k, TCol bit k < 7 -> dim2 2^k, TCol bit 7 -> dim0 1. TCol c is
// masked iff c mod 128 >= 112: 112..127 and 240..255, 32 of 256 columns;
// 2*128*16 = 4096 of 32768 elements (12.5%).
TEST(PaddedBridge, TmemAccumulator224Columns) {
  const tile::Preset *p = ok(tile::findPreset("tmem_accumulator"));
  PaddedConversion pc = ok(tileToPadded(p->layout(), p->shape));
  EXPECT_FALSE(pc.exact);
  EXPECT_EQ(pc.paddedText, "S[(2,128,128):(128@TCol,1@TLane,1@TCol)]");
  EXPECT_EQ(stepTexts(pc), (std::vector<std::string>{
                               "dim 2: extent 112 -> 128",
                               "iter 2 (112:1@TCol): extent 112 -> 128",
                               "iter 0 (2:112@TCol): stride 112 -> 128"}));
  std::vector<linear::InDimBases> ins{{linear::internDim("TLane"), {}},
                                      {linear::internDim("TCol"), {}}};
  for (int k = 0; k < 7; ++k)
    ins[0].bases.push_back({0, int64_t(1) << k, 0});
  for (int k = 0; k < 7; ++k)
    ins[1].bases.push_back({0, 0, int64_t(1) << k});
  ins[1].bases.push_back({1, 0, 0});
  const linear::OutDim outs[] = {{linear::dims::dim(0), 2},
                                 {linear::dims::dim(1), 128},
                                 {linear::dims::dim(2), 128}};
  EXPECT_EQ(pc.layout.layout(),
            ok(LinearLayout::make(std::span<const linear::InDimBases>(ins),
                                  std::span(outs))));
  linear::Waste w = ok(pc.layout.waste());
  EXPECT_EQ(w.elements, 32768);
  EXPECT_EQ(w.paddedElements, 4096);
  EXPECT_DOUBLE_EQ(w.fraction, 0.125);
  EXPECT_TRUE(w.masked[0].values.empty());
  std::vector<int64_t> cols = range(112, 128), hi = range(240, 256);
  cols.insert(cols.end(), hi.begin(), hi.end());
  EXPECT_EQ(w.masked[1].values, cols);
}

// The tile 3-stage ring S[(3,64):(64,1)] over (3,64) in shared memory:
// iter 0 padded to 4:64, exact; offset bits 0..5 -> dim1, 6..7 -> dim0;
// offsets 192..255 masked.
TEST(PaddedBridge, TileThreeStageRing) {
  const int64_t shape[] = {3, 64};
  PaddedConversion pc =
      ok(tileToPadded(ok(tile::parseTileLayout("S[(3,64):(64,1)]")), shape,
                      linear::dims::kOffset));
  EXPECT_TRUE(pc.exact);
  EXPECT_EQ(pc.paddedText, "S[(4,64):(64,1)]");
  EXPECT_EQ(stepTexts(pc),
            (std::vector<std::string>{"dim 0: extent 3 -> 4",
                                      "iter 0 (3:64): extent 3 -> 4"}));
  EXPECT_EQ(pc.layout.layout(),
            P("{offset: [(0,1), (0,2), (0,4), (0,8), (0,16), (0,32), (1,0), "
              "(2,0)]} -> {dim0: 4, dim1: 64}"));
  EXPECT_EQ(ok(pc.layout.waste()).masked[0].values, range(192, 256));
}

TEST(PaddedBridge, TileDiagnostics) {
  // 24 = (8 x 3) in one dim: the 3 is the minor iter.
  const int64_t flat[] = {24};
  auto e = tileToPadded(ok(tile::parseTileLayout("S[(8,3):(1,8)]")), flat);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "iter 1 (3:8) has extent 3, not a power of two, and is not the "
            "most major iter of dim 0 (24): padding it would change the "
            "logical coordinate of the iters above it");
  // The same layout over (8,3) pads dim 1 exactly.
  const int64_t twoDims[] = {8, 3};
  PaddedConversion pc =
      ok(tileToPadded(ok(tile::parseTileLayout("S[(8,3):(1,8)]")), twoDims));
  EXPECT_TRUE(pc.exact);
  EXPECT_EQ(pc.paddedText, "S[(8,4):(1,8)]");
}

// Exact conversions keep every valid element in place: for each valid
// logical coordinate of the original cute layout, the padded layout's
// inverse sends its original offset back to it.
TEST(PaddedBridge, ExactKeepsPlacement) {
  for (const char *text :
       {"(4,3):(1,4)", "(64,3):(1,64)", "((2,3),4):((1,2),8)", "(5,2):(1,8)"}) {
    cute::Layout c = ok(cute::parseLayout(text));
    PaddedConversion pc = ok(cuteToPadded(c));
    ASSERT_TRUE(pc.exact) << text;
    const LinearLayout &l = pc.layout.layout();
    int64_t n0 = c.mode(0).size();
    for (int64_t i = 0; i < c.size(); ++i) {
      int64_t off = cute::evaluate(c, i);
      std::vector<int64_t> y = ok(l.apply({off}));
      EXPECT_EQ(y[0], i % n0) << text << " at " << i;
      EXPECT_EQ(y[1], i / n0) << text << " at " << i;
      EXPECT_TRUE(pc.layout.validOut(l.applyFlat(uint64_t(off))));
    }
  }
}

} // namespace
