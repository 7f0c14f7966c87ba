//===- TilePresets.cpp - Hardware tile layouts, as a table ----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TilePresets.h"

#include "layoutkit/core/Checked.h"
#include "layoutkit/tile/TileText.h"

#include <cstdlib>
#include <string>

namespace lk::tile {
namespace {

constexpr int64_t kShape8x16[] = {8, 16};
constexpr int64_t kShape8x8[] = {8, 8};
constexpr int64_t kShapeTmem[] = {2, 128, 112};
constexpr int64_t kShape32x4[] = {32, 4};
constexpr int64_t kShape64x64[] = {64, 64};
constexpr int64_t kShapeScratch[] = {256, 512};
constexpr int64_t kShape8x64[] = {8, 64};

const Preset kPresets[] = {
    {"tensor_core_8x16",
     "(8,16) tensor-core tile over 2 warps, replicated to warps +4, offset 5",
     "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
     kShape8x16},
    {"mma_m8n8_fragment", "m8n8 MMA fragment: 32 lanes x 2 registers",
     "S[(8,4,2):(4@laneid,1@laneid,1)]", kShape8x8},
    {"tmem_accumulator", "Blackwell TMEM accumulator: 128 lanes x 224 columns",
     "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]", kShapeTmem},
    {"scale_factor_atom",
     "block-scaled MMA scale-factor atom, warpx4 replica (sf_per_mma = 4)",
     "S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]", kShape32x4},
    {"device_mesh_4x2",
     "rows sharded over 4 devices, replicated over a second mesh dimension of "
     "2",
     "S[(4,16,64):(1@pid,64,1)] + R[2:4@pid]", kShape64x64},
    {"scratchpad_2x128x512",
     "2-D scratchpad: 128 partitions (P) x free dimension (F)",
     "S[(2,128,512):(512@F,1@P,1@F)]", kShapeScratch},
    {"smem_row_major_8x64",
     "(8,64) row-major shared-memory tile (bank-conflict example)",
     "S[(8,64):(64,1)]", kShape8x64},
};

} // namespace

TileLayout Preset::layout() const {
  Expected<TileLayout> l = parseTileLayout(text);
  if (!l)
    std::abort(); // the table is tested: every text parses
  return *l;
}

std::span<const Preset> presets() { return kPresets; }

Expected<const Preset *> findPreset(std::string_view name) {
  for (const Preset &p : kPresets)
    if (p.name == name)
      return &p;
  std::string known;
  for (const Preset &p : kPresets)
    known += (known.empty() ? "" : ", ") + std::string(p.name);
  return Diagnostic::error("unknown preset '" + std::string(name) + "'")
      .note("presets: " + known);
}

Expected<TiledLayout> scaleFactorLayout(const ScaleFactorParams &p) {
  auto positive = [](int64_t v, const char *what) -> Status {
    if (v < 1)
      return Diagnostic::error(std::string("scale factors: ") + what + " " +
                               std::to_string(v) + " must be at least 1");
    return Ok{};
  };
  LK_CHECK(positive(p.rows, "rows"));
  LK_CHECK(positive(p.groups, "groups"));
  LK_CHECK(positive(p.sfPerMma, "sf_per_mma"));
  LK_CHECK(positive(p.sfBits, "SF_bits"));
  LK_CHECK(positive(p.reuse, "reuse"));
  LK_CHECK(positive(p.pipeDepth, "pipe_depth"));
  if (p.rows % 32 != 0)
    return Diagnostic::error("scale factors: rows " + std::to_string(p.rows) +
                             " must be a multiple of 32 (the atom's rows)");
  if (p.groups % p.sfPerMma != 0)
    return Diagnostic::error("scale factors: " + std::to_string(p.groups) +
                             " groups are not a multiple of sf_per_mma " +
                             std::to_string(p.sfPerMma));
  if (32 % p.sfBits != 0)
    return Diagnostic::error("scale factors: SF_bits " +
                             std::to_string(p.sfBits) +
                             " does not divide the 32-bit TCol cell");
  int64_t epc = 32 / p.sfBits;
  if (p.sfPerMma % epc != 0)
    return Diagnostic::error(
        "scale factors: sf_per_mma " + std::to_string(p.sfPerMma) +
        " is not a multiple of epc = 32 / SF_bits = " + std::to_string(epc));
  int64_t cpm = p.sfPerMma / epc;

  // The atom, packed.
  LK_TRY(TileLayout atom, TileLayout::make({{32, 1, Axis::TLane()},
                                            {p.sfPerMma, 1, Axis::TCol()}},
                                           {{4, 32, Axis::TLane()}}));
  if (epc > 1) {
    LK_TRY(atom, packIter(atom, 1, epc, Axis::m()));
  }
  // The outer over (M/32 row blocks, K/sf_per_mma MMA blocks).
  int64_t rowBlocks = p.rows / 32, mmaBlocks = p.groups / p.sfPerMma;
  LK_TRY(int64_t kStride, checkedMul(rowBlocks, cpm, "the MMA-block stride"));
  LK_TRY(TileLayout outer,
         TileLayout::make({{rowBlocks, cpm, Axis::TCol()},
                           {mmaBlocks, kStride, Axis::TCol()}}));
  const int64_t outerShape[] = {rowBlocks, mmaBlocks};
  const int64_t atomShape[] = {32, p.sfPerMma};
  LK_TRY(TiledLayout grid, tileProduct(outer, outerShape, atom, atomShape));
  // Pipeline stages and stride-0 reuse in front.
  LK_TRY(int64_t stageCols, checkedMul(kStride, mmaBlocks, "the stage width"));
  LK_TRY(TileLayout front,
         TileLayout::make({{p.pipeDepth, stageCols, Axis::TCol()},
                           {p.reuse, 0, Axis::TCol()}}));
  TiledLayout out;
  LK_TRY(out.layout, directSum(front, grid.layout));
  out.shape = {p.pipeDepth, p.reuse, p.rows, p.groups};
  return out;
}

} // namespace lk::tile
