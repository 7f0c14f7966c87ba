//===- SwizzleMode.cpp - The swizzle-mode table ---------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/SwizzleMode.h"

#include "layoutkit/core/Bits.h"
#include "layoutkit/cute/Attribute.h"

#include <array>
#include <string>

namespace lk::hw {

namespace {

// docs/hardware.md §5.1 (address formula, repeat), §5.3 (descriptor codes),
// §6.5. Columns: mode, name, span, granule, repeat, B, M, S, hasCute, TMA code,
// wgmma code, UMMA code, sm_100 only, verified.
constexpr std::array<SwizzleModeInfo, 7> kModes = {{
    {SwizzleMode::None, "none", 16, 16, 0, 0, 4, 3, true, 0, 0, 0, false, true},
    {SwizzleMode::B32, "32B", 32, 16, 256, 1, 4, 3, true, 1, 3, 6, false, true},
    {SwizzleMode::B64, "64B", 64, 16, 512, 2, 4, 3, true, 2, 2, 4, false, true},
    {SwizzleMode::B128, "128B", 128, 16, 1024, 3, 4, 3, true, 3, 1, 2, false,
     true},
    {SwizzleMode::B128Atom32B, "128B_atom32B", 128, 32, 512, 2, 5, 2, true, 4,
     -1, 1, true, true},
    {SwizzleMode::B128Atom32BFlip8B, "128B_atom32B_flip8B", 128, 32, 512, 2, 5,
     2, false, 5, -1, -1, true, false},
    {SwizzleMode::B128Atom64B, "128B_atom64B", 128, 64, 256, 1, 6, 1, true, 6,
     -1, -1, true, false},
}};

template <class Pick>
Expected<SwizzleMode> fromCode(int64_t code, const char *what, Pick pick) {
  std::string allowed;
  for (const SwizzleModeInfo &m : kModes) {
    int c = pick(m);
    if (c < 0)
      continue;
    if (c == code)
      return m.mode;
    if (!allowed.empty())
      allowed += ", ";
    allowed += std::to_string(c) + " (" + std::string(m.name) + ")";
  }
  return Diagnostic::error(std::string(what) + " swizzle code " +
                           std::to_string(code) +
                           " is not defined (allowed: " + allowed + ")");
}

} // namespace

std::span<const SwizzleModeInfo> swizzleModes() { return kModes; }

const SwizzleModeInfo &info(SwizzleMode mode) { return kModes[size_t(mode)]; }

std::string_view name(SwizzleMode mode) { return info(mode).name; }

Expected<cute::Swizzle> byteSwizzle(SwizzleMode mode) {
  const SwizzleModeInfo &i = info(mode);
  if (!i.hasCute)
    return Diagnostic::error("swizzle mode " + std::string(i.name) +
                             " has no CuTe form (UNVERIFIED flip parity)");
  return cute::Swizzle::make(i.B, i.M, i.S);
}

Expected<cute::Swizzle> elementSwizzle(SwizzleMode mode, int64_t elementBits) {
  LK_TRY(cute::Swizzle sw, byteSwizzle(mode));
  return cute::elementSwizzle(sw, elementBits); // one rule, one message
}

Expected<int64_t> swizzleAddress(SwizzleMode mode, int64_t byteAddress) {
  if (byteAddress < 0)
    return Diagnostic::error("shared-memory address " +
                             std::to_string(byteAddress) + " is negative");
  LK_TRY(cute::Swizzle sw, byteSwizzle(mode));
  return sw(byteAddress);
}

Expected<SwizzleMode> swizzleFromTmaCode(int64_t code) {
  return fromCode(code, "CUtensorMapSwizzle",
                  [](const SwizzleModeInfo &m) { return m.tmaCode; });
}
Expected<SwizzleMode> swizzleFromWgmmaCode(int64_t code) {
  return fromCode(code, "wgmma descriptor",
                  [](const SwizzleModeInfo &m) { return m.wgmmaCode; });
}
Expected<SwizzleMode> swizzleFromUmmaCode(int64_t code) {
  return fromCode(code, "UMMA descriptor",
                  [](const SwizzleModeInfo &m) { return m.ummaCode; });
}

} // namespace lk::hw
