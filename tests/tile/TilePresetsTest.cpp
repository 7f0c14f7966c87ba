//===- TilePresetsTest.cpp - The hardware tile presets --------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// Every row of the tables of docs/design.md §6.1-6.2, the closed forms
/// stated there, and hand-derived closed forms for the presets given there
/// without one (scale factors with packing, reuse
/// and pipeline stages; device mesh; scratchpad). Each closed form is
/// checked on every element.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TilePresets.h"
#include "layoutkit/tile/TileText.h"

#include "support/TileTestSupport.h"

#include <gtest/gtest.h>

#include <set>

using namespace lk;
using namespace lk::tile;
using lk::tile::testing::named;
using lk::tile::testing::NamedCoord;
using lk::tile::testing::referenceEval;

namespace {

TileLayout preset(std::string_view name) {
  Expected<const Preset *> p = findPreset(name);
  EXPECT_TRUE(p) << name;
  return p ? (*p)->layout() : TileLayout();
}

std::vector<NamedCoord> at(const TileLayout &l, std::vector<int64_t> shape,
                           std::vector<int64_t> coord) {
  Expected<CoordSet> s = l.eval(shape, coord);
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return s ? named(l, *s) : std::vector<NamedCoord>{};
}

/// Calls f(coord) for every coordinate of `shape` (row-major).
template <class F> void forEach(std::vector<int64_t> shape, F f) {
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e;
  for (int64_t x = 0; x < n; ++x)
    f(TileLayout::unflatten(shape, x));
}

TEST(TilePresets, TableIsWellFormed) {
  std::set<std::string_view> names;
  for (const Preset &p : presets()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    Expected<TileLayout> l = parseTileLayout(p.text);
    ASSERT_TRUE(l) << p.name;
    EXPECT_EQ(l->str(), p.text) << "not canonical";
    EXPECT_TRUE(l->admits(p.shape)) << p.name;
    EXPECT_FALSE(p.summary.empty());
    EXPECT_EQ(*findPreset(p.name), &p);
  }
  EXPECT_EQ(presets().size(), 7u);
  Expected<const Preset *> none = findPreset("wgmma");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "unknown preset 'wgmma'");
  EXPECT_NE(none.error().notes[0].find("tensor_core_8x16"), std::string::npos);
}

/// The element table of the tensor-core tile and its closed form
/// (docs/design.md §6.1).
TEST(TilePresets, TensorCoreTile) {
  TileLayout l = preset("tensor_core_8x16");
  struct Row {
    int64_t i, j, laneid, w0, w1, m;
  };
  for (Row r : {Row{0, 0, 0, 5, 9, 0}, Row{0, 1, 0, 5, 9, 1},
                Row{0, 2, 1, 5, 9, 0}, Row{1, 0, 4, 5, 9, 0},
                Row{0, 8, 0, 6, 10, 0}, Row{7, 15, 31, 6, 10, 1}})
    EXPECT_EQ(at(l, {8, 16}, {r.i, r.j}),
              (std::vector<NamedCoord>{
                  {{"laneid", r.laneid}, {"warpid", r.w0}, {"m", r.m}},
                  {{"laneid", r.laneid}, {"warpid", r.w1}, {"m", r.m}}}));
  forEach({8, 16}, [&](std::vector<int64_t> c) {
    int64_t i = c[0], j = c[1];
    std::vector<NamedCoord> want;
    for (int64_t r = 0; r < 2; ++r)
      want.push_back({{"laneid", 4 * i + (j / 2) % 4},
                      {"warpid", j / 8 + 5 + 4 * r},
                      {"m", j % 2}});
    EXPECT_EQ(at(l, {8, 16}, c), want);
  });
  // Owners: the shard is on warps {5,6}, the replica on {9,10}.
  EXPECT_EQ(l.footprint(Axis::warpid()), (Footprint{5, 10}));
  const AxisValue w9[] = {{Axis::warpid(), 9}}, w10[] = {{Axis::warpid(), 10}};
  EXPECT_EQ(l.holders(w9)->size(), 64u);
  EXPECT_EQ(l.holders(w10)->size(), 64u);
}

/// The elements of the Blackwell TMEM accumulator (docs/design.md §6.2);
/// 224 columns.
TEST(TilePresets, TensorMemoryAccumulator) {
  TileLayout l = preset("tmem_accumulator");
  struct Row {
    int64_t a, l, c, lane, col;
  };
  for (Row r : {Row{0, 0, 0, 0, 0}, Row{0, 5, 3, 5, 3}, Row{1, 0, 0, 0, 112},
                Row{1, 127, 111, 127, 223}})
    EXPECT_EQ(at(l, {2, 128, 112}, {r.a, r.l, r.c}),
              (std::vector<NamedCoord>{{{"TLane", r.lane}, {"TCol", r.col}}}));
  forEach({2, 128, 112}, [&](std::vector<int64_t> c) {
    ASSERT_EQ(at(l, {2, 128, 112}, c),
              (std::vector<NamedCoord>{
                  {{"TLane", c[1]}, {"TCol", 112 * c[0] + c[2]}}}));
  });
  EXPECT_EQ(l.footprint(Axis::TCol()).span(), 224);
  EXPECT_EQ(l.footprint(Axis::TLane()).span(), 128);
  EXPECT_EQ(l.replicaCount(), 1);
  EXPECT_TRUE(*l.isInjective()); // a pure placement
}

/// The scale-factor atom: oracle rows and the closed form TLane = i + 32r,
/// TCol = k.
TEST(TilePresets, ScaleFactorAtom) {
  TileLayout l = preset("scale_factor_atom");
  auto four = [](int64_t lane, int64_t col) {
    std::vector<NamedCoord> v;
    for (int64_t r = 0; r < 4; ++r)
      v.push_back({{"TLane", lane + 32 * r}, {"TCol", col}});
    return v;
  };
  EXPECT_EQ(at(l, {32, 4}, {0, 0}), four(0, 0));
  EXPECT_EQ(at(l, {32, 4}, {5, 3}), four(5, 3));
  EXPECT_EQ(at(l, {32, 4}, {31, 1}), four(31, 1));
  forEach({32, 4}, [&](std::vector<int64_t> c) {
    EXPECT_EQ(at(l, {32, 4}, c), four(c[0], c[1]));
  });
  // warpx4: one physical group feeds lanes 0..127 of the four warps.
  EXPECT_EQ(l.footprint(Axis::TLane()), (Footprint{0, 127}));
}

/// The parametric layout against its closed form (TilePresets.h).
void checkScaleFactors(const ScaleFactorParams &p) {
  Expected<TiledLayout> t = scaleFactorLayout(p);
  ASSERT_TRUE(t) << t.error().message;
  const TileLayout &l = t->layout;
  int64_t epc = 32 / p.sfBits, cpm = p.sfPerMma / epc;
  int64_t stageCols = (p.rows / 32) * (p.groups / p.sfPerMma) * cpm;
  ASSERT_EQ(t->shape,
            (std::vector<int64_t>{p.pipeDepth, p.reuse, p.rows, p.groups}));
  forEach(t->shape, [&](std::vector<int64_t> c) {
    int64_t s = c[0], i = c[2], k = c[3];
    std::vector<NamedCoord> want;
    for (int64_t r = 0; r < 4; ++r) {
      NamedCoord w = {{"TLane", i % 32 + 32 * r},
                      {"TCol", s * stageCols + (i / 32) * cpm +
                                   (k / p.sfPerMma) * (p.rows / 32) * cpm +
                                   (k % p.sfPerMma) / epc}};
      if (epc > 1)
        w["m"] = k % epc;
      want.push_back(w);
    }
    ASSERT_EQ(at(l, t->shape, c), want) << l.str();
  });
  EXPECT_EQ(l.footprint(Axis::TCol()),
            (Footprint{0, p.pipeDepth * stageCols - 1}));
  EXPECT_EQ(l.footprint(Axis::TLane()), (Footprint{0, 127}));
}

TEST(TilePresets, ScaleFactorLayoutPackedReusedPipelined) {
  // fp8 e8m0 factors: epc = 4 per 32-bit cell; 2 MMAs reuse them; 2 stages.
  checkScaleFactors({.rows = 128,
                     .groups = 8,
                     .sfPerMma = 4,
                     .sfBits = 8,
                     .reuse = 2,
                     .pipeDepth = 2});
  // Unpacked 32-bit factors, 3 stages.
  checkScaleFactors({.rows = 64,
                     .groups = 12,
                     .sfPerMma = 4,
                     .sfBits = 32,
                     .reuse = 1,
                     .pipeDepth = 3});
  // Non-power-of-two block counts (3 row blocks, 3 MMA blocks), 16-bit factors.
  checkScaleFactors({.rows = 96,
                     .groups = 6,
                     .sfPerMma = 2,
                     .sfBits = 16,
                     .reuse = 3,
                     .pipeDepth = 2});
}

TEST(TilePresets, ScaleFactorLayoutDetails) {
  // Hand-derived text: rows 128 -> 4 row blocks, groups 8 -> 2 MMA blocks,
  // epc 4 -> cpm 1, stage 8 columns.
  Expected<TiledLayout> t = scaleFactorLayout({.rows = 128,
                                               .groups = 8,
                                               .sfPerMma = 4,
                                               .sfBits = 8,
                                               .reuse = 2,
                                               .pipeDepth = 2});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->layout.str(), "S[(2,2,4,32,2,1,4):(8@TCol,0@TCol,1@TCol,1@TLane,"
                             "4@TCol,1@TCol,1)] + R[4:32@TLane]");
  // Stride-0 reuse: both MMAs read the same cells.
  EXPECT_EQ(at(t->layout, t->shape, {1, 0, 70, 5}),
            at(t->layout, t->shape, {1, 1, 70, 5}));
  // Four 8-bit factors share one cell: k = 4..7 of row 0 sit in TCol 4, m 0..3.
  for (int64_t k = 4; k < 8; ++k) {
    std::vector<NamedCoord> got = at(t->layout, t->shape, {0, 0, 0, k});
    EXPECT_EQ(got[0].at("TCol"), 4);
    EXPECT_EQ(got[0].at("m"), k - 4);
  }
  // The trivial configuration is the atom (docs/design.md §6.2), element by
  // element.
  Expected<TiledLayout> atom = scaleFactorLayout({.rows = 32,
                                                  .groups = 4,
                                                  .sfPerMma = 4,
                                                  .sfBits = 32,
                                                  .reuse = 1,
                                                  .pipeDepth = 1});
  ASSERT_TRUE(atom);
  TileLayout spec = preset("scale_factor_atom");
  for (int64_t x = 0; x < 128; ++x)
    EXPECT_EQ(referenceEval(atom->layout, x), referenceEval(spec, x));
}

TEST(TilePresets, ScaleFactorLayoutRejects) {
  auto msg = [](ScaleFactorParams p) {
    Expected<TiledLayout> t = scaleFactorLayout(p);
    return t ? std::string("ok") : t.error().message;
  };
  EXPECT_EQ(
      msg({.rows = 100}),
      "scale factors: rows 100 must be a multiple of 32 (the atom's rows)");
  EXPECT_EQ(msg({.groups = 6}),
            "scale factors: 6 groups are not a multiple of sf_per_mma 4");
  EXPECT_EQ(msg({.sfBits = 3}),
            "scale factors: SF_bits 3 does not divide the 32-bit TCol cell");
  EXPECT_EQ(msg({.groups = 8, .sfPerMma = 2, .sfBits = 8}),
            "scale factors: sf_per_mma 2 is not a multiple of epc = 32 / "
            "SF_bits = 4");
  EXPECT_EQ(msg({.pipeDepth = 0}),
            "scale factors: pipe_depth 0 must be at least 1");
}

/// Device mesh: pid = floor(i/16) + 4r, m = 64 (i mod 16) + j.
TEST(TilePresets, DeviceMesh) {
  TileLayout l = preset("device_mesh_4x2");
  forEach({64, 64}, [&](std::vector<int64_t> c) {
    int64_t i = c[0], j = c[1];
    std::vector<NamedCoord> want;
    for (int64_t r = 0; r < 2; ++r)
      want.push_back({{"pid", i / 16 + 4 * r}, {"m", 64 * (i % 16) + j}});
    ASSERT_EQ(at(l, {64, 64}, c), want);
  });
  EXPECT_EQ(l.footprint(Axis::pid()), (Footprint{0, 7}));
  EXPECT_EQ(l.footprint(Axis::m()).span(), 1024); // 16 x 64 per device
  // Device 2 (and its replica 6) holds rows 32..47.
  for (int64_t pid : {2, 6}) {
    const AxisValue where[] = {{Axis::pid(), pid}};
    std::vector<int64_t> h = *l.holders(where);
    ASSERT_EQ(h.size(), 1024u);
    EXPECT_EQ(h.front(), 32 * 64);
    EXPECT_EQ(h.back(), 48 * 64 - 1);
  }
  EXPECT_EQ(Axis::pid().kind(), AxisKind::Device);
}

/// Scratchpad: P = i mod 128, F = 512 floor(i/128) + j.
TEST(TilePresets, Scratchpad) {
  TileLayout l = preset("scratchpad_2x128x512");
  forEach({256, 512}, [&](std::vector<int64_t> c) {
    ASSERT_EQ(at(l, {256, 512}, c),
              (std::vector<NamedCoord>{
                  {{"F", 512 * (c[0] / 128) + c[1]}, {"P", c[0] % 128}}}));
  });
  EXPECT_EQ(l.footprint(Axis::P()).span(), 128);
  EXPECT_EQ(l.footprint(Axis::F()).span(), 1024);
  EXPECT_TRUE(*l.isInjective());
}

/// m8n8 fragment: oracle rows and laneid = 4i + floor(j/2), m = j mod 2.
TEST(TilePresets, M8n8Fragment) {
  TileLayout l = preset("mma_m8n8_fragment");
  EXPECT_EQ(*parseTileLayout("S[(8,4,2):(4@laneid,1@laneid,1@m)]"), l);
  EXPECT_EQ(at(l, {8, 8}, {0, 0}),
            (std::vector<NamedCoord>{{{"laneid", 0}, {"m", 0}}}));
  EXPECT_EQ(at(l, {8, 8}, {3, 5}),
            (std::vector<NamedCoord>{{{"laneid", 14}, {"m", 1}}}));
  EXPECT_EQ(at(l, {8, 8}, {7, 7}),
            (std::vector<NamedCoord>{{{"laneid", 31}, {"m", 1}}}));
  forEach({8, 8}, [&](std::vector<int64_t> c) {
    EXPECT_EQ(at(l, {8, 8}, c),
              (std::vector<NamedCoord>{
                  {{"laneid", 4 * c[0] + c[1] / 2}, {"m", c[1] % 2}}}));
  });
  EXPECT_TRUE(*l.isInjective());
}

TEST(TilePresets, SharedMemoryRowMajor) {
  TileLayout l = preset("smem_row_major_8x64");
  forEach({8, 64}, [&](std::vector<int64_t> c) {
    const int64_t s[] = {8, 64};
    EXPECT_EQ(*l.address(s, c), 64 * c[0] + c[1]);
  });
}

} // namespace
