//===- AtomTmemTest.cpp - TMEM placements against docs/hardware.md --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every element of every placement is compared with the formulas of
// docs/hardware.md §6.4 (accumulator data-path layouts A, B, D, E, F,
// G), §6.8 (tcgen05.cp shapes and multicast) and §6.9 (block-scaled scale
// factors, 4x1 and 2x2 data paths, byte packing).
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/AtomTmem.h"

#include "layoutkit/hw/Atom.h"
#include <map>

#include "layoutkit/tile/Axis.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

using namespace lk;
using namespace lk::hw;

namespace {

using V = std::vector<int64_t>;
using tile::Axis;

/// L(x) as a set of (cta, TLane, TCol, m) tuples.
std::set<V> placed(const tile::TileLayout &l, const V &shape, const V &x) {
  auto set = l.eval(shape, x);
  EXPECT_TRUE(set.hasValue());
  std::set<V> out;
  if (!set.hasValue())
    return out;
  auto slot = [&](Axis a) { return l.axisSlot(a); };
  for (size_t k = 0; k < set->size(); ++k) {
    auto c = (*set)[k];
    auto get = [&](Axis a) { return slot(a) >= 0 ? c[size_t(slot(a))] : 0; };
    out.insert(V{get(Axis::cta()), get(Axis::TLane()), get(Axis::TCol()),
                 get(Axis::m())});
  }
  return out;
}

} // namespace

// §6.4 table: TMEM lane / column of D(m, n) per data-path layout.
TEST(AtomTmem, AccumulatorLayouts) {
  struct Case {
    int64_t M;
    int cg;
    bool ws;
    int64_t L0, C0;
  };
  for (const Case &c : {Case{64, 1, false, 0, 0}, Case{64, 1, false, 16, 32},
                        Case{128, 1, false, 0, 256}, Case{128, 2, false, 0, 0},
                        Case{256, 2, false, 0, 64}, Case{32, 1, true, 0, 0},
                        Case{64, 1, true, 0, 0}}) {
    for (int64_t N : {16, 64, 128, 256}) {
      if (c.ws && N < 64)
        continue;
      TmemAccumulator a{c.M, N, c.cg, c.ws, c.L0, c.C0};
      auto l = tmemAccumulatorLayout(a);
      if (c.C0 + N > 512) {
        EXPECT_FALSE(l.hasValue());
        continue;
      }
      ASSERT_TRUE(l.hasValue()) << c.M << " " << N << " " << l.error().message;
      for (int64_t m = 0; m < c.M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          V want;
          if (c.ws && c.M == 32) // G
            want = {0, m + 32 * (n / (N / 4)), n % (N / 4), 0};
          else if (c.ws) // E
            want = {0, m + 64 * (n / (N / 2)), n % (N / 2), 0};
          else if (c.M == 64) // F
            want = {0, c.L0 + 32 * (m >> 4) + (m & 15), c.C0 + n, 0};
          else if (c.cg == 1) // D
            want = {0, m, c.C0 + n, 0};
          else if (c.M == 128) // B: m' = m - 64*cta
            want = {m / 64, m % 64 + 64 * (n >= N / 2), c.C0 + n % (N / 2), 0};
          else // A
            want = {m / 128, m % 128, c.C0 + n, 0};
          ASSERT_EQ(placed(*l, {c.M, N}, {m, n}), std::set<V>{want})
              << c.M << " cg" << c.cg << " N" << N << " (" << m << "," << n
              << ")";
        }
    }
  }
  // Worked example of the header: M=128, ::2, N=64: D(70, 40).
  auto l = tmemAccumulatorLayout({128, 64, 2, false, 0, 0});
  ASSERT_TRUE(l.hasValue());
  EXPECT_EQ(placed(*l, {128, 64}, {70, 40}), (std::set<V>{{1, 70, 8, 0}}));
  EXPECT_EQ(l->str(), "S[(2,64,2,32):(1@cta,1@TLane,64@TLane,1@TCol)]");
}

TEST(AtomTmem, AccumulatorRules) {
  // §6.7: ::1 N step 8, ::2 N step 16; M per cta_group; lane base 16 only for
  // F.
  EXPECT_TRUE(tmemAccumulatorLayout({128, 24, 1}).hasValue());
  auto bad = tmemAccumulatorLayout({128, 24, 2});
  ASSERT_FALSE(bad.hasValue());
  EXPECT_EQ(
      bad.error().message,
      "tcgen05 accumulator: N = 24 is not in 16..256 step 16 for cta_group::2");
  EXPECT_FALSE(tmemAccumulatorLayout({256, 64, 1}).hasValue());
  EXPECT_FALSE(tmemAccumulatorLayout({64, 64, 2}).hasValue());
  EXPECT_FALSE(tmemAccumulatorLayout({128, 64, 1, false, 16, 0}).hasValue());
  EXPECT_FALSE(tmemAccumulatorLayout({128, 256, 1, false, 0, 384}).hasValue());
  EXPECT_FALSE(tmemAccumulatorLayout({32, 96, 1, true}).hasValue());
  EXPECT_FALSE(tmemAccumulatorLayout({128, 64, 3}).hasValue());
}

// §6.8 table.
TEST(AtomTmem, CopyShapes) {
  struct Case {
    const char *shape;
    V ext;
  };
  for (const Case &c :
       {Case{".128x256b", {128, 8}}, Case{".128x128b", {128, 4}},
        Case{".4x256b", {4, 8}}, Case{".64x128b.warpx2::02_13", {64, 4}},
        Case{".64x128b.warpx2::01_23", {64, 4}},
        Case{"32x128b.warpx4", {32, 4}}}) {
    auto ext = tmemCopyShape(c.shape);
    ASSERT_TRUE(ext.hasValue()) << c.shape;
    EXPECT_EQ(*ext, c.ext);
    auto l = tmemCopyLayout(c.shape);
    ASSERT_TRUE(l.hasValue()) << c.shape;
    std::string s = c.shape;
    for (int64_t r = 0; r < c.ext[0]; ++r)
      for (int64_t w = 0; w < c.ext[1]; ++w) {
        std::set<V> want;
        if (s.find("02_13") != std::string::npos) // rows 0-31 -> 0-31, 64-95
          want = {{0, r % 32 + 32 * (r / 32), w, 0},
                  {0, r % 32 + 32 * (r / 32) + 64, w, 0}};
        else if (s.find("01_23") !=
                 std::string::npos) // rows 0-31 -> 0-31, 32-63
          want = {{0, r % 32 + 64 * (r / 32), w, 0},
                  {0, r % 32 + 64 * (r / 32) + 32, w, 0}};
        else if (s.find("warpx4") != std::string::npos)
          want = {{0, r, w, 0},
                  {0, r + 32, w, 0},
                  {0, r + 64, w, 0},
                  {0, r + 96, w, 0}};
        else if (s.find("4x256b") != std::string::npos &&
                 s.find("128") == std::string::npos)
          want = {{0, 32 * r, w, 0}}; // CUTLASS model, UNVERIFIED (§6.8)
        else
          want = {{0, r, w, 0}};
        ASSERT_EQ(placed(*l, c.ext, {r, w}), want)
            << c.shape << " " << r << "," << w;
      }
  }
  auto e = tmemCopyShape(".64x128b");
  ASSERT_FALSE(e.hasValue());
  EXPECT_NE(e.error().message.find("multicast"), std::string::npos);
  EXPECT_FALSE(tmemCopyLayout(".16x256b").hasValue());
}

// §6.9: 4x1 and 2x2 data paths, byte = s + j, warpx4 replica.
TEST(AtomTmem, ScaleFactors) {
  for (int vec : {1, 2, 4})
    for (int s : {0, 1, 2, 3})
      for (int64_t E : {128, 256}) {
        TmemScaleFactors p{E, vec, s, false, 8};
        auto l = tmemScaleFactorLayout(p);
        bool legal = vec == 1 || (vec == 2 && (s == 0 || s == 2)) ||
                     (vec == 4 && s == 0);
        ASSERT_EQ(l.hasValue(), legal) << vec << " " << s;
        if (!legal)
          continue;
        for (int64_t e = 0; e < E; ++e)
          for (int64_t j = 0; j < vec; ++j) {
            std::set<V> want;
            for (int64_t rep = 0; rep < 4; ++rep)
              want.insert({0, e % 32 + 32 * rep, 8 + e / 32, s + j});
            ASSERT_EQ(placed(*l, {E, vec}, {e, j}), want);
          }
      }
  // Header example: 4X, SFA of M=128, s = 0, row 70, j = 2.
  auto l4 = tmemScaleFactorLayout({128, 4, 0, false, 0});
  ASSERT_TRUE(l4.hasValue());
  EXPECT_EQ(placed(*l4, {128, 4}, {70, 2}),
            (std::set<V>{
                {0, 6, 2, 2}, {0, 38, 2, 2}, {0, 70, 2, 2}, {0, 102, 2, 2}}));
  // 2x2 (SFB, cta_group::2, M=128).
  for (int64_t N : {128, 256}) {
    auto l = tmemScaleFactorLayout({N, 2, 2, true, 0});
    ASSERT_TRUE(l.hasValue());
    for (int64_t n = 0; n < N; ++n)
      for (int64_t j = 0; j < 2; ++j) {
        int64_t h = n / (N / 2), np = n % (N / 2);
        std::set<V> want;
        for (int64_t rep = 0; rep < 2; ++rep)
          want.insert({0, np % 32 + 64 * h + 32 * rep, np / 32, 2 + j});
        ASSERT_EQ(placed(*l, {N, 2}, {n, j}), want) << N << " " << n;
      }
  }
  EXPECT_FALSE(tmemScaleFactorLayout({96, 1, 0, true, 0}).hasValue());
  EXPECT_FALSE(tmemScaleFactorLayout({100, 1, 0, false, 0}).hasValue());
  EXPECT_FALSE(tmemScaleFactorLayout({128, 3, 0, false, 0}).hasValue());
}

// §6.9: the Sm1xxBlockScaledBasicChunk (128 x 4 SFs, 512 B) copied by
// tcgen05.cp.32x128b.warpx4 lands exactly where the 4X layout expects it:
// chunk byte 16*(mn mod 32) + 4*((mn div 32) mod 4) + kb is source row
// mn mod 32, 32-bit word (mn div 32), byte kb.
TEST(AtomTmem, ScaleFactorChunkMatchesCopy) {
  auto cp = tmemCopyLayout(".32x128b.warpx4");
  auto sf = tmemScaleFactorLayout({128, 4, 0, false, 0});
  ASSERT_TRUE(cp.hasValue());
  ASSERT_TRUE(sf.hasValue());
  for (int64_t mn = 0; mn < 128; ++mn)
    for (int64_t kb = 0; kb < 4; ++kb) {
      int64_t off = 16 * (mn % 32) + 4 * ((mn / 32) % 4) + kb;
      int64_t row = off / 16, word = (off % 16) / 4, byte = off % 4;
      std::set<V> viaCopy;
      for (const V &p : placed(*cp, {32, 4}, {row, word}))
        viaCopy.insert({p[0], p[1], p[2], byte});
      EXPECT_EQ(viaCopy, placed(*sf, {128, 4}, {mn, kb})) << mn << " " << kb;
    }
}

// §6.9 table: kind x SF type x block size -> scale_vec.
TEST(AtomTmem, ScaleVecTable) {
  using K = BlockScaledKind;
  using S = ScaleType;
  EXPECT_EQ(*blockScaledScaleVec(K::Mxf8f6f4, S::Ue8m0, 32), 1);
  EXPECT_EQ(*blockScaledScaleVec(K::Mxf4, S::Ue8m0, 32), 2);
  EXPECT_EQ(*blockScaledScaleVec(K::Mxf4nvf4, S::Ue8m0, 32), 2);
  EXPECT_EQ(*blockScaledScaleVec(K::Mxf4nvf4, S::Ue8m0, 16), 4);
  EXPECT_EQ(*blockScaledScaleVec(K::Mxf4nvf4, S::Ue4m3, 16), 4);
  auto e = blockScaledScaleVec(K::Mxf4, S::Ue4m3, 16);
  ASSERT_FALSE(e.hasValue());
  EXPECT_EQ(e.error().message, "mxf4 has no ue4m3 scale factors");
  EXPECT_FALSE(blockScaledScaleVec(K::Mxf8f6f4, S::Ue8m0, 16).hasValue());
  EXPECT_FALSE(blockScaledScaleVec(K::Mxf4nvf4, S::Ue4m3, 32).hasValue());
  EXPECT_FALSE(blockScaledScaleVec(K::Mxf4, S::Ue8m0, 64).hasValue());
}

// §6.2 + §6.3 + §6.4 together: warp w may touch TMEM lanes 32w..32w+31.
//  * M=128 (layout D) read with .32x32b.xN at taddr lane 32w: thread l,
//    register r holds D(32w + l, r).
//  * M=64 (layout F, L0 = 0) read with .16x256b.x(N/8) at taddr lane 32w:
//    thread 32w + l holds exactly the wgmma.m64nNk16 accumulator fragment.
TEST(AtomTmem, LoadsReadTheAccumulator) {
  for (int64_t M : {64, 128}) {
    const int64_t N = 64;
    auto acc = tmemAccumulatorLayout({M, N, 1});
    ASSERT_TRUE(acc.hasValue());
    std::map<std::pair<int64_t, int64_t>, V> at; // (lane, col) -> (m, n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n)
        for (const V &p : placed(*acc, {M, N}, {m, n}))
          at[{p[1], p[2]}] = V{m, n};
    auto ld =
        findAtom(M == 128 ? "tcgen05.ld.32x32b.x64" : "tcgen05.ld.16x256b.x8");
    auto wg = findAtom("wgmma.m64n64k16.f16.C");
    ASSERT_TRUE(ld.hasValue());
    ASSERT_TRUE(wg.hasValue());
    for (int64_t w = 0; w < 4; ++w)
      for (int64_t l = 0; l < 32; ++l)
        for (int64_t r = 0; r < (*ld)->values; ++r) {
          V off = *(*ld)->eval(l, r);
          auto it = at.find({32 * w + off[0], off[1]});
          ASSERT_NE(it, at.end());
          V want = M == 128 ? V{32 * w + l, r} : *(*wg)->eval(32 * w + l, r);
          ASSERT_EQ(it->second, want)
              << M << " w" << w << " l" << l << " r" << r;
        }
  }
}

namespace {

/// The (cta, TLane, TCol, byte) coordinates of element (e, j), sorted.
std::set<std::vector<int64_t>> placesOf(const tile::TileLayout &l, int64_t e,
                                        int64_t j, int64_t nsf) {
  std::set<std::vector<int64_t>> out;
  tile::CoordSet set = l.eval(e * nsf + j);
  const Axis want[] = {Axis::cta(), Axis::TLane(), Axis::TCol(), Axis::m()};
  for (size_t i = 0; i < set.size(); ++i) {
    std::vector<int64_t> c;
    for (Axis a : want) {
      int slot = l.axisSlot(a);
      c.push_back(slot < 0 ? 0 : set[i][size_t(slot)]);
    }
    out.insert(c);
  }
  return out;
}

TEST(AtomTmem, PairScaleFactorsSplitAAndMulticastB) {
  // [MODEL, UNVERIFIED, pinned] SFA of M = 256, 1X, C0 = 8: row e lives on
  // cta e div 128; inside the CTA, row e' = e mod 128 follows the 4x1 path:
  // lanes (e' mod 32) + 32 rep, column C0 + e' div 32, byte s + j.
  auto a = tmemPairScaleFactorLayout({ScaleOperand::A, 256, 256, 1, 0, 8});
  ASSERT_TRUE(a) << a.error().message;
  for (int64_t e = 0; e < 256; ++e) {
    int64_t cta = e / 128, ep = e % 128;
    std::set<std::vector<int64_t>> want;
    for (int64_t rep = 0; rep < 4; ++rep)
      want.insert({cta, ep % 32 + 32 * rep, 8 + ep / 32, 0});
    ASSERT_EQ(placesOf(*a, e, 0, 1), want) << "row " << e;
  }
  // The header's example: row 200 -> cta 1, lanes 8 + 32 rep, column C0 + 2.
  EXPECT_EQ(placesOf(*a, 200, 0, 1).begin()->at(1), 8);
  EXPECT_EQ(placesOf(*a, 200, 0, 1).begin()->at(2), 10);

  // SFB of N = 128 under M = 128 (2x2 path), 4X: every element on both
  // CTAs; h = n div 64, n' = n mod 64: lanes (n' mod 32) + 64 h + 32 rep,
  // column n' div 32, byte j.
  auto b = tmemPairScaleFactorLayout({ScaleOperand::B, 128, 128, 4, 0, 0});
  ASSERT_TRUE(b) << b.error().message;
  for (int64_t n = 0; n < 128; ++n)
    for (int64_t j = 0; j < 4; ++j) {
      int64_t h = n / 64, np = n % 64;
      std::set<std::vector<int64_t>> want;
      for (int64_t cta = 0; cta < 2; ++cta)
        for (int64_t rep = 0; rep < 2; ++rep)
          want.insert({cta, np % 32 + 64 * h + 32 * rep, np / 32, j});
      ASSERT_EQ(placesOf(*b, n, j, 4), want) << n << "," << j;
    }
  // SFB under M = 256 takes the 4x1 path on both CTAs: 8 places per factor.
  auto b256 = tmemPairScaleFactorLayout({ScaleOperand::B, 256, 64, 2, 2, 0});
  ASSERT_TRUE(b256);
  EXPECT_EQ(placesOf(*b256, 40, 1, 2).size(), 8u);
  EXPECT_EQ(placesOf(*b256, 40, 1, 2).begin()->at(3), 3); // byte s + j
  auto bad = tmemPairScaleFactorLayout({ScaleOperand::A, 64, 64, 1, 0, 0});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("M = 128 or 256"), std::string::npos);
}

} // namespace
