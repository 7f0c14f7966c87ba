//===- Analysis.h - Costs of a warp's memory access --------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What one warp's access costs, given who holds what and where it lives:
///
///  * the *distributed* layout is a tile layout over one lane axis and `m`
///    (m is the register slot); the analysis is of warp 0. The lane axis is
///    either `laneid` (a lane of the warp, values 0..31) or a block-wide
///    thread index, `tid` (or `tid_in_wg` within a warpgroup), of which
///    warp w is the threads 32w..32w+31:
///
///        lane = t mod 32,   warp = floor(t / 32),   warp 0 <=> 0 <= t < 32
///
///    so an element belongs to warp 0 when its thread index is below 32 and
///    every other thread axis (warpid, wgid, cta, ...) is 0; elements of
///    other warps are left out, not refused. Lane l holds in register r the
///    logical element(s) at {lane axis = l, m = r}.
///    Edge cases: laneid beyond 31 is refused (a warp has 32 lanes); a
///    layout naming both laneid and tid (or tid_in_wg) is refused, since
///    tid = 32 warpid + laneid already says which lane it is, and a thread
///    given twice is a contradiction, not a combination; no lane axis, or a
///    warp 0 that holds nothing, is refused with the reason.
///    Example: S[(8,16):(16@tid,1@m)] gives row i to thread 16 i; warp 0 is
///    threads 0 and 16 (rows 0 and 1), i.e. lanes 0 and 16; threads
///    32..112 (rows 2..7) belong to warps 1..3 and are not analysed. With
///    f32 row-major S[(8,16):(16,1)], the widest access is 16 bytes: 4
///    instructions, lane 0 at bytes 16k and lane 16 at 64 + 16k, one
///    wavefront for each of their two quarter-warp groups: 8 wavefronts
///    (the minimum), 8 sectors in 4 lines;
///  * the *memory* layout (tile::MemoryLayout) gives each logical element
///    its element address; elements have `elementBits` bits.
///
/// Each lane moves `accessBytes` per instruction: the registers
/// [k*v, (k+1)*v) with v = accessBytes * 8 / elementBits, which must sit at
/// consecutive, naturally aligned addresses. Instruction k of the warp is
/// then one access of the machine model (docs/hardware.md §1.3 for shared
/// memory, §7 for global memory).
///
/// Worked example (docs/hardware.md §1.3, docs/design.md §6.3): the
/// column read of an (8,64) f16 row-major tile, lane i holding (i, 0)
/// (distributed S[(8,64):(1@laneid,1@m)], register r = column r) is one
/// 2-byte access per lane at bytes 128 i: bank 0 eight times, 8 wavefronts;
/// through Swizzle(M=3,B=3,S=3) the addresses are 144 i: banks 4i, one
/// wavefront.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_ANALYSIS_H
#define LAYOUTKIT_HW_ANALYSIS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/tile/Bank.h"
#include "layoutkit/tile/TileLayout.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lk::hw {

/// One warp, its registers and the memory they come from or go to.
struct WarpAccess {
  tile::TileLayout distributed; ///< over laneid or tid, and m (register)
  tile::MemoryLayout memory;    ///< logical element -> element address
  int64_t elementBits = 16;
  int64_t accessBytes = 4; ///< per lane per instruction: 1, 2, 4, 8 or 16
};

/// The lanes' byte addresses of each instruction (-1: the lane holds
/// nothing in those registers). Fails when a lane's registers of one
/// instruction are not consecutive, aligned addresses, or when the
/// distributed layout names an axis other than its lane axis (laneid, tid
/// or tid_in_wg: exactly one), m and other thread axes (fixed at 0).
struct WarpInstructions {
  int64_t registersPerAccess = 1;                  ///< v
  std::vector<std::vector<int64_t>> laneAddresses; ///< [instruction][lane]
};
Expected<WarpInstructions> warpInstructions(const WarpAccess &a);

/// Shared-memory cost of the access, with an explanation per instruction.
struct SharedAccessReport {
  std::vector<int64_t> wavefronts; ///< per instruction
  int64_t total = 0;
  /// The conflict-free minimum: per instruction, one wavefront for each
  /// lane group (docs/hardware.md §1.3) that has an active lane.
  int64_t minimum = 0;
  /// Per instruction with more wavefronts than the minimum: which lanes of
  /// which lane group ask which bank for how many distinct words.
  std::string explanation;
};
Expected<SharedAccessReport> sharedAccess(const WarpAccess &a, Arch arch);

/// Global-memory cost (addresses taken as byte offsets from a 256-byte
/// aligned base).
struct GlobalAccessReport {
  std::vector<GlobalMemoryModel::Transactions> perInstruction;
  int64_t sectors = 0;
  int64_t lines = 0;
  /// The fewest sectors the same bytes could touch: per instruction,
  /// max(1, ceil(distinct bytes / sectorBytes)), 0 for an instruction
  /// without an active lane (a register index with no element, e.g.
  /// S[(32,32):(32@m,1@laneid)]'s 961 empty m values), summed. The access
  /// is coalesced when sectors == minimumSectors.
  int64_t minimumSectors = 0;
  /// The distinct bytes the lanes read, summed over the instructions: at
  /// most active lanes x accessBytes, less when lanes read the same bytes
  /// (a broadcast), so efficiency never exceeds 1.
  int64_t requestedBytes = 0;
  /// requestedBytes / (sectors x sectorBytes): the share of the sectors'
  /// bytes the warp uses (1 when no sector is touched).
  double efficiency = 1.0;
  std::string explanation;
};
Expected<GlobalAccessReport> globalAccess(const WarpAccess &a, Arch arch);

/// The widest access (bytes, a power of two <= 16) every lane can use: its
/// registers [k*v, (k+1)*v) are at consecutive, v-aligned addresses for
/// every k. At least one element (elementBits / 8 bytes, or 1 for narrower
/// types). Fails when elementBits is outside [1, 1024].
Expected<int64_t> vectorBytes(const tile::TileLayout &distributed,
                              const tile::MemoryLayout &memory,
                              int64_t elementBits);

/// The cost of one ldmatrix / stmatrix .x1/.x2/.x4 (docs/hardware.md §3, §1.3
/// [MODEL]): lane 8j + r supplies the address of row r of matrix j, a
/// 16-byte row of `memory` starting at logical element rowStarts[8j + r]
/// (its 128 / elementBits elements must be consecutive and 16-byte
/// aligned). matrices = rowStarts.size() / 8 must be 1, 2 or 4.
/// Example (the sheet's): x4 rows at bytes 2048 j + 128 r -> 32 wavefronts;
/// the same through the 128B swizzle -> 4.
struct MatrixAccessReport {
  int64_t wavefronts = 0;
  int64_t minimum = 0; ///< one per matrix
  std::string explanation;
};
Expected<MatrixAccessReport> matrixAccess(const tile::MemoryLayout &memory,
                                          int64_t elementBits,
                                          std::span<const int64_t> rowStarts,
                                          Arch arch);

/// Logical elements held by more than one (lane, register) slot of the
/// warp: the flat index and its holders.
struct Replica {
  int64_t element = 0;
  std::vector<std::pair<int64_t, int64_t>> holders; ///< (lane, register)
};
struct ReplicationReport {
  std::vector<Replica> replicated;
  std::string explanation; ///< "no element is held twice" or one line each
};
Expected<ReplicationReport> replication(const tile::TileLayout &distributed);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_ANALYSIS_H
