//===- TmaDescriptor.h - TMA tensor-map descriptions -------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A tiled TMA tensor map (what `cuTensorMapEncodeTiled` takes) as a value,
/// checked against the constraints of docs/hardware.md §5.2, and the
/// shared-memory layout one box lands in (§5.1). The tensor map object itself
/// is opaque (128 bytes, no documented bit layout), so there is no bit encoding
/// here; the enumerator codes are those of cuda.h (CUtensorMapDataType,
/// CUtensorMapInterleave, CUtensorMapSwizzle).
///
/// Dimensions are innermost first (dimension 0 is contiguous in global
/// memory). Units: globalDims, boxDims in ELEMENTS; globalStrides and
/// addresses in BYTES; globalStrides[i] is the stride of dimension i + 1
/// (rank - 1 entries, dimension 0 is dense).
///
/// Constraints checked (docs/hardware.md §5.2; "driver" = cuda.h doc of
/// cuTensorMapEncodeTiled, "guide" = CUDA programming guide table):
///   * rank 1..5; rank >= 3 with interleave;
///   * boxDim[i] in 1..256; elementStrides[i] in 1..8; globalDim[i] in
///     1..2^32 (driver);
///   * inner box bytes (boxDim[0] * element size in shared memory): with
///     INTERLEAVE_NONE a multiple of 16 B, and <= the swizzle span (32 /
///     64 / 128 B) when swizzled;
///   * global address 16-byte aligned (32 B for INTERLEAVE_32B and the
///     16U4 / 16U6 packed types); global strides multiples of 16 B (32 B
///     for those) and < 2^40;
///   * guide: 128-byte global alignment for the swizzled modes, and a
///     128-byte aligned shared-memory address for every mode (checked when
///     sharedAddress is set);
///   * INTERLEAVE_32B requires SWIZZLE_32B; 16U6_ALIGN16B allows only
///     NONE, 128B, 128B_ATOM_32B (and 128B_ATOM_64B for stores);
///     16U4_ALIGN16B only NONE, 128B, 128B_ATOM_32B;
///   * the target has TMA (sm_90+) and, for the 128B_ATOM_* modes, sm_100.
///
/// Example: bf16, globalDims (4096, 4096), globalStrides (8192), box
/// (64, 128), 128B swizzle: inner box = 64 * 2 = 128 B = the span: valid.
/// The same with box (128, 128): "TMA description: field 'boxDim[0]' = 128
/// (256 B per row); allowed: at most 128 B per row with swizzle 128B".
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_TMADESCRIPTOR_H
#define LAYOUTKIT_HW_TMADESCRIPTOR_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/hw/Machine.h"
#include "layoutkit/hw/SwizzleMode.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace lk::hw {

/// CUtensorMapDataType, in enumerator order (code = position).
enum class TmaDataType : uint8_t {
  UInt8,
  UInt16,
  UInt32,
  Int32,
  UInt64,
  Int64,
  Float16,
  Float32,
  Float64,
  BFloat16,
  Float32Ftz,
  TFloat32,
  TFloat32Ftz,
  U4x16Align8B,  ///< 16U4_ALIGN8B: 16 4-bit values in 8 bytes
  U4x16Align16B, ///< 16U4_ALIGN16B: 16 4-bit values padded to 16 bytes
  U6x16Align16B, ///< 16U6_ALIGN16B: 16 6-bit values padded to 16 bytes
};

struct TmaDataTypeInfo {
  TmaDataType type = TmaDataType::UInt8;
  std::string_view name;  ///< "uint8", ..., "16u6_align16b"
  int code = 0;           ///< CUtensorMapDataType value
  int64_t globalBits = 0; ///< bits per element in global memory
  /// Bits per element in shared memory: the packed ALIGN16B types widen
  /// each value to 8 bits (read off the type names; **UNVERIFIED**).
  int64_t sharedBits = 0;
  bool packed = false; ///< one of the 16U4 / 16U6 types
};

std::span<const TmaDataTypeInfo> tmaDataTypes();
const TmaDataTypeInfo &info(TmaDataType type);
/// By name ("bfloat16") or error listing the names.
Expected<TmaDataType> parseTmaDataType(std::string_view name);

/// CUtensorMapInterleave: NONE 0, 16B 1, 32B 2.
enum class TmaInterleave : uint8_t { None, B16, B32 };
std::string_view name(TmaInterleave interleave);

/// Copies in which direction the map is used (only the packed types care).
enum class TmaDirection : uint8_t { Load, Store };

struct TmaDescription {
  TmaDataType dataType = TmaDataType::Float16;
  std::vector<int64_t> globalDims;     ///< elements, rank entries
  std::vector<int64_t> globalStrides;  ///< bytes, rank - 1 entries
  std::vector<int64_t> boxDims;        ///< elements, rank entries
  std::vector<int64_t> elementStrides; ///< rank entries (empty = all 1)
  TmaInterleave interleave = TmaInterleave::None;
  SwizzleMode swizzle = SwizzleMode::None;
  int64_t globalAddress = 0; ///< byte address of the tensor
  /// Where the box goes in shared memory (not part of the tensor map; its
  /// alignment is checked when set).
  std::optional<int64_t> sharedAddress;

  int64_t rank() const { return int64_t(globalDims.size()); }
};

/// Checks every constraint above for `arch`. The first violation is
/// reported as "TMA description: field '<name>' = <value>; allowed: <rule>".
Status validateTma(const TmaDescription &d, Arch arch,
                   TmaDirection direction = TmaDirection::Load);

/// boxDim[0] * sharedBits / 8: the bytes of one box row in shared memory.
int64_t innerBoxBytes(const TmaDescription &d);

/// Bytes between consecutive box rows in shared memory: the swizzle span
/// when swizzled (shared memory is allocated for the full span even when
/// the box row is narrower, §5.2), else the inner box bytes.
int64_t boxRowPitchBytes(const TmaDescription &d);

/// The shared-memory layout of one box (docs/hardware.md §5.1: the unswizzled
/// image is written row after row, then the byte-address XOR of the mode is
/// applied on the absolute address). In units of elements of sharedBits
/// bits: shape (b0, b1, ..., b_{r-1}) with b_i = ceil(boxDim[i] /
/// elementStrides[i]) for i >= 1 (b0 = boxDim[0]), strides (1, pitch,
/// pitch*b1, ...), offset = sharedAddress (0 when unset), swizzle =
/// elementSwizzle(mode, sharedBits). Validates first; refuses interleaved
/// maps and the flip-8B mode (not modelled).
/// Example: bf16 box (64, 8), 128B, at 0 -> Sw<3,3,3> o (64,8):(1,64).
Expected<cute::ComposedLayout> tmaBoxLayout(const TmaDescription &d, Arch arch);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_TMADESCRIPTOR_H
