//===- Machine.h - The hardware model as data --------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The memory hierarchy of one GPU architecture (sm_80 Ampere, sm_90 Hopper,
/// sm_100 Blackwell) as a table of numbers: shared memory banks and
/// wavefronts, global-memory sectors and lines, tensor memory geometry. Every
/// number is ground truth from docs/hardware.md (§1, §6.1-6.2, §7) and
/// is checked by tests/hw/MachineTest.cpp. The code reads the table; it does
/// not branch on the architecture.
///
/// Shared memory (docs/hardware.md §1, all three architectures):
///   32 banks x 4 bytes; bank(a) = (a >> 2) & 31, row(a) = a >> 7.
///   One conflict-free pass (a "wavefront") moves at most 128 bytes.
///   Lanes of a w-byte access are processed in groups [MODEL, UNVERIFIED for
///   w = 8, 16]:
///     w = 1, 2, 4  one group of 32 lanes      minimum 1 wavefront
///     w = 8        lanes 0-15, 16-31          minimum 2
///     w = 16       lanes 0-7, 8-15, ...       minimum 4
///   Per group: wavefronts = max over banks of the number of distinct 32-bit
///   words asked of that bank; lanes touching the same word are served
///   together (broadcast for loads; for stores one writer wins).
///
///   Example: 32-bit access, lane i at 8*i -> words 0,2,4,...,62 -> banks
///   0,2,...,30 hold two words each -> 2 wavefronts.
///
/// Global memory (docs/hardware.md §7, CC 6.0+):
///   a warp access costs one transaction per distinct 32-byte sector;
///   128-byte lines = 4 sectors are the tag unit.
///   Example: 4-byte access at 4 + 4*i -> bytes 4..131 -> sectors 0..4 (5),
///   lines 0..1 (2).
///
/// Tensor memory (docs/hardware.md §6.1-6.2, sm_100 only):
///   128 lanes x 512 columns of 32-bit cells (256 KiB per CTA). Address
///   taddr = (lane << 16) | column.
///   tcgen05.alloc takes a power-of-two number of columns in [32, 512] (unit:
///   whole columns of all 128 lanes). Warp w may touch only lanes
///   [32*(w%4), 32*(w%4)+32): warp 0 -> 0-31, 1 -> 32-63, 2 -> 64-95,
///   3 -> 96-127, warp 5 -> 32-63.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_MACHINE_H
#define LAYOUTKIT_HW_MACHINE_H

#include "layoutkit/core/Expected.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace lk::hw {

/// The architectures LayoutKit models.
enum class Arch : uint8_t { Sm80, Sm90, Sm100 };

/// How the lanes of a warp's shared-memory access of one width are split
/// into groups that the hardware serves one after another
/// (docs/hardware.md §1.3).
struct LaneGrouping {
  int64_t accessBytes = 0;   ///< bytes per lane: 1, 2, 4, 8 or 16
  int64_t lanesPerGroup = 0; ///< 32, 32, 32, 16, 8
  int64_t groups = 0;        ///< 1, 1, 1, 2, 4
  int64_t minWavefronts = 0; ///< conflict-free minimum: 1, 1, 1, 2, 4
  /// False where the sheet marks the grouping UNVERIFIED (8 and 16 bytes).
  bool verified = false;
};

/// Shared memory banks and wavefronts (docs/hardware.md §1).
struct SharedMemoryModel {
  int64_t banks = 0;          ///< 32
  int64_t bankWidthBytes = 0; ///< 4
  int64_t wavefrontBytes = 0; ///< 128 bytes per conflict-free pass
  /// One row per legal access width, ascending.
  std::array<LaneGrouping, 5> groupings{};
  /// Loads: lanes reading the same 32-bit word (any bytes of it) are served
  /// in one pass, several words at once ("multicast").
  bool loadBroadcast = false;
  /// Stores: several lanes writing the same address do not conflict; one of
  /// them wins, which one is unspecified.
  bool storeOneWriterWins = false;

  /// (a / 4) mod 32: address bits [6:2]. @pre a >= 0
  int64_t bankOf(int64_t byteAddress) const {
    return (byteAddress / bankWidthBytes) % banks;
  }
  /// The 32-bit word a >> 2.
  int64_t wordOf(int64_t byteAddress) const {
    return byteAddress / bankWidthBytes;
  }
  /// The 128-byte row a >> 7 (the word's "row" in its bank).
  int64_t rowOf(int64_t byteAddress) const {
    return byteAddress / (bankWidthBytes * banks);
  }
  /// The grouping for `accessBytes`; error "shared-memory access width 3 B
  /// is not supported (allowed: 1, 2, 4, 8, 16)".
  Expected<LaneGrouping> grouping(int64_t accessBytes) const;

  /// Wavefronts of one warp access under the §1.3 counting model:
  /// `laneAddresses[i]` is lane i's byte address, or a negative value for an
  /// inactive lane (at most 32 lanes). Each active lane touches the
  /// max(1, w/4) words from a >> 2. Per lane group: max over banks of the
  /// distinct words in that bank (at least 1 when the group has an active
  /// lane); the total sums the groups. Fails on a width not in the table, on
  /// more than 32 lanes and on an address not aligned to the width.
  /// Examples (docs/hardware.md §1.3 table): 32-bit 4*i -> 1; 8*i -> 2;
  /// 12*i -> 1; 128*i -> 32; 128-bit 16*i -> 4; 128-bit 128*i -> 32.
  Expected<int64_t> wavefronts(std::span<const int64_t> laneAddresses,
                               int64_t accessBytes) const;
  /// ldmatrix / stmatrix .x1/.x2/.x4 [MODEL, UNVERIFIED]: matrix j's eight
  /// 16-byte rows (rowAddresses[8j .. 8j+7]) form one group of a 16-byte
  /// access; wavefronts = sum over matrices. So an 8x16 B matrix is
  /// conflict-free (1 wavefront) iff its slots (row >> 4) & 7 are distinct.
  /// @p matrices is 1, 2 or 4 and rowAddresses holds 8 * matrices addresses,
  /// each 16-byte aligned.
  /// Examples: x4 rows 2048*j + 128*r -> 32; the same through SW128 -> 4.
  Expected<int64_t> ldmatrixWavefronts(std::span<const int64_t> rowAddresses,
                                       int64_t matrices) const;
};

/// Sectors and lines of global memory (docs/hardware.md §7).
struct GlobalMemoryModel {
  int64_t sectorBytes = 0;     ///< 32: the transfer unit
  int64_t lineBytes = 0;       ///< 128: the L1/L2 tag unit
  int64_t mallocAlignment = 0; ///< 256: cudaMalloc results are aligned to it
  /// Legal per-lane access widths (each access naturally aligned).
  std::array<int64_t, 5> accessWidths{};

  int64_t sectorsPerLine() const { return lineBytes / sectorBytes; }
  int64_t sectorOf(int64_t byteAddress) const {
    return byteAddress / sectorBytes;
  }
  int64_t lineOf(int64_t byteAddress) const { return byteAddress / lineBytes; }

  struct Transactions {
    int64_t sectors = 0; ///< distinct 32-byte sectors touched
    int64_t lines = 0;   ///< distinct 128-byte lines touched
    bool operator==(const Transactions &) const = default;
  };
  /// Sectors and lines of one warp access: lane i reads accessBytes bytes
  /// from laneAddresses[i] (negative = inactive). Fails on a width not in
  /// accessWidths and on an address that is not a multiple of the width.
  /// Examples (docs/hardware.md §7): 4 B at 4*i -> {4, 1}; 4 + 4*i -> {5, 2};
  /// 16 B at 16*i -> {16, 4}; 8 B at 16 + 8*i -> {9, 3}.
  Expected<Transactions> transactions(std::span<const int64_t> laneAddresses,
                                      int64_t accessBytes) const;
};

/// Tensor memory (docs/hardware.md §6.1-6.2). Absent (present == false) before
/// sm_100; every query then fails with "<arch> has no tensor memory".
struct TensorMemoryModel {
  bool present = false;
  int64_t lanes = 0;    ///< 128 rows
  int64_t columns = 0;  ///< 512 columns
  int64_t cellBits = 0; ///< 32 bits per (lane, column) cell
  /// tcgen05.alloc: nCols is a power of two in [allocMinColumns,
  /// allocMaxColumns]; the unit is whole columns (all lanes).
  int64_t allocMinColumns = 0; ///< 32 (CUTLASS ColumnsPerAllocationSlice)
  int64_t allocMaxColumns = 0; ///< 512
  /// Lanes a warp may access: [lanesPerWarp * (w % warpsPerCycle),
  /// +lanesPerWarp).
  int64_t lanesPerWarp = 0;      ///< 32
  int64_t warpsPerCycle = 0;     ///< 4 (the warps of a warpgroup)
  int64_t laneShift = 0;         ///< 16: taddr = (lane << 16) | column
  uint32_t validAddressMask = 0; ///< 0x007F01FF (lane < 128, column < 512)

  /// lanes * columns * cellBits / 8 = 262144 (256 KiB).
  int64_t bytes() const { return lanes * columns * cellBits / 8; }
};

/// [first, first + count) of TMEM lanes.
struct LaneWindow {
  int64_t first = 0;
  int64_t count = 0;
  bool operator==(const LaneWindow &) const = default;
};

/// A TMEM cell address split into its fields.
struct TmemCoord {
  int64_t lane = 0;
  int64_t column = 0;
  bool operator==(const TmemCoord &) const = default;
};

/// One architecture: name, the instructions that matter to layouts, and the
/// three memory models.
struct Machine {
  Arch arch = Arch::Sm80;
  std::string_view name;         ///< "sm_80", "sm_90", "sm_100"
  int64_t computeCapability = 0; ///< 80, 90, 100
  int64_t warpSize = 0;          ///< 32
  /// Warps in a warpgroup (4) where warpgroup instructions exist (wgmma on
  /// sm_90, tcgen05 lane windows on sm_100); 0 on sm_80.
  int64_t warpsPerWarpgroup = 0;
  bool hasLdmatrix = false; ///< sm_75+
  bool hasStmatrix = false; ///< sm_90+
  bool hasWgmma = false;    ///< sm_90a
  bool hasTma = false;      ///< sm_90+
  /// TMA swizzles 128B_ATOM_32B / _FLIP_8B / _ATOM_64B (sm_100+).
  bool hasTmaAtomSwizzles = false;
  bool hasTcgen05 = false; ///< sm_100a
  /// The most shared memory one CTA may use (dynamic, opted in with
  /// cudaFuncAttributeMaxDynamicSharedMemorySize): 163 KiB = 166912 B on
  /// sm_80, 227 KiB = 232448 B on sm_90 and sm_100.
  int64_t sharedBytesPerCta = 0;
  SharedMemoryModel smem;
  GlobalMemoryModel gmem;
  TensorMemoryModel tmem;

  /// tcgen05.alloc nCols: a power of two in [32, 512]. Errors name the
  /// value and the rule, e.g. "tcgen05.alloc: 48 columns is not a power of
  /// two in [32, 512]".
  Status checkTmemAllocation(int64_t columns) const;
  /// The lanes warp `warpIdInCta` may access with tcgen05.ld/st.
  /// Example: warp 6 -> {64, 32}.
  Expected<LaneWindow> tmemLaneWindow(int64_t warpIdInCta) const;
  /// Ok when warp `warpIdInCta` may access TMEM lane `lane`; otherwise e.g.
  /// "warp 5 (warp 1 of its warpgroup) may access TMEM lanes 32..63, not
  /// lane 70".
  Status checkTmemAccess(int64_t warpIdInCta, int64_t lane) const;
  /// (lane << 16) | column, for lane < 128 and column < 512.
  Expected<uint32_t> tmemAddress(int64_t lane, int64_t column) const;
  /// The inverse; fails on bits outside validAddressMask.
  Expected<TmemCoord> decodeTmemAddress(uint32_t taddr) const;
};

/// The table row for `arch`.
const Machine &machine(Arch arch);
/// Every modelled architecture, oldest first.
std::span<const Machine> machines();
/// "sm_80", "sm_90", "sm_90a", "sm_100", "sm_100a" (also without the
/// underscore). Error: "unknown architecture 'sm_70' (known: sm_80, sm_90,
/// sm_100)".
Expected<Arch> parseArch(std::string_view name);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_MACHINE_H
