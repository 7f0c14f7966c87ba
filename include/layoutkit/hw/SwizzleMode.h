//===- SwizzleMode.h - Shared-memory swizzle modes of TMA and MMA -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The hardware swizzle modes (docs/hardware.md §5.1, §5.3, §6.5) as one table:
/// what each does to a shared-memory byte address, its CuTe form, and the code
/// each descriptor uses for it (CUtensorMapSwizzle, wgmma layout type,
/// UMMA layout type).
///
/// Every mode XORs a granule index inside a 128-byte line with the line's
/// position in the repeat period; `a` is the ABSOLUTE shared-memory byte
/// address (the CUDA guide: an unaligned buffer sees the pattern offset):
///
///   mode           physical(a)                        CuTe (bytes)   repeat
///   None           a                                  Sw<0,4,3>      -
///   B32            a ^ (((a >> 7) & 1) << 4)          Sw<1,4,3>      256
///   B64            a ^ (((a >> 7) & 3) << 4)          Sw<2,4,3>      512
///   B128           a ^ (((a >> 7) & 7) << 4)          Sw<3,4,3>      1024
///   B128Atom32B    a ^ (((a >> 7) & 3) << 5)          Sw<2,5,2>      512
///   B128Atom64B    a ^ (((a >> 7) & 1) << 6)          Sw<1,6,1> (*)  256
///   B128Atom32BFlip8B  not modelled (**UNVERIFIED** flip parity)
///   (*) the formula is the sheet's; the CuTe spelling of it is ours and the
///   mode itself is **UNVERIFIED** (docs/hardware.md open item 4).
///
/// Examples (docs/hardware.md §5.1 test vectors): B128 0x080 -> 0x090, 0x380 ->
/// 0x3f0; B64 0x380 -> 0x3b0; B32 0x3f0 -> 0x3e0; B128Atom32B 0x180 -> 0x1e0.
///
/// Descriptor codes (docs/hardware.md §5.3, §6.5):
/// TMA 128B <-> wgmma 1 <-> UMMA 2;
/// 64B <-> 2 <-> 4; 32B <-> 3 <-> 6; NONE <-> 0 <-> 0; TMA 128B_ATOM_32B
/// <-> UMMA 1 (no wgmma code). CUtensorMapSwizzle numbers the modes
/// NONE 0, 32B 1, 64B 2, 128B 3, 128B_ATOM_32B 4, 128B_ATOM_32B_FLIP_8B 5,
/// 128B_ATOM_64B 6 (CUDA 13.0 cuda.h).
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_SWIZZLEMODE_H
#define LAYOUTKIT_HW_SWIZZLEMODE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Swizzle.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace lk::hw {

enum class SwizzleMode : uint8_t {
  None,
  B32,
  B64,
  B128,
  B128Atom32B,
  B128Atom32BFlip8B,
  B128Atom64B,
};

/// One row of the swizzle table.
struct SwizzleModeInfo {
  SwizzleMode mode = SwizzleMode::None;
  /// "none", "32B", "64B", "128B", "128B_atom32B", "128B_atom32B_flip8B",
  /// "128B_atom64B".
  std::string_view name;
  /// Bytes of a row the pattern spans (32/64/128; 16 for None: one core
  /// matrix row). A swizzled TMA box row must not be wider.
  int64_t spanBytes = 0;
  /// Bytes moved as a unit (16, 32 or 64).
  int64_t granuleBytes = 0;
  /// Period of the pattern in bytes (0 for None).
  int64_t repeatBytes = 0;
  /// Sw<B,M,S> on byte addresses, where one exists (hasCute).
  int B = 0, M = 0, S = 0;
  bool hasCute = false;
  /// CUtensorMapSwizzle enumerator value.
  int tmaCode = 0;
  /// wgmma descriptor bits 62-63, or -1 where wgmma has no such mode.
  int wgmmaCode = -1;
  /// UMMA descriptor bits 61-63, or -1 where UMMA has no such mode.
  int ummaCode = -1;
  /// Requires sm_100 (TMA atom modes).
  bool sm100Only = false;
  /// The sheet marks the mode's semantics UNVERIFIED.
  bool verified = true;
};

/// The whole table, in enumerator order.
std::span<const SwizzleModeInfo> swizzleModes();
const SwizzleModeInfo &info(SwizzleMode mode);
std::string_view name(SwizzleMode mode);

/// The byte-address swizzle as a cute::Swizzle. Fails for
/// B128Atom32BFlip8B ("swizzle mode 128B_atom32B_flip8B has no CuTe
/// form (UNVERIFIED flip parity)").
Expected<cute::Swizzle> byteSwizzle(SwizzleMode mode);
/// The same swizzle acting on addresses in units of `elementBits`-bit
/// elements: Sw<B, M + 3 - log2(elementBits), S>. Valid for power-of-two
/// elementBits with M + 3 - log2(elementBits) >= 0 (so up to 128 bits for
/// the 16-byte-granule modes; cute::elementSwizzle, whose messages it
/// gives). elementBits = 8 gives bytes, 128 gives
/// 16-byte units. Example: B128, 16-bit -> Sw<3,3,3>; 128-bit -> Sw<3,0,3>.
Expected<cute::Swizzle> elementSwizzle(SwizzleMode mode, int64_t elementBits);
/// physical(a) of the table above for an absolute byte address a >= 0.
Expected<int64_t> swizzleAddress(SwizzleMode mode, int64_t byteAddress);

/// Reverse lookups; each fails with the code and the allowed codes.
Expected<SwizzleMode> swizzleFromTmaCode(int64_t code);
Expected<SwizzleMode> swizzleFromWgmmaCode(int64_t code);
Expected<SwizzleMode> swizzleFromUmmaCode(int64_t code);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_SWIZZLEMODE_H
