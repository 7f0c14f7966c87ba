//===- AtomTmem.cpp - Tensor-memory placements of tcgen05 -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/AtomTmem.h"

#include "layoutkit/tile/Axis.h"

#include <string>

namespace lk::hw {

namespace {

using tile::Axis;
using tile::AxisValue;
using tile::Iter;
using tile::IterList;
using tile::OffsetList;

std::string str(int64_t v) { return std::to_string(v); }

Diagnostic accError(const std::string &what) {
  return Diagnostic::error("tcgen05 accumulator: " + what);
}

} // namespace

Expected<tile::TileLayout> tmemAccumulatorLayout(const TmemAccumulator &a) {
  const Axis lane = Axis::TLane(), col = Axis::TCol(), cta = Axis::cta();
  const int64_t M = a.m, N = a.n;
  if (a.ctaGroup != 1 && a.ctaGroup != 2)
    return accError("cta_group::" + std::to_string(a.ctaGroup) +
                    " is not 1 or 2");
  if (a.columnBase < 0 || a.columnBase >= 512)
    return accError("column base " + str(a.columnBase) + " is outside 0..511");
  if (a.laneBase != 0 &&
      !(a.laneBase == 16 && M == 64 && a.ctaGroup == 1 && !a.ws))
    return accError(
        "lane base " + str(a.laneBase) +
        " is allowed only as 16 for M = 64, cta_group::1 (layout F)");
  IterList shard;
  int64_t columns = 0;
  if (a.ws) {
    if (a.ctaGroup != 1)
      return accError(".ws exists for cta_group::1 only");
    if (N != 64 && N != 128 && N != 256)
      return accError("N = " + str(N) + " is not 64, 128 or 256 for .ws");
    if (M == 32) { // layout G (1x4)
      shard = {Iter{32, 1, lane}, Iter{4, 32, lane}, Iter{N / 4, 1, col}};
      columns = N / 4;
    } else if (M == 64) { // layout E
      shard = {Iter{64, 1, lane}, Iter{2, 64, lane}, Iter{N / 2, 1, col}};
      columns = N / 2;
    } else {
      return accError("M = " + str(M) +
                      " has no .ws data-path layout here "
                      "(M = 32 or 64; M = 128 .ws is as without .ws)");
    }
  } else if (a.ctaGroup == 1) {
    if (N < 8 || N > 256 || N % 8 != 0)
      return accError("N = " + str(N) +
                      " is not in 8..256 step 8 for cta_group::1");
    if (M == 64) // layout F
      shard = {Iter{4, 32, lane}, Iter{16, 1, lane}, Iter{N, 1, col}};
    else if (M == 128) // layout D
      shard = {Iter{128, 1, lane}, Iter{N, 1, col}};
    else
      return accError("M = " + str(M) + " is not 64 or 128 for cta_group::1");
    columns = N;
  } else {
    if (N < 16 || N > 256 || N % 16 != 0)
      return accError("N = " + str(N) +
                      " is not in 16..256 step 16 for cta_group::2");
    if (M == 128) { // layout B (2x2)
      shard = {Iter{2, 1, cta}, Iter{64, 1, lane}, Iter{2, 64, lane},
               Iter{N / 2, 1, col}};
      columns = N / 2;
    } else if (M == 256) { // layout A
      shard = {Iter{2, 1, cta}, Iter{128, 1, lane}, Iter{N, 1, col}};
      columns = N;
    } else {
      return accError("M = " + str(M) + " is not 128 or 256 for cta_group::2");
    }
  }
  if (a.columnBase + columns > 512)
    return accError("columns " + str(a.columnBase) + ".." +
                    str(a.columnBase + columns - 1) +
                    " exceed the 512 of TMEM");
  OffsetList off;
  if (a.laneBase != 0)
    off.push_back(AxisValue{lane, a.laneBase});
  if (a.columnBase != 0)
    off.push_back(AxisValue{col, a.columnBase});
  return tile::TileLayout::make(std::move(shard), {}, std::move(off));
}

Expected<std::vector<int64_t>> tmemCopyShape(std::string_view shape) {
  if (!shape.empty() && shape.front() == '.')
    shape.remove_prefix(1);
  if (shape == "128x256b")
    return std::vector<int64_t>{128, 8};
  if (shape == "128x128b")
    return std::vector<int64_t>{128, 4};
  if (shape == "4x256b")
    return std::vector<int64_t>{4, 8};
  if (shape == "64x128b.warpx2::02_13" || shape == "64x128b.warpx2::01_23")
    return std::vector<int64_t>{64, 4};
  if (shape == "32x128b.warpx4")
    return std::vector<int64_t>{32, 4};
  if (shape == "64x128b" || shape == "32x128b")
    return Diagnostic::error(
        "tcgen05.cp ." + std::string(shape) +
        " needs its multicast qualifier (.warpx2::02_13 "
        "/ .warpx2::01_23 for 64x128b, .warpx4 for 32x128b)");
  return Diagnostic::error("unknown tcgen05.cp shape '" + std::string(shape) +
                           "'")
      .note("known: .128x256b, .128x128b, .4x256b, .64x128b.warpx2::02_13, "
            ".64x128b.warpx2::01_23, .32x128b.warpx4");
}

Expected<tile::TileLayout> tmemCopyLayout(std::string_view shape) {
  LK_TRY(std::vector<int64_t> ext, tmemCopyShape(shape));
  if (!shape.empty() && shape.front() == '.')
    shape.remove_prefix(1);
  const Axis lane = Axis::TLane(), col = Axis::TCol();
  if (shape == "128x256b" || shape == "128x128b")
    return tile::TileLayout::make({Iter{128, 1, lane}, Iter{ext[1], 1, col}});
  if (shape == "4x256b") // one lane per 32-lane window (CUTLASS; UNVERIFIED)
    return tile::TileLayout::make({Iter{4, 32, lane}, Iter{8, 1, col}});
  if (shape == "64x128b.warpx2::02_13") // rows 0-31 -> 0-31 and 64-95
    return tile::TileLayout::make(
        {Iter{2, 32, lane}, Iter{32, 1, lane}, Iter{4, 1, col}},
        {Iter{2, 64, lane}});
  if (shape == "64x128b.warpx2::01_23") // rows 0-31 -> 0-31 and 32-63
    return tile::TileLayout::make(
        {Iter{2, 64, lane}, Iter{32, 1, lane}, Iter{4, 1, col}},
        {Iter{2, 32, lane}});
  // 32x128b.warpx4: row r -> lanes r, r+32, r+64, r+96.
  return tile::TileLayout::make({Iter{32, 1, lane}, Iter{4, 1, col}},
                                {Iter{4, 32, lane}});
}

Expected<int> blockScaledScaleVec(BlockScaledKind kind, ScaleType sf,
                                  int blockSize) {
  const char *k = kind == BlockScaledKind::Mxf8f6f4 ? "mxf8f6f4"
                  : kind == BlockScaledKind::Mxf4   ? "mxf4"
                                                    : "mxf4nvf4";
  if (blockSize != 16 && blockSize != 32)
    return Diagnostic::error(std::string(k) + ": block size " +
                             std::to_string(blockSize) + " is not 16 or 32");
  if (sf == ScaleType::Ue4m3 && kind != BlockScaledKind::Mxf4nvf4)
    return Diagnostic::error(std::string(k) + " has no ue4m3 scale factors");
  if (sf == ScaleType::Ue4m3 && blockSize != 16)
    return Diagnostic::error(
        "mxf4nvf4 with ue4m3 scale factors needs block 16 (4X)");
  if (blockSize == 16 && kind != BlockScaledKind::Mxf4nvf4)
    return Diagnostic::error(std::string(k) + " has no block-16 (4X) scaling");
  if (blockSize == 16)
    return 4;
  return kind == BlockScaledKind::Mxf8f6f4 ? 1 : 2;
}

Expected<tile::TileLayout> tmemScaleFactorLayout(const TmemScaleFactors &s) {
  const Axis lane = Axis::TLane(), col = Axis::TCol(), byte = Axis::m();
  auto err = [](const std::string &w) {
    return Diagnostic::error("tcgen05 scale factors: " + w);
  };
  if (s.scaleVec != 1 && s.scaleVec != 2 && s.scaleVec != 4)
    return err("scale_vec " + std::to_string(s.scaleVec) +
               "X is not 1X, 2X or 4X");
  // SF_ID: 1X any byte 0..3; 2X the half 0 or 2; 4X must be 0 (§6.9).
  bool idOk = s.scaleVec == 1   ? (s.sfId >= 0 && s.sfId <= 3)
              : s.scaleVec == 2 ? (s.sfId == 0 || s.sfId == 2)
                                : s.sfId == 0;
  if (!idOk)
    return err("SF_ID " + std::to_string(s.sfId) + " is not allowed for " +
               std::to_string(s.scaleVec) + "X (1X: 0..3, 2X: 0 or 2, 4X: 0)");
  if (s.columnBase < 0 || s.columnBase >= 512)
    return err("column base " + str(s.columnBase) + " is outside 0..511");
  const int64_t E = s.rows;
  OffsetList off;
  if (s.columnBase != 0)
    off.push_back(AxisValue{col, s.columnBase});
  if (s.sfId != 0)
    off.push_back(AxisValue{byte, s.sfId});
  if (!s.twoByTwo) {
    if (E <= 0 || E % 32 != 0)
      return err(str(E) +
                 " rows is not a positive multiple of 32 (4x1 data path)");
    if (s.columnBase + E / 32 > 512)
      return err("columns exceed the 512 of TMEM");
    return tile::TileLayout::make(
        {Iter{E / 32, 1, col}, Iter{32, 1, lane}, Iter{s.scaleVec, 1, byte}},
        {Iter{4, 32, lane}}, std::move(off));
  }
  if (E <= 0 || E % 64 != 0)
    return err(str(E) +
               " rows is not a positive multiple of 64 (2x2 data path: "
               "each half of N is split into 32-lane blocks)");
  if (s.columnBase + E / 64 > 512)
    return err("columns exceed the 512 of TMEM");
  return tile::TileLayout::make({Iter{2, 64, lane}, Iter{E / 64, 1, col},
                                 Iter{32, 1, lane}, Iter{s.scaleVec, 1, byte}},
                                {Iter{2, 32, lane}}, std::move(off));
}

Expected<tile::TileLayout>
tmemPairScaleFactorLayout(const PairScaleFactors &p) {
  if (p.m != 128 && p.m != 256)
    return Diagnostic::error("tcgen05 scale factors: cta_group::2 has M = 128 "
                             "or 256, not " +
                             str(p.m));
  TmemScaleFactors one;
  one.scaleVec = p.scaleVec;
  one.sfId = p.sfId;
  one.columnBase = p.columnBase;
  if (p.operand == ScaleOperand::B) {
    // Multicast: each CTA holds the whole of SFB; a replica over the pair.
    one.rows = p.n;
    one.twoByTwo = p.m == 128;
    LK_TRY(tile::TileLayout perCta, tmemScaleFactorLayout(one));
    IterList replica = perCta.replica();
    replica.push_back(Iter{2, 1, Axis::cta()});
    return tile::TileLayout::make(perCta.shard(), std::move(replica),
                                  perCta.offset());
  }
  // Split by M: CTA c holds rows [c*M/2, (c+1)*M/2) on the 4x1 data path.
  one.rows = p.m / 2;
  LK_TRY(tile::TileLayout perCta, tmemScaleFactorLayout(one));
  IterList shard;
  shard.push_back(Iter{2, 1, Axis::cta()});
  for (const Iter &it : perCta.shard())
    shard.push_back(it);
  return tile::TileLayout::make(std::move(shard), perCta.replica(),
                                perCta.offset());
}

} // namespace lk::hw
