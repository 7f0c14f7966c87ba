//===- AtomTmem.h - Tensor-memory placements of tcgen05 ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where Blackwell's tcgen05 puts data in tensor memory (TMEM: 128 lanes x
/// 512 columns of 32-bit cells, docs/hardware.md §6.1). Unlike the register
/// atoms of Atom.h these are not (thread, value) maps but placements of a
/// logical tile on the TMEM axes, so each is a tile layout
/// (tile/TileLayout.h) over
///
///   TLane  TMEM lane          TCol  TMEM column (32-bit cell)
///   cta    CTA of the pair    m     byte inside the 32-bit cell (scale
///                                   factors only)
///
/// relative to the base address (L0, C0) given in the parameters.
///
/// ## Accumulator D (docs/hardware.md §6.4), logical shape (M, N)
///
///   M=64,  cta_group::1 (layout F)  TLane = L0 + 32*(m>>4) + (m&15)
///          S[(4,16,N):(32@TLane,1@TLane,1@TCol)] + L0@TLane + C0@TCol
///   M=128, cta_group::1 (layout D)  TLane = m, TCol = C0 + n
///          S[(128,N):(1@TLane,1@TCol)]
///   M=128, cta_group::2 (layout B)  cta = m div 64,
///          TLane = (m mod 64) + 64*(n >= N/2), TCol = C0 + (n mod N/2)
///          S[(2,64,2,N/2):(1@cta,1@TLane,64@TLane,1@TCol)]
///   M=256, cta_group::2 (layout A)  cta = m div 128, TLane = m mod 128
///          S[(2,128,N):(1@cta,1@TLane,1@TCol)]
///   M=32 .ws (G)  TLane = m + 32*(n div (N/4)), TCol = n mod N/4
///   M=64 .ws (E)  TLane = m + 64*(n div (N/2)), TCol = n mod N/2
///
/// Worked example: M=128, cta_group::2, N=64: D(70, 40) is on cta 1 (70 div
/// 64), lane 6 + 64 = 70 (40 >= 32), column 40 - 32 = 8.
///
/// The CTA split (peer 0 holds the first half of M) follows the CUTLASS
/// comments and is UNVERIFIED against PTX text (§6.4).
///
/// ## tcgen05.cp (docs/hardware.md §6.8)
///
/// Logical shape (source rows, 32-bit words).
///
///   .128x256b  S[(128,8):(1@TLane,1@TCol)]      .128x128b  (128,4)
///   .4x256b    S[(4,8):(32@TLane,1@TCol)]  (one lane per 32-lane window;
///              CUTLASS model, UNVERIFIED)
///   .64x128b.warpx2::02_13  S[(2,32,4):(32@TLane,1@TLane,1@TCol)] +
///   R[2:64@TLane] .64x128b.warpx2::01_23 S[(2,32,4):(64@TLane,1@TLane,1@TCol)]
///   + R[2:32@TLane] .32x128b.warpx4         S[(32,4):(1@TLane,1@TCol)] +
///   R[4:32@TLane]
///
/// ## Block-scaled MMA scale factors (docs/hardware.md §6.9)
///
/// Logical shape (E, NSF).
///
/// E = M (SFA) or N (SFB) rows, NSF scale factors per row per MMA (1X: 1,
/// 2X: 2, 4X: 4); SF_ID s picks the byte inside the cell:
///
///   4x1 data path: TLane = (e mod 32) + 32*rep (rep 0..3), TCol = C0 + e div
///   32,
///                  byte = s + j
///     S[(E/32,32,NSF):(1@TCol,1@TLane,1)] + R[4:32@TLane] + C0@TCol + s
///   2x2 data path (SFB, cta_group::2, M=128): h = n div (N/2), n' = n mod N/2,
///                  TLane = (n' mod 32) + 64h + 32*rep (rep 0..1),
///                  TCol = C0 + n' div 32, byte = s + j
///     S[(2,N/64,32,NSF):(64@TLane,1@TCol,1@TLane,1)] + R[2:32@TLane] + ...
///
/// Worked example: mxf4nvf4 4X (block 16), SFA of M=128, s = 0: SF j=2 of
/// row 70 is on lanes {6, 38, 70, 102}, column C0 + 2, byte 2.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_ATOMTMEM_H
#define LAYOUTKIT_HW_ATOMTMEM_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/tile/TileLayout.h"

#include <cstdint>
#include <string_view>

namespace lk::hw {

/// The MMA whose accumulator is placed (docs/hardware.md §6.4, shapes §6.7).
struct TmemAccumulator {
  int64_t m =
      128; ///< 64 or 128 (cta_group::1), 128 or 256 (::2); 32/64 for .ws
  int64_t n =
      256; ///< ::1: 8..256 step 8; ::2: 16..256 step 16; .ws: 64/128/256
  int ctaGroup = 1;       ///< 1 or 2
  bool ws = false;        ///< the .ws variants (layouts E and G)
  int64_t laneBase = 0;   ///< L0: 0, or 16 for M=64 ::1 (layout F)
  int64_t columnBase = 0; ///< C0: 0..511; C0 + columns used <= 512
};

/// D(m, n) -> {cta?, TLane, TCol} over logical shape (M, N); see the file
/// comment. Errors name the rule, e.g. "tcgen05 accumulator: N = 20 is not
/// in 16..256 step 16 for cta_group::2".
Expected<tile::TileLayout> tmemAccumulatorLayout(const TmemAccumulator &a);

/// tcgen05.cp shapes: ".128x256b", ".128x128b", ".4x256b",
/// ".64x128b.warpx2::02_13", ".64x128b.warpx2::01_23", ".32x128b.warpx4"
/// (leading '.' optional). Logical shape (rows, 32-bit words per row).
Expected<tile::TileLayout> tmemCopyLayout(std::string_view shape);
/// The logical shape of a tcgen05.cp shape: (128,8), (128,4), (4,8), (64,4),
/// (32,4).
Expected<std::vector<int64_t>> tmemCopyShape(std::string_view shape);

/// Scale-factor placement of a block-scaled MMA (docs/hardware.md §6.9).
struct TmemScaleFactors {
  int64_t rows =
      128; ///< E: M for SFA, N for SFB (a multiple of 32; of 64 for 2x2)
  int scaleVec = 1; ///< 1 (1X), 2 (2X) or 4 (4X): scale factors per row per MMA
  int sfId = 0;     ///< byte offset in the cell: 1X 0..3, 2X 0 or 2, 4X 0
  bool twoByTwo = false;  ///< the 2x2 data path (SFB under cta_group::2, M=128)
  int64_t columnBase = 0; ///< C0
};

/// The block-scaled kinds of tcgen05.mma (docs/hardware.md §6.9 table).
enum class BlockScaledKind { Mxf8f6f4, Mxf4, Mxf4nvf4 };
/// Scale-factor element types.
enum class ScaleType { Ue8m0, Ue4m3 };

/// scale_vec (1, 2 or 4 scale factors per row per MMA of K = 32 / 64) of a
/// kind, scale type and block size (K elements per scale factor), per the
/// §6.9 table:
///   mxf8f6f4  ue8m0         block 32 -> 1X
///   mxf4      ue8m0         block 32 -> 2X
///   mxf4nvf4  ue8m0         block 32 -> 2X
///   mxf4nvf4  ue8m0 / ue4m3 block 16 -> 4X
/// Other combinations fail, e.g. "mxf4 has no ue4m3 scale factors".
/// (K = 96 forms use 3 / 6 factors; UNVERIFIED in the sheet, not modelled.)
Expected<int> blockScaledScaleVec(BlockScaledKind kind, ScaleType sf,
                                  int blockSize);

/// (e, j) -> {TLane, TCol, m = byte} over logical shape (rows, scaleVec),
/// replicated on every 32-lane window (4x1) or on the two windows of each
/// half (2x2).
Expected<tile::TileLayout> tmemScaleFactorLayout(const TmemScaleFactors &s);

/// The scale factors of one operand of a cta_group::2 block-scaled MMA
/// across the CTA pair, as a tile layout over (cta, TLane, TCol, m = byte).
/// [MODEL, UNVERIFIED: docs/hardware.md §6.9 leaves the per-CTA share beyond
/// the data paths unverified; this is the documented CUTLASS arrangement.]
///
///   SFA, split by M: CTA c holds the scale factors of its own M/2 rows of A
///     (rows [c*M/2, (c+1)*M/2)), each CTA on the 4x1 data path:
///     S[(2,M/64,32,NSF):(1@cta,1@TCol,1@TLane,1)] + R[4:32@TLane] + ...
///   SFB, multicast: both CTAs hold all N rows of B's scale factors — on the
///     4x1 data path for M = 256, on the 2x2 data path for M = 128:
///     <the cta_group::1 layout of N rows> + R[2:1@cta]
///
/// Example: SFA of M = 256, 1X, s = 0: row 200 is on cta 1, lanes
/// {8, 40, 72, 104}, column C0 + 2, byte 0.
enum class ScaleOperand { A, B };
struct PairScaleFactors {
  ScaleOperand operand = ScaleOperand::A;
  int64_t m = 256;        ///< the MMA's M: 128 or 256 (cta_group::2)
  int64_t n = 256;        ///< the MMA's N (the rows of SFB)
  int scaleVec = 1;       ///< 1X, 2X or 4X
  int sfId = 0;           ///< SF_ID (byte in the cell)
  int64_t columnBase = 0; ///< C0 in each CTA's TMEM
};
Expected<tile::TileLayout> tmemPairScaleFactorLayout(const PairScaleFactors &p);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_ATOMTMEM_H
