//===- SmemDescriptor.cpp - wgmma / UMMA shared-memory descriptors --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/SmemDescriptor.h"

#include <array>
#include <cstdio>
#include <string>

namespace lk::hw {

namespace {

// Field order in both tables: start, LBO, SBO, base offset, [LBO mode],
// swizzle / layout type. docs/hardware.md §4.3 and §6.5.
constexpr std::array<BitField, 5> kWgmmaFields = {{
    {"start address", 0, 14, "(addr & 0x3FFFF) >> 4"},
    {"leading byte offset", 16, 14, "(LBO & 0x3FFFF) >> 4"},
    {"stride byte offset", 32, 14, "(SBO & 0x3FFFF) >> 4"},
    {"base offset", 49, 3,
     "0, or (pattern start >> 7) & 7 when not repeat-aligned"},
    {"swizzle", 62, 2, "0 none, 1 128B, 2 64B, 3 32B"},
}};
constexpr std::array<FixedBits, 4> kWgmmaFixed = {{
    {"reserved", 14, 2, 0},
    {"reserved", 30, 2, 0},
    {"reserved", 46, 3, 0},
    {"reserved", 52, 10, 0},
}};

constexpr std::array<BitField, 6> kUmmaFields = {{
    {"start address", 0, 14, "(addr & 0x3FFFF) >> 4"},
    {"leading byte offset", 16, 14, "(LBO & 0x3FFFF) >> 4"},
    {"stride byte offset", 32, 14, "(SBO & 0x3FFFF) >> 4"},
    {"base offset", 49, 3,
     "0, or (pattern start >> 7) & 7 when not repeat-aligned"},
    {"LBO mode", 52, 1, "0 relative byte offset, 1 absolute address (sm_103a)"},
    {"layout type", 61, 3, "0 none, 1 128B_atom32B, 2 128B, 4 64B, 6 32B"},
}};
constexpr std::array<FixedBits, 4> kUmmaFixed = {{
    {"reserved", 14, 2, 0},
    {"reserved", 30, 2, 0},
    {"version", 46, 3, 1},
    {"reserved", 53, 8, 0},
}};

struct WordLayout {
  std::string_view name;
  std::span<const BitField> fields;
  std::span<const FixedBits> fixed;
  const BitField *start, *lbo, *sbo, *base, *lboMode, *swizzle;
  int (*code)(const SwizzleModeInfo &);
  Expected<SwizzleMode> (*fromCode)(int64_t);
};

const WordLayout &layoutOf(SmemDescriptorKind kind) {
  static const WordLayout wgmma = {
      "wgmma descriptor",  kWgmmaFields,
      kWgmmaFixed,         &kWgmmaFields[0],
      &kWgmmaFields[1],    &kWgmmaFields[2],
      &kWgmmaFields[3],    nullptr,
      &kWgmmaFields[4],    [](const SwizzleModeInfo &i) { return i.wgmmaCode; },
      swizzleFromWgmmaCode};
  static const WordLayout umma = {
      "UMMA descriptor",  kUmmaFields,
      kUmmaFixed,         &kUmmaFields[0],
      &kUmmaFields[1],    &kUmmaFields[2],
      &kUmmaFields[3],    &kUmmaFields[4],
      &kUmmaFields[5],    [](const SwizzleModeInfo &i) { return i.ummaCode; },
      swizzleFromUmmaCode};
  return kind == SmemDescriptorKind::Wgmma ? wgmma : umma;
}

constexpr int64_t kAddressLimit = int64_t(1) << 18;

Status checkAddressField(const WordLayout &l, const BitField &f,
                         int64_t bytes) {
  if (bytes < 0 || bytes >= kAddressLimit || bytes % 16 != 0)
    return fieldError(l.name, f, std::to_string(bytes) + " B",
                      "a multiple of 16 B in [0, 262144)");
  return Ok{};
}

std::string allowedSwizzles(const WordLayout &l) {
  std::string s;
  for (const SwizzleModeInfo &i : swizzleModes()) {
    if (l.code(i) < 0)
      continue;
    if (!s.empty())
      s += ", ";
    s += std::string(i.name);
  }
  return s;
}

Status checkFields(const WordLayout &l, const SmemDescriptor &d) {
  LK_CHECK(checkAddressField(l, *l.start, d.startAddress));
  LK_CHECK(checkAddressField(l, *l.lbo, d.leadingByteOffset));
  LK_CHECK(checkAddressField(l, *l.sbo, d.strideByteOffset));
  if (l.code(info(d.swizzle)) < 0)
    return fieldError(l.name, *l.swizzle, std::string(name(d.swizzle)),
                      allowedSwizzles(l));
  if (d.baseOffset < 0 || d.baseOffset > 7)
    return fieldError(l.name, *l.base, std::to_string(d.baseOffset), "0 to 7");
  if (d.baseOffset != 0 && d.swizzle == SwizzleMode::None)
    return fieldError(l.name, *l.base, std::to_string(d.baseOffset),
                      "0 when the swizzle is none");
  if (d.lboAbsolute && !l.lboMode)
    return Diagnostic::error(std::string(l.name) +
                             ": absolute LBO mode exists only in the UMMA "
                             "descriptor (bit 52, sm_103a)");
  return Ok{};
}

} // namespace

std::string_view name(SmemDescriptorKind kind) { return layoutOf(kind).name; }

std::span<const BitField> smemDescriptorFields(SmemDescriptorKind kind) {
  return layoutOf(kind).fields;
}
std::span<const FixedBits> smemDescriptorFixedBits(SmemDescriptorKind kind) {
  return layoutOf(kind).fixed;
}

Expected<uint64_t> encodeSmemDescriptor(SmemDescriptorKind kind,
                                        const SmemDescriptor &d) {
  const WordLayout &l = layoutOf(kind);
  LK_CHECK(checkFields(l, d));
  uint64_t w = applyFixed(0, l.fixed);
  w = insertField(w, *l.start, uint64_t(d.startAddress) >> 4);
  w = insertField(w, *l.lbo, uint64_t(d.leadingByteOffset) >> 4);
  w = insertField(w, *l.sbo, uint64_t(d.strideByteOffset) >> 4);
  w = insertField(w, *l.base, uint64_t(d.baseOffset));
  if (l.lboMode)
    w = insertField(w, *l.lboMode, d.lboAbsolute ? 1 : 0);
  w = insertField(w, *l.swizzle, uint64_t(l.code(info(d.swizzle))));
  return w;
}

Expected<SmemDescriptor> decodeSmemDescriptor(SmemDescriptorKind kind,
                                              uint64_t word) {
  const WordLayout &l = layoutOf(kind);
  LK_CHECK(checkFixed(word, l.fixed, l.name));
  int64_t code = int64_t(extractField(word, *l.swizzle));
  Expected<SwizzleMode> mode = l.fromCode(code);
  if (!mode) {
    std::string allowed;
    for (const SwizzleModeInfo &i : swizzleModes()) {
      if (l.code(i) < 0)
        continue;
      if (!allowed.empty())
        allowed += ", ";
      allowed += std::to_string(l.code(i)) + " (" + std::string(i.name) + ")";
    }
    return fieldError(l.name, *l.swizzle, std::to_string(code), allowed);
  }
  SmemDescriptor d;
  d.startAddress = int64_t(extractField(word, *l.start)) << 4;
  d.leadingByteOffset = int64_t(extractField(word, *l.lbo)) << 4;
  d.strideByteOffset = int64_t(extractField(word, *l.sbo)) << 4;
  d.baseOffset = int64_t(extractField(word, *l.base));
  d.lboAbsolute = l.lboMode && extractField(word, *l.lboMode) != 0;
  d.swizzle = *mode;
  LK_CHECK(checkFields(l, d));
  return d;
}

int64_t baseOffsetFor(SwizzleMode mode, int64_t patternStart) {
  int64_t repeat = info(mode).repeatBytes;
  if (repeat == 0 || patternStart % repeat == 0)
    return 0;
  return (patternStart >> 7) & 7;
}

std::string str(const SmemDescriptor &d) {
  char buf[160];
  snprintf(buf, sizeof buf,
           "start=0x%llx LBO=%lld SBO=%lld base=%lld swizzle=%s%s",
           (unsigned long long)d.startAddress, (long long)d.leadingByteOffset,
           (long long)d.strideByteOffset, (long long)d.baseOffset,
           std::string(name(d.swizzle)).c_str(),
           d.lboAbsolute ? " lbo=absolute" : "");
  return buf;
}

} // namespace lk::hw
