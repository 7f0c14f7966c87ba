//===- TilePresets.h - Hardware tile layouts, as a table ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The hardware tile layouts of docs/design.md §6.2 as a table of data,
/// each with the logical shape it is meant for:
///
///   name                   layout shape tensor_core_8x16
///   S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]
///                            + R[2:4@warpid] + 5@warpid (8,16)
///       laneid = 4i + floor(j/2) mod 4, warpid = floor(j/8) + 5 + 4r,
///       m = j mod 2; element (0,0) on warps {5,9}, (0,8) on {6,10}
///   mma_m8n8_fragment      S[(8,4,2):(4@laneid,1@laneid,1)] (8,8)
///       laneid = 4i + floor(j/2), m = j mod 2
///   tmem_accumulator       S[(2,128,112):(112@TCol,1@TLane,1@TCol)]
///   (2,128,112)
///       TLane = l, TCol = 112a + c: 128 lanes x 224 columns
///   scale_factor_atom      S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane] (32,4)
///       sf_per_mma = 4; TLane = i + 32r (warpx4), TCol = k
///   device_mesh_4x2        S[(4,16,64):(1@pid,64,1)] + R[2:4@pid] (64,64)
///       rows sharded over devices 0..3 (16 rows each, row-major in m),
///       replicated on devices 4..7: pid = floor(i/16) + 4r, m = 64(i mod 16) +
///       j
///   scratchpad_2x128x512   S[(2,128,512):(512@F,1@P,1@F)] (256,512)
///       P = i mod 128, F = 512 floor(i/128) + j
///   smem_row_major_8x64    S[(8,64):(64,1)] (8,64)
///       m = 64i + j (the bank example, docs/design.md §6.3)
///
/// The scale-factor layout of a block-scaled MMA is parametric and built
/// from the atom with the operations of TileOps.h (scaleFactorLayout):
///
///   atom   S[(32, sf_per_mma):(1@TLane, 1@TCol)] + R[4:32@TLane]
///   pack   epc = 32 / SF_bits scale factors per 32-bit TCol cell: the
///          sf_per_mma iter becomes (sf_per_mma/epc, 1@TCol), (epc, 1@m)
///   outer  (M/32 row blocks, K/sf_per_mma MMA blocks) on TCol, tiled with
///          the atom over the logical (M, K) scale-factor grid
///   front  (pipe_depth : stage_cols@TCol) stages, and a stride-0
///          (reuse : 0@TCol) iter for MMAs that reuse the same factors
///
/// giving, for logical (p, u, i, k) of shape (pipe_depth, reuse, M, K):
///
///   TLane = i mod 32 + 32r                          (r in [0,4): warpx4)
///   TCol  = p*stage_cols + floor(i/32)*cpm + floor(k/sf_per_mma)*(M/32)*cpm
///           + floor((k mod sf_per_mma)/epc)
///   m     = k mod epc                               (only when epc > 1)
///
/// with cpm = sf_per_mma/epc columns per MMA and stage_cols =
/// (M/32)*(K/sf_per_mma)*cpm.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TILE_TILEPRESETS_H
#define LAYOUTKIT_TILE_TILEPRESETS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/tile/TileLayout.h"
#include "layoutkit/tile/TileOps.h"

#include <span>
#include <string_view>
#include <vector>

namespace lk::tile {

/// One row of the preset table.
struct Preset {
  std::string_view name;
  std::string_view summary;
  /// The canonical text (TileText.h).
  std::string_view text;
  /// The logical shape the layout is meant for.
  std::span<const int64_t> shape;

  /// The parsed layout (the table is tested to parse).
  TileLayout layout() const;
};

/// Every preset, in the order of the table above.
std::span<const Preset> presets();

/// The preset called `name`, or "unknown preset 'x'" with a note listing them.
Expected<const Preset *> findPreset(std::string_view name);

/// Parameters of the block-scaled MMA scale-factor layout in tensor memory.
struct ScaleFactorParams {
  int64_t rows = 128;   ///< M; a multiple of 32
  int64_t groups = 8;   ///< K scale-factor groups; a multiple of sfPerMma
  int64_t sfPerMma = 4; ///< scale factors per MMA along K
  int64_t sfBits = 8;   ///< bits per scale factor; divides 32 (epc = 32/sfBits)
  int64_t reuse = 1;    ///< MMAs reusing one set of factors (stride-0 iter)
  int64_t pipeDepth = 1; ///< pipeline stages (outer iter)
};

/// The scale-factor layout (see above), for logical shape
/// (pipeDepth, reuse, rows, groups).
Expected<TiledLayout> scaleFactorLayout(const ScaleFactorParams &p);

} // namespace lk::tile

#endif // LAYOUTKIT_TILE_TILEPRESETS_H
