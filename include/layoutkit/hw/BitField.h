//===- BitField.h - Descriptor words as tables of bit fields -----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every hardware descriptor of this layer (wgmma and UMMA shared-memory
/// descriptors, the UMMA instruction descriptor) is a word described by a
/// table of `BitField` rows {name, lowBit, width, meaning} plus a table of
/// `FixedBits` rows for reserved or constant ranges. Encoders and decoders
/// read the tables; they do not hard-code shifts.
///
/// Example: the wgmma start-address field is {"start address", 0, 14,
/// "(addr & 0x3FFFF) >> 4"}; insertField(0, f, 0x40) == 0x40 and
/// extractField(0x4000004000010040, f) == 0x40.
///
/// Diagnostics name the descriptor, the field, its bits, the value and what
/// is allowed, always in the same shape:
///
///   "<descriptor>: field '<name>' (bits <lo>-<hi>) = <value>; allowed: <rule>"
///   "<descriptor>: bits 14-15 (reserved) must be 0, got 2"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_HW_BITFIELD_H
#define LAYOUTKIT_HW_BITFIELD_H

#include "layoutkit/core/Expected.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace lk::hw {

/// One field of a descriptor word.
struct BitField {
  std::string_view name;    ///< "start address", "LBO", ...
  int lowBit = 0;           ///< least significant bit
  int width = 0;            ///< number of bits
  std::string_view meaning; ///< the encoding, for docs and CLI tables

  constexpr uint64_t mask() const {
    return (width >= 64 ? ~uint64_t(0) : ((uint64_t(1) << width) - 1))
           << lowBit;
  }
  constexpr uint64_t maxValue() const { return mask() >> lowBit; }
};

/// A bit range that must hold a fixed value (reserved bits are 0; the UMMA
/// descriptor's version bits 46-48 are 0b001).
struct FixedBits {
  std::string_view name; ///< "reserved", "version"
  int lowBit = 0;
  int width = 0;
  uint64_t value = 0;
};

/// "bits 0-13", or "bit 52" for a one-bit range.
std::string bitRange(int lowBit, int width);

/// The field's value inside `word`.
constexpr uint64_t extractField(uint64_t word, const BitField &f) {
  return (word & f.mask()) >> f.lowBit;
}
/// `word` with the field replaced by `value`. @pre value <= f.maxValue()
constexpr uint64_t insertField(uint64_t word, const BitField &f,
                               uint64_t value) {
  return (word & ~f.mask()) | ((value << f.lowBit) & f.mask());
}

/// `word` with every fixed range set to its value.
uint64_t applyFixed(uint64_t word, std::span<const FixedBits> fixed);
/// Checks every fixed range; the first that differs gives
/// "<descriptor>: bits 14-15 (reserved) must be 0, got 2".
Status checkFixed(uint64_t word, std::span<const FixedBits> fixed,
                  std::string_view descriptor);

/// "<descriptor>: field '<name>' (bits lo-hi) = <value>; allowed: <allowed>".
Diagnostic fieldError(std::string_view descriptor, const BitField &f,
                      const std::string &value, const std::string &allowed);

} // namespace lk::hw

#endif // LAYOUTKIT_HW_BITFIELD_H
