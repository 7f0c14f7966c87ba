//===- TmaDescriptor.cpp - TMA tensor-map descriptions ---------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/TmaDescriptor.h"

#include "layoutkit/core/Checked.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace lk::hw {

namespace {

// CUtensorMapDataType (cuda.h order). Columns: type, name, code, global
// bits, shared bits, packed.
constexpr std::array<TmaDataTypeInfo, 16> kTypes = {{
    {TmaDataType::UInt8, "uint8", 0, 8, 8, false},
    {TmaDataType::UInt16, "uint16", 1, 16, 16, false},
    {TmaDataType::UInt32, "uint32", 2, 32, 32, false},
    {TmaDataType::Int32, "int32", 3, 32, 32, false},
    {TmaDataType::UInt64, "uint64", 4, 64, 64, false},
    {TmaDataType::Int64, "int64", 5, 64, 64, false},
    {TmaDataType::Float16, "float16", 6, 16, 16, false},
    {TmaDataType::Float32, "float32", 7, 32, 32, false},
    {TmaDataType::Float64, "float64", 8, 64, 64, false},
    {TmaDataType::BFloat16, "bfloat16", 9, 16, 16, false},
    {TmaDataType::Float32Ftz, "float32_ftz", 10, 32, 32, false},
    {TmaDataType::TFloat32, "tfloat32", 11, 32, 32, false},
    {TmaDataType::TFloat32Ftz, "tfloat32_ftz", 12, 32, 32, false},
    {TmaDataType::U4x16Align8B, "16u4_align8b", 13, 4, 4, true},
    {TmaDataType::U4x16Align16B, "16u4_align16b", 14, 4, 8, true},
    {TmaDataType::U6x16Align16B, "16u6_align16b", 15, 6, 8, true},
}};

// Swizzle modes a packed type admits (§5.2); `storeExtra` is allowed for
// stores only.
struct PackedRule {
  TmaDataType type;
  std::array<SwizzleMode, 3> allowed;
  std::optional<SwizzleMode> storeExtra;
};
const PackedRule kPackedRules[] = {
    {TmaDataType::U6x16Align16B,
     {SwizzleMode::None, SwizzleMode::B128, SwizzleMode::B128Atom32B},
     SwizzleMode::B128Atom64B},
    {TmaDataType::U4x16Align16B,
     {SwizzleMode::None, SwizzleMode::B128, SwizzleMode::B128Atom32B},
     std::nullopt},
};

constexpr int64_t kMaxRank = 5;
constexpr int64_t kMaxBox = 256;
constexpr int64_t kMaxElementStride = 8;
constexpr int64_t kMaxGlobalDim = int64_t(1) << 32;
constexpr int64_t kStrideLimit = int64_t(1) << 40;
constexpr int64_t kGuideAlignment = 128;

std::string str(int64_t v) { return std::to_string(v); }

Diagnostic tmaError(const std::string &field, const std::string &value,
                    const std::string &allowed) {
  return Diagnostic::error("TMA description: field '" + field + "' = " + value +
                           "; allowed: " + allowed);
}

std::string idx(const char *name, size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

std::string hex(int64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

} // namespace

std::span<const TmaDataTypeInfo> tmaDataTypes() { return kTypes; }

const TmaDataTypeInfo &info(TmaDataType type) { return kTypes[size_t(type)]; }

Expected<TmaDataType> parseTmaDataType(std::string_view name) {
  std::string known;
  for (const TmaDataTypeInfo &t : kTypes) {
    if (t.name == name)
      return t.type;
    known += (known.empty() ? "" : ", ") + std::string(t.name);
  }
  return Diagnostic::error("unknown TMA data type '" + std::string(name) +
                           "' (known: " + known + ")");
}

std::string_view name(TmaInterleave interleave) {
  switch (interleave) {
  case TmaInterleave::None:
    return "none";
  case TmaInterleave::B16:
    return "16B";
  case TmaInterleave::B32:
    return "32B";
  }
  return "?";
}

int64_t innerBoxBytes(const TmaDescription &d) {
  if (d.boxDims.empty())
    return 0;
  return d.boxDims[0] * info(d.dataType).sharedBits / 8;
}

int64_t boxRowPitchBytes(const TmaDescription &d) {
  if (d.swizzle != SwizzleMode::None)
    return info(d.swizzle).spanBytes;
  return innerBoxBytes(d);
}

Status validateTma(const TmaDescription &d, Arch arch, TmaDirection direction) {
  const Machine &m = machine(arch);
  const TmaDataTypeInfo &t = info(d.dataType);
  const SwizzleModeInfo &sw = info(d.swizzle);
  const std::string swName = std::string(sw.name);
  if (!m.hasTma)
    return Diagnostic::error("TMA description: " + std::string(m.name) +
                             " has no TMA (sm_90 and later)");
  if (sw.sm100Only && !m.hasTmaAtomSwizzles)
    return tmaError("swizzle", swName,
                    "none, 32B, 64B, 128B on " + std::string(m.name) +
                        " (the 128B_atom* modes need sm_100)");
  // Rank and vector lengths.
  const int64_t rank = d.rank();
  if (rank < 1 || rank > kMaxRank)
    return tmaError("rank", str(rank), "1 to 5");
  if (d.interleave != TmaInterleave::None && rank < 3)
    return tmaError("rank", str(rank),
                    "at least 3 with interleave " +
                        std::string(name(d.interleave)));
  auto count = [&](const char *field, size_t got, int64_t want) -> Status {
    if (int64_t(got) != want)
      return tmaError(std::string(field) + ".size", str(int64_t(got)),
                      str(want) + " for a rank-" + str(rank) + " tensor");
    return Ok{};
  };
  LK_CHECK(count("globalStrides", d.globalStrides.size(), rank - 1));
  LK_CHECK(count("boxDims", d.boxDims.size(), rank));
  if (!d.elementStrides.empty())
    LK_CHECK(count("elementStrides", d.elementStrides.size(), rank));
  // Per-dimension ranges.
  for (size_t i = 0; i < size_t(rank); ++i) {
    if (d.globalDims[i] < 1 || d.globalDims[i] > kMaxGlobalDim)
      return tmaError(idx("globalDim", i), str(d.globalDims[i]), "1 to 2^32");
    if (d.boxDims[i] < 1 || d.boxDims[i] > kMaxBox)
      return tmaError(idx("boxDim", i), str(d.boxDims[i]), "1 to 256");
    if (!d.elementStrides.empty() &&
        (d.elementStrides[i] < 1 || d.elementStrides[i] > kMaxElementStride))
      return tmaError(idx("elementStride", i), str(d.elementStrides[i]),
                      "1 to 8");
  }
  // Interleave / swizzle / type combinations.
  if (d.interleave == TmaInterleave::B32 && d.swizzle != SwizzleMode::B32)
    return tmaError("swizzle", swName, "32B with interleave 32B");
  for (const PackedRule &r : kPackedRules) {
    if (r.type != d.dataType)
      continue;
    bool ok = std::find(r.allowed.begin(), r.allowed.end(), d.swizzle) !=
              r.allowed.end();
    if (direction == TmaDirection::Store && r.storeExtra == d.swizzle)
      ok = true;
    if (!ok) {
      std::string allowed;
      for (SwizzleMode a : r.allowed)
        allowed += (allowed.empty() ? "" : ", ") + std::string(name(a));
      if (r.storeExtra)
        allowed += " (and " + std::string(name(*r.storeExtra)) + " for stores)";
      return tmaError("swizzle", swName,
                      allowed + " with data type " + std::string(t.name));
    }
  }
  // Inner box extent.
  if (d.interleave == TmaInterleave::None) {
    int64_t inner = d.boxDims[0] * t.sharedBits; // bits
    std::string value =
        str(d.boxDims[0]) + " (" +
        (inner % 8 == 0 ? str(inner / 8) + " B" : str(inner) + " bits") +
        " per row)";
    if (inner % (16 * 8) != 0)
      return tmaError("boxDim[0]", value,
                      "a multiple of 16 B per row with interleave none");
    if (d.swizzle != SwizzleMode::None && inner / 8 > sw.spanBytes)
      return tmaError("boxDim[0]", value,
                      "at most " + str(sw.spanBytes) +
                          " B per row with swizzle " + swName);
  }
  // Global address and strides.
  const bool wide = d.interleave == TmaInterleave::B32 || t.packed;
  const int64_t align = wide ? 32 : 16;
  const std::string why =
      wide ? (t.packed ? " for data type " + std::string(t.name)
                       : std::string(" with interleave 32B"))
           : std::string();
  if (d.globalAddress < 0 || d.globalAddress % align != 0)
    return tmaError("globalAddress", hex(d.globalAddress),
                    "a multiple of " + str(align) + " B" + why);
  if (d.swizzle != SwizzleMode::None && d.globalAddress % kGuideAlignment != 0)
    return tmaError("globalAddress", hex(d.globalAddress),
                    "a multiple of 128 B with swizzle " + swName +
                        " (CUDA guide)");
  for (size_t i = 0; i < d.globalStrides.size(); ++i) {
    int64_t s = d.globalStrides[i];
    if (s <= 0 || s % align != 0 || s >= kStrideLimit)
      return tmaError(idx("globalStride", i + 1), str(s),
                      "a positive multiple of " + str(align) + " B below 2^40" +
                          why);
  }
  if (d.sharedAddress &&
      (*d.sharedAddress < 0 || *d.sharedAddress % kGuideAlignment != 0))
    return tmaError("sharedAddress", hex(*d.sharedAddress),
                    "a multiple of 128 B (CUDA guide)");
  return Ok{};
}

Expected<cute::ComposedLayout> tmaBoxLayout(const TmaDescription &d,
                                            Arch arch) {
  LK_CHECK(validateTma(d, arch));
  if (d.interleave != TmaInterleave::None)
    return Diagnostic::error("TMA box layout: interleave " +
                             std::string(name(d.interleave)) +
                             " is not modelled");
  const TmaDataTypeInfo &t = info(d.dataType);
  LK_TRY(cute::Swizzle sw, elementSwizzle(d.swizzle, t.sharedBits));
  const int64_t pitch = boxRowPitchBytes(d) * 8 / t.sharedBits; // elements
  std::vector<IntTuple> shape, stride;
  Arith ar;
  int64_t s = pitch;
  for (size_t i = 0; i < d.boxDims.size(); ++i) {
    int64_t e = d.boxDims[i];
    if (i > 0 && !d.elementStrides.empty())
      e = ceilDiv(e, d.elementStrides[i]);
    shape.push_back(e);
    if (i == 0) {
      stride.push_back(int64_t(1));
    } else {
      stride.push_back(s);
      s = ar.mul(s, e);
    }
  }
  if (!ar.ok())
    return Arith::diagnostic("TMA box layout");
  int64_t offset = d.sharedAddress ? *d.sharedAddress * 8 / t.sharedBits : 0;
  LK_TRY(cute::Layout l, shape.size() == 1
                             ? cute::Layout::make(shape[0], stride[0])
                             : cute::Layout::make(IntTuple::tuple(shape),
                                                  IntTuple::tuple(stride)));
  return cute::ComposedLayout{sw, offset, l};
}

} // namespace lk::hw
