//===- SmemDescriptor.h - wgmma / UMMA shared-memory descriptors -*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The 64-bit shared-memory matrix descriptor that Hopper `wgmma.mma_async`
/// and Blackwell `tcgen05.mma` / `tcgen05.cp` read (docs/hardware.md §4.3,
/// §6.5). `SmemDescriptor` holds the fields in BYTES (start address, LBO, SBO);
/// the word stores each as `bytes >> 4` in 14 bits, so each must be a
/// multiple of 16 below 2^18 = 262144.
///
///   bits   Hopper wgmma                  Blackwell UMMA (tcgen05)
///   0-13   start address >> 4            same
///   14-15  0                             0
///   16-29  LBO >> 4                      same (absolute address when bit 52)
///   30-31  0                             0
///   32-45  SBO >> 4                      same
///   46-48  0                             0b001 (version; bit 46 = 1)
///   49-51  base offset                   base offset
///   52     0                             LBO mode: 0 relative, 1 absolute
///                                        (sm_103a only)
///   53-60  0                             0
///   61     0                             } layout type (3 bits): 0 none,
///   62-63  swizzle: 0 none, 1 128B,      } 1 128B_atom32B, 2 128B, 4 64B,
///          2 64B, 3 32B                  } 6 32B; 3, 5, 7 invalid
///
/// Base offset: 0 when the swizzle pattern the operand lives in starts on a
/// repeat boundary (1024 B for 128B, 512 B for 64B, 256 B for 32B), else
/// (pattern_start >> 7) & 7 (see baseOffsetFor). Library rule: a non-zero
/// base offset with no swizzle is rejected (it has no meaning there). PTX
/// applies the field to every swizzled mode, so 32B accepts it too (CUTLASS
/// comments say 128B/64B only and always write 0).
///
/// Worked example (docs/hardware.md §4.3/§6.5): start 0x400, LBO 16 B,
/// SBO 1024 B, 128B swizzle:
///   wgmma: 0x40 | 1 << 16 | 64 << 32 | 1 << 62        = 0x4000004000010040
///   UMMA:  0x40 | 1 << 16 | 64 << 32 | 1 << 46 | 2 << 61 = 0x4000404000010040
///
/// Errors name the descriptor, the field, its bits, the value and the rule:
///   "wgmma descriptor: field 'start address' (bits 0-13) = 1032 B; allowed:
///    a multiple of 16 B in [0, 262144)"
///   "UMMA descriptor: bits 46-48 (version) must be 1, got 0"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_SMEMDESCRIPTOR_H
#define LAYOUTKIT_HW_SMEMDESCRIPTOR_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/hw/BitField.h"
#include "layoutkit/hw/SwizzleMode.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace lk::hw {

/// Which instruction family reads the descriptor.
enum class SmemDescriptorKind : uint8_t {
  Wgmma, ///< Hopper wgmma.mma_async (sm_90a)
  Umma,  ///< Blackwell tcgen05.mma / tcgen05.cp (sm_100a)
};

/// "wgmma descriptor" / "UMMA descriptor".
std::string_view name(SmemDescriptorKind kind);

/// The decoded descriptor. Offsets and addresses are BYTES.
struct SmemDescriptor {
  int64_t startAddress = 0;      ///< shared-memory byte address of the operand
  int64_t leadingByteOffset = 0; ///< LBO in bytes (see CanonicalLayout.h)
  int64_t strideByteOffset = 0;  ///< SBO in bytes
  int64_t baseOffset = 0;        ///< the 3-bit field value, 0..7
  SwizzleMode swizzle = SwizzleMode::None;
  /// UMMA bit 52: LBO holds an absolute address instead of an offset
  /// (sm_103a). Always false for wgmma.
  bool lboAbsolute = false;

  bool operator==(const SmemDescriptor &) const = default;
};

/// The field table of the word, low bits first.
std::span<const BitField> smemDescriptorFields(SmemDescriptorKind kind);
/// The fixed ranges (reserved = 0; UMMA version bits 46-48 = 1).
std::span<const FixedBits> smemDescriptorFixedBits(SmemDescriptorKind kind);

/// Validates every field and packs the word. Rules: start address, LBO and
/// SBO multiples of 16 in [0, 2^18); base offset in [0, 7] and 0 without
/// swizzle; a swizzle mode the kind can encode (wgmma: none/32B/64B/128B;
/// UMMA adds 128B_atom32B); lboAbsolute only for UMMA.
Expected<uint64_t> encodeSmemDescriptor(SmemDescriptorKind kind,
                                        const SmemDescriptor &d);
/// Unpacks and validates: fixed ranges, the swizzle / layout-type code, and
/// the field rules of encodeSmemDescriptor (so decode(encode(d)) == d and
/// encode(decode(w)) == w for every valid d and w).
Expected<SmemDescriptor> decodeSmemDescriptor(SmemDescriptorKind kind,
                                              uint64_t word);

/// Shorthands for the two kinds.
inline Expected<uint64_t> encodeWgmmaDescriptor(const SmemDescriptor &d) {
  return encodeSmemDescriptor(SmemDescriptorKind::Wgmma, d);
}
inline Expected<SmemDescriptor> decodeWgmmaDescriptor(uint64_t word) {
  return decodeSmemDescriptor(SmemDescriptorKind::Wgmma, word);
}
inline Expected<uint64_t> encodeUmmaDescriptor(const SmemDescriptor &d) {
  return encodeSmemDescriptor(SmemDescriptorKind::Umma, d);
}
inline Expected<SmemDescriptor> decodeUmmaDescriptor(uint64_t word) {
  return decodeSmemDescriptor(SmemDescriptorKind::Umma, word);
}

/// The base-offset field for an operand whose swizzle pattern starts at
/// byte address `patternStart`: 0 when patternStart is a multiple of the
/// mode's repeat (or the mode has none), else (patternStart >> 7) & 7.
/// Examples: (128B, 0x400) -> 0; (128B, 0x480) -> 1; (64B, 0x300) -> 6.
int64_t baseOffsetFor(SwizzleMode mode, int64_t patternStart);

/// "start=0x400 LBO=16 SBO=1024 base=0 swizzle=128B" (bytes, hex start).
std::string str(const SmemDescriptor &d);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_SMEMDESCRIPTOR_H
