//===- Descriptor.cpp - Descriptor words and a tile's TMA -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Descriptor.h"

#include "layoutkit/api/Layout.h"

#include <algorithm>
#include <string>

namespace lk::api {

Expected<uint64_t> parseWord(std::string_view text) {
  std::string_view t = text;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  auto bad = [&] {
    return Diagnostic::error(
        "expected a 64-bit word (decimal or 0x hex), got '" +
        std::string(text) + "'");
  };
  if (t.empty() || t.size() > (base == 16 ? 16u : 20u))
    return bad();
  uint64_t v = 0;
  for (char c : t) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    if (d >= base)
      return bad();
    if (v > (UINT64_MAX - uint64_t(d)) / uint64_t(base))
      return Diagnostic::error("'" + std::string(text) +
                               "' does not fit in 64 bits");
    v = v * uint64_t(base) + uint64_t(d);
  }
  return v;
}

std::string hexWord(uint64_t v) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

Expected<hw::SmemDescriptorKind> parseDescriptorKind(std::string_view name) {
  if (name == "wgmma")
    return hw::SmemDescriptorKind::Wgmma;
  if (name == "umma")
    return hw::SmemDescriptorKind::Umma;
  return Diagnostic::error("unknown descriptor kind '" + std::string(name) +
                           "' (known: wgmma, umma)");
}

Expected<hw::SwizzleMode> parseHwSwizzle(std::string_view name) {
  std::string known;
  for (const hw::SwizzleModeInfo &m : hw::swizzleModes()) {
    if (m.name == name)
      return m.mode;
    known += (known.empty() ? "" : ", ") + std::string(m.name);
  }
  return Diagnostic::error("unknown swizzle mode '" + std::string(name) +
                           "' (known: " + known + ")");
}

Expected<hw::Major> parseMajor(std::string_view name) {
  if (name == "K")
    return hw::Major::K;
  if (name == "MN")
    return hw::Major::MN;
  return Diagnostic::error("unknown major '" + std::string(name) +
                           "' (known: K, MN)");
}

Record describe(const hw::SmemDescriptor &d) {
  return Record()
      .add("start_address", d.startAddress)
      .add("leading_byte_offset", d.leadingByteOffset)
      .add("stride_byte_offset", d.strideByteOffset)
      .add("base_offset", d.baseOffset)
      .add("swizzle", hw::name(d.swizzle))
      .add("lbo_absolute", d.lboAbsolute);
}

Record describe(const hw::UmmaInstrDescriptor &d) {
  return Record()
      .add("kind", hw::info(d.kind).name)
      .add("a", hw::name(d.a))
      .add("b", hw::name(d.b))
      .add("d", hw::name(d.d))
      .add("m", d.m)
      .add("n", d.n)
      .add("major_a", hw::name(d.majorA))
      .add("major_b", hw::name(d.majorB))
      .add("negate_a", d.negateA)
      .add("negate_b", d.negateB)
      .add("sparse", d.sparse)
      .add("saturate", d.saturate);
}

Record describe(const hw::TmaDescription &t) {
  return Record()
      .add("data_type", hw::info(t.dataType).name)
      .add("global_dims", Value::ints(t.globalDims))
      .add("global_strides", Value::ints(t.globalStrides))
      .add("box_dims", Value::ints(t.boxDims))
      .add("swizzle", hw::name(t.swizzle));
}

namespace {

/// The TMA data type that moves `elementBits`-bit elements of
/// `elementType`: a TMA data type's own name (uint8, 16u4_align8b, ...),
/// or an element type (elementTypeNamed) named as CUTLASS names it (f64,
/// f32, tf32, f16, bf16, i32, i64, u32, u64 as the float and integer types
/// of their width; other 8-, 16-, 32- and 64-bit types as raw unsigned
/// words). Fails on an unknown name, on a width that is not the type's,
/// and on a sub-byte type, whose packed TMA type must be named.
Expected<hw::TmaDataType> tmaDataTypeOf(std::string_view elementType,
                                        int64_t elementBits) {
  int64_t bits = 0;
  Expected<hw::TmaDataType> own = hw::parseTmaDataType(elementType);
  if (own) {
    bits = hw::info(*own).globalBits;
  } else {
    LK_TRY(cute::ElementType e, elementTypeNamed(elementType));
    bits = e.bits;
  }
  if (bits != elementBits)
    return Diagnostic::error(
        "tile TMA: element type '" + std::string(elementType) + "' has " +
        std::to_string(bits) + " bits, not " + std::to_string(elementBits));
  if (own)
    return own;
  static constexpr std::pair<std::string_view, std::string_view> kNamed[] = {
      {"f64", "float64"}, {"f32", "float32"},   {"tf32", "tfloat32"},
      {"f16", "float16"}, {"bf16", "bfloat16"}, {"i32", "int32"},
      {"i64", "int64"},   {"u32", "uint32"},    {"u64", "uint64"}};
  for (auto [name, tma] : kNamed)
    if (name == elementType)
      return hw::parseTmaDataType(tma);
  if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
    return hw::parseTmaDataType("uint" + std::to_string(bits));
  const std::string has =
      "tile TMA: element type '" + std::string(elementType) + "' has " +
      std::to_string(bits) + (bits == 1 ? " bit; " : " bits; ");
  if (bits != 4 && bits != 6)
    return Diagnostic::error(has + "TMA has no data type of that width");
  return Diagnostic::error(has + "TMA moves it only as a packed data type "
                                 "(16u4_align8b, 16u4_align16b, "
                                 "16u6_align16b), not chosen from it");
}

} // namespace

Expected<hw::TmaDescription> tileTma(std::string_view elementType,
                                     int64_t elementBits, hw::Major major,
                                     int64_t mn, int64_t k,
                                     hw::SwizzleMode swizzle) {
  // TMA's global dims are 1..2^32 elements; checking them first keeps the
  // pitch arithmetic (at most 2^32 * 64 bits) inside int64.
  for (auto [name, v] : {std::pair{"mn", mn}, std::pair{"k", k}})
    if (v < 1 || v > (int64_t(1) << 32))
      return Diagnostic::error(std::string("tile TMA: ") + name + " = " +
                               std::to_string(v) +
                               "; expected 1..4294967296 elements (TMA's "
                               "global dim range)");
  if (elementBits < 1 || elementBits > 64)
    return Diagnostic::error("tile TMA: element width " +
                             std::to_string(elementBits) +
                             " bits; expected 1..64");
  hw::TmaDescription t;
  LK_TRY(t.dataType, tmaDataTypeOf(elementType, elementBits));
  t.swizzle = swizzle;
  int64_t inner = major == hw::Major::K ? k : mn;
  int64_t outer = major == hw::Major::K ? mn : k;
  t.globalDims = {inner, outer};
  t.globalStrides = {
      std::max<int64_t>(16, (inner * elementBits / 8 + 15) / 16 * 16)};
  t.boxDims = {inner, outer};
  return t;
}

} // namespace lk::api
