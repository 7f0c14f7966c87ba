//===- BitField.cpp --------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/BitField.h"

namespace lk::hw {

std::string bitRange(int lowBit, int width) {
  if (width == 1)
    return "bit " + std::to_string(lowBit);
  return "bits " + std::to_string(lowBit) + "-" +
         std::to_string(lowBit + width - 1);
}

uint64_t applyFixed(uint64_t word, std::span<const FixedBits> fixed) {
  for (const FixedBits &f : fixed)
    word = insertField(word, BitField{f.name, f.lowBit, f.width, {}}, f.value);
  return word;
}

Status checkFixed(uint64_t word, std::span<const FixedBits> fixed,
                  std::string_view descriptor) {
  for (const FixedBits &f : fixed) {
    uint64_t got = extractField(word, BitField{f.name, f.lowBit, f.width, {}});
    if (got != f.value)
      return Diagnostic::error(
          std::string(descriptor) + ": " + bitRange(f.lowBit, f.width) + " (" +
          std::string(f.name) + ") must be " + std::to_string(f.value) +
          ", got " + std::to_string(got));
  }
  return Ok{};
}

Diagnostic fieldError(std::string_view descriptor, const BitField &f,
                      const std::string &value, const std::string &allowed) {
  return Diagnostic::error(
      std::string(descriptor) + ": field '" + std::string(f.name) + "' (" +
      bitRange(f.lowBit, f.width) + ") = " + value + "; allowed: " + allowed);
}

} // namespace lk::hw
