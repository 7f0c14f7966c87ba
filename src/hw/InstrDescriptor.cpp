//===- InstrDescriptor.cpp - The tcgen05.mma instruction descriptor --------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/hw/InstrDescriptor.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace lk::hw {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

constexpr std::array<UmmaKindInfo, 7> kKinds = {{
    {UmmaKind::F16, "f16", false, 16},
    {UmmaKind::Tf32, "tf32", false, 8},
    {UmmaKind::F8f6f4, "f8f6f4", false, 32},
    {UmmaKind::I8, "i8", false, 32},
    {UmmaKind::Mxf8f6f4, "mxf8f6f4", true, 32},
    {UmmaKind::Mxf4, "mxf4", true, 64},
    {UmmaKind::Mxf4nvf4, "mxf4nvf4", true, 64},
}};

struct FormatInfo {
  UmmaFormat format;
  std::string_view name;
  int64_t bits;
};
constexpr std::array<FormatInfo, 10> kFormats = {{
    {UmmaFormat::F16, "f16", 16},
    {UmmaFormat::BF16, "bf16", 16},
    {UmmaFormat::TF32, "tf32", 32},
    {UmmaFormat::E4M3, "f8e4m3", 8},
    {UmmaFormat::E5M2, "f8e5m2", 8},
    {UmmaFormat::E2M3, "f6e2m3", 6},
    {UmmaFormat::E3M2, "f6e3m2", 6},
    {UmmaFormat::E2M1, "f4e2m1", 4},
    {UmmaFormat::U8, "u8", 8},
    {UmmaFormat::S8, "i8", 8},
}};

// A / B type codes per kind (§6.6).
struct FormatCode {
  UmmaKind kind;
  UmmaFormat format;
  int code;
};
constexpr FormatCode kFormatCodes[] = {
    {UmmaKind::F16, UmmaFormat::F16, 0},
    {UmmaKind::F16, UmmaFormat::BF16, 1},
    {UmmaKind::Tf32, UmmaFormat::TF32, 2},
    {UmmaKind::F8f6f4, UmmaFormat::E4M3, 0},
    {UmmaKind::F8f6f4, UmmaFormat::E5M2, 1},
    {UmmaKind::F8f6f4, UmmaFormat::E2M3, 3},
    {UmmaKind::F8f6f4, UmmaFormat::E3M2, 4},
    {UmmaKind::F8f6f4, UmmaFormat::E2M1, 5},
    {UmmaKind::I8, UmmaFormat::U8, 0},
    {UmmaKind::I8, UmmaFormat::S8, 1},
    {UmmaKind::Mxf8f6f4, UmmaFormat::E4M3, 0},
    {UmmaKind::Mxf8f6f4, UmmaFormat::E5M2, 1},
    {UmmaKind::Mxf8f6f4, UmmaFormat::E2M3, 3},
    {UmmaKind::Mxf8f6f4, UmmaFormat::E3M2, 4},
    {UmmaKind::Mxf8f6f4, UmmaFormat::E2M1, 5},
    {UmmaKind::Mxf4, UmmaFormat::E2M1, 1},
    {UmmaKind::Mxf4nvf4, UmmaFormat::E2M1, 1},
};

// D types per kind (§6.6): kind::f16 allows F16 only with F16 inputs.
struct AccumRule {
  UmmaKind kind;
  UmmaAccum accum;
  bool needsF16Inputs;
};
constexpr AccumRule kAccumRules[] = {
    {UmmaKind::F16, UmmaAccum::F16, true},
    {UmmaKind::F16, UmmaAccum::F32, false},
    {UmmaKind::Tf32, UmmaAccum::F32, false},
    {UmmaKind::F8f6f4, UmmaAccum::F32, false},
    {UmmaKind::F8f6f4, UmmaAccum::F16, false},
    {UmmaKind::I8, UmmaAccum::S32, false},
    {UmmaKind::Mxf8f6f4, UmmaAccum::F32, false},
    {UmmaKind::Mxf4, UmmaAccum::F32, false},
    {UmmaKind::Mxf4nvf4, UmmaAccum::F32, false},
};

// Shapes (§6.7). A rule applies to a set of kinds, a CTA group and .ws.
struct Range {
  int64_t lo, hi, step;
};
struct ShapeRule {
  std::vector<UmmaKind> kinds;
  int64_t ctaGroup;
  bool ws;
  std::vector<int64_t> ms;
  std::vector<Range> ns;
};
const std::vector<ShapeRule> &shapeRules() {
  using K = UmmaKind;
  static const std::vector<ShapeRule> rules = {
      {{K::F16, K::Tf32, K::F8f6f4}, 1, false, {64, 128}, {{8, 256, 8}}},
      {{K::F16, K::Tf32, K::F8f6f4}, 2, false, {128, 256}, {{16, 256, 16}}},
      {{K::I8}, 1, false, {64, 128}, {{8, 32, 8}, {48, 256, 16}}},
      {{K::I8}, 2, false, {128, 256}, {{32, 256, 32}}},
      {{K::Mxf8f6f4, K::Mxf4, K::Mxf4nvf4}, 1, false, {128}, {{8, 256, 8}}},
      {{K::Mxf8f6f4, K::Mxf4, K::Mxf4nvf4},
       2,
       false,
       {128, 256},
       {{16, 256, 16}}},
      {{K::F16, K::Tf32, K::F8f6f4, K::I8},
       1,
       true,
       {32, 64, 128},
       {{64, 64, 1}, {128, 128, 1}, {256, 256, 1}}},
  };
  return rules;
}

// Bit layouts (§6.6).
constexpr std::array<BitField, 13> kDenseFields = {{
    {"sparsity selector", 0, 2, "0-3 (sparse only)"},
    {"sparse", 2, 1, "0 dense, 1 sparse"},
    {"saturate", 3, 1, "i8 only"},
    {"D type", 4, 2, "0 F16, 1 F32, 2 S32"},
    {"A type", 7, 3, "per kind"},
    {"B type", 10, 3, "per kind"},
    {"negate A", 13, 1, "1 = negate"},
    {"negate B", 14, 1, "1 = negate"},
    {"transpose A", 15, 1, "0 K-major, 1 MN-major"},
    {"transpose B", 16, 1, "0 K-major, 1 MN-major"},
    {"N", 17, 6, "N >> 3"},
    {"M", 24, 5, "M >> 4"},
    {"max shift", 30, 2, "0 none, 1/2/3 = 8/16/32 (.ws)"},
}};
constexpr std::array<FixedBits, 3> kDenseFixed = {
    {{"reserved", 6, 1, 0}, {"reserved", 23, 1, 0}, {"reserved", 29, 1, 0}}};

constexpr std::array<BitField, 12> kMxf8Fields = {{
    {"sparse", 2, 1, "0 dense, 1 sparse"},
    {"SFB ID", 4, 2, "0-3"},
    {"A type", 7, 3, "f8f6f4 codes"},
    {"B type", 10, 3, "f8f6f4 codes"},
    {"negate A", 13, 1, "1 = negate"},
    {"negate B", 14, 1, "1 = negate"},
    {"transpose A", 15, 1, "0 K-major, 1 MN-major"},
    {"transpose B", 16, 1, "0 K-major, 1 MN-major"},
    {"N", 17, 6, "N >> 3"},
    {"scale type", 23, 1, "0 UE4M3 (mxf4nvf4 only), 1 UE8M0"},
    {"M", 27, 2, "M >> 7"},
    {"SFA ID", 29, 2, "0-3"},
}};
constexpr std::array<FixedBits, 5> kMxf8Fixed = {{{"reserved", 0, 2, 0},
                                                  {"reserved", 3, 1, 0},
                                                  {"reserved", 6, 1, 0},
                                                  {"reserved", 24, 3, 0},
                                                  {"reserved", 31, 1, 0}}};

constexpr std::array<BitField, 13> kMxf4Fields = {{
    {"sparse", 2, 1, "0 dense, 1 sparse"},
    {"SFB ID", 4, 2, "0 or 2"},
    {"A type", 7, 3, "E2M1 = 1"},
    {"B type", 10, 2, "E2M1 = 1"},
    {"negate A", 13, 1, "1 = negate"},
    {"negate B", 14, 1, "1 = negate"},
    {"transpose A", 15, 1, "must be 0"},
    {"transpose B", 16, 1, "must be 0"},
    {"N", 17, 6, "N >> 3"},
    {"scale type", 23, 1, "0 UE4M3 (mxf4nvf4 only), 1 UE8M0"},
    {"M", 27, 2, "M >> 7"},
    {"SFA ID", 29, 2, "0 or 2"},
    {"K size", 31, 1, "0 K=64, 1 K=96"},
}};
constexpr std::array<FixedBits, 5> kMxf4Fixed = {{{"reserved", 0, 2, 0},
                                                  {"reserved", 3, 1, 0},
                                                  {"reserved", 6, 1, 0},
                                                  {"reserved", 12, 1, 0},
                                                  {"reserved", 24, 3, 0}}};

/// The word layout of one kind, by role.
struct Roles {
  std::span<const BitField> fields;
  std::span<const FixedBits> fixed;
  const BitField *selector = nullptr, *sparse = nullptr, *saturate = nullptr,
                 *dtype = nullptr, *a = nullptr, *b = nullptr, *negA = nullptr,
                 *negB = nullptr, *trA = nullptr, *trB = nullptr, *n = nullptr,
                 *m = nullptr, *maxShift = nullptr, *sfb = nullptr,
                 *scale = nullptr, *sfa = nullptr, *kSize = nullptr;
  int mShift = 4;
};

const BitField *find(std::span<const BitField> fs, std::string_view name) {
  for (const BitField &f : fs)
    if (f.name == name)
      return &f;
  return nullptr;
}

Roles rolesOf(UmmaKind kind) {
  Roles r;
  bool mxf4 = kind == UmmaKind::Mxf4 || kind == UmmaKind::Mxf4nvf4;
  if (!info(kind).blockScaled) {
    r.fields = kDenseFields;
    r.fixed = kDenseFixed;
  } else if (!mxf4) {
    r.fields = kMxf8Fields;
    r.fixed = kMxf8Fixed;
    r.mShift = 7;
  } else {
    r.fields = kMxf4Fields;
    r.fixed = kMxf4Fixed;
    r.mShift = 7;
  }
  r.selector = find(r.fields, "sparsity selector");
  r.sparse = find(r.fields, "sparse");
  r.saturate = find(r.fields, "saturate");
  r.dtype = find(r.fields, "D type");
  r.a = find(r.fields, "A type");
  r.b = find(r.fields, "B type");
  r.negA = find(r.fields, "negate A");
  r.negB = find(r.fields, "negate B");
  r.trA = find(r.fields, "transpose A");
  r.trB = find(r.fields, "transpose B");
  r.n = find(r.fields, "N");
  r.m = find(r.fields, "M");
  r.maxShift = find(r.fields, "max shift");
  r.sfb = find(r.fields, "SFB ID");
  r.scale = find(r.fields, "scale type");
  r.sfa = find(r.fields, "SFA ID");
  r.kSize = find(r.fields, "K size");
  return r;
}

std::string prefix(UmmaKind kind) {
  return "UMMA instruction descriptor (kind::" + std::string(info(kind).name) +
         ")";
}

int formatCode(UmmaKind kind, UmmaFormat f) {
  for (const FormatCode &c : kFormatCodes)
    if (c.kind == kind && c.format == f)
      return c.code;
  return -1;
}

std::string allowedFormats(UmmaKind kind, bool withCodes) {
  std::string s;
  for (const FormatCode &c : kFormatCodes)
    if (c.kind == kind) {
      if (!s.empty())
        s += ", ";
      s += withCodes ? str(c.code) + " (" + std::string(name(c.format)) + ")"
                     : std::string(name(c.format));
    }
  return s;
}

std::string describe(const std::vector<Range> &ns) {
  std::string s;
  for (const Range &r : ns) {
    if (!s.empty())
      s += ", ";
    s += r.lo == r.hi
             ? str(r.lo)
             : str(r.lo) + " to " + str(r.hi) + " in steps of " + str(r.step);
  }
  return s;
}

std::string context(const UmmaInstrDescriptor &d) {
  return "kind::" + std::string(info(d.kind).name) +
         " with cta_group::" + str(d.ctaGroup) +
         (d.weightStationary ? " (.ws)" : "");
}

bool isMxf4(UmmaKind k) {
  return k == UmmaKind::Mxf4 || k == UmmaKind::Mxf4nvf4;
}

Status validate(const UmmaInstrDescriptor &d) {
  const Roles r = rolesOf(d.kind);
  const UmmaKindInfo &ki = info(d.kind);
  const std::string p = prefix(d.kind);
  const std::string kindName = "kind::" + std::string(ki.name);
  // Formats.
  if (formatCode(d.kind, d.a) < 0)
    return fieldError(p, *r.a, std::string(name(d.a)),
                      allowedFormats(d.kind, false));
  if (formatCode(d.kind, d.b) < 0)
    return fieldError(p, *r.b, std::string(name(d.b)),
                      allowedFormats(d.kind, false));
  // D type.
  bool accumOk = false;
  std::string accums;
  for (const AccumRule &a : kAccumRules) {
    if (a.kind != d.kind)
      continue;
    accums += (accums.empty() ? "" : ", ") + std::string(name(a.accum)) +
              (a.needsF16Inputs ? " (f16 inputs only)" : "");
    if (a.accum == d.d && (!a.needsF16Inputs ||
                           (d.a == UmmaFormat::F16 && d.b == UmmaFormat::F16)))
      accumOk = true;
  }
  if (!accumOk) {
    if (r.dtype)
      return fieldError(p, *r.dtype, std::string(name(d.d)), accums);
    return Diagnostic::error(
        p + ": D type " + std::string(name(d.d)) +
        "; allowed: f32 (block-scaled kinds have no D-type field)");
  }
  // Shapes.
  if (d.ctaGroup != 1 && d.ctaGroup != 2)
    return Diagnostic::error(p + ": cta_group " + str(d.ctaGroup) +
                             "; allowed: 1 or 2");
  const ShapeRule *rule = nullptr;
  for (const ShapeRule &s : shapeRules())
    if (s.ctaGroup == d.ctaGroup && s.ws == d.weightStationary &&
        std::find(s.kinds.begin(), s.kinds.end(), d.kind) != s.kinds.end())
      rule = &s;
  if (!rule)
    return Diagnostic::error(p + ": the .ws variant exists only for kinds f16, "
                                 "tf32, f8f6f4, i8 with cta_group::1");
  if (std::find(rule->ms.begin(), rule->ms.end(), d.m) == rule->ms.end()) {
    std::string ms;
    for (int64_t m : rule->ms)
      ms += (ms.empty() ? "" : ", ") + str(m);
    return fieldError(p, *r.m, str(d.m), ms + " for " + context(d));
  }
  bool nOk = false;
  for (const Range &rg : rule->ns)
    if (d.n >= rg.lo && d.n <= rg.hi && (d.n - rg.lo) % rg.step == 0)
      nOk = true;
  if (!nOk)
    return fieldError(p, *r.n, str(d.n),
                      describe(rule->ns) + " for " + context(d));
  // §6.5: 8-bit MN-major B needs N % 16 (cta_group::1) or N % 32 (::2).
  if (d.majorB == Major::MN && bits(d.b) == 8) {
    int64_t q = d.ctaGroup == 1 ? 16 : 32;
    if (d.n % q != 0)
      return fieldError(
          p, *r.n, str(d.n),
          "a multiple of " + str(q) +
              " with an 8-bit MN-major B (cta_group::" + str(d.ctaGroup) + ")");
  }
  // Kind-specific flags.
  if (d.kind == UmmaKind::I8) {
    if (d.negateA)
      return fieldError(p, *r.negA, "1", "0 for kind::i8");
    if (d.negateB)
      return fieldError(p, *r.negB, "1", "0 for kind::i8");
  }
  if (d.saturate && d.kind != UmmaKind::I8) {
    if (r.saturate)
      return fieldError(p, *r.saturate, "1",
                        "0 (saturate is for kind::i8 only)");
    return Diagnostic::error(p + ": saturate is for kind::i8 only");
  }
  if (isMxf4(d.kind)) {
    if (d.majorA != Major::K)
      return fieldError(p, *r.trA, "1 (MN-major)",
                        "0 (K-major) for " + kindName);
    if (d.majorB != Major::K)
      return fieldError(p, *r.trB, "1 (MN-major)",
                        "0 (K-major) for " + kindName);
  }
  if (d.sparsitySelector < 0 || d.sparsitySelector > 3 ||
      (d.sparsitySelector != 0 && !d.sparse)) {
    if (!r.selector)
      return Diagnostic::error(
          p + ": sparsity selector " + str(d.sparsitySelector) +
          "; allowed: 0 (no selector field in block-scaled kinds)");
    return fieldError(p, *r.selector, str(d.sparsitySelector),
                      d.sparse ? "0 to 3" : "0 for a dense MMA");
  }
  if (d.maxShift != 0) {
    if (!r.maxShift)
      return Diagnostic::error(
          p + ": max shift " + str(d.maxShift) +
          "; allowed: 0 (no max-shift field in block-scaled kinds)");
    if (d.maxShift != 8 && d.maxShift != 16 && d.maxShift != 32)
      return fieldError(p, *r.maxShift, str(d.maxShift), "0, 8, 16, 32");
    if (!d.weightStationary)
      return fieldError(p, *r.maxShift, str(d.maxShift), "0 without .ws");
  }
  // Block-scaled fields.
  if (ki.blockScaled) {
    if (d.scaleType == UmmaScaleType::UE4M3 && d.kind != UmmaKind::Mxf4nvf4)
      return fieldError(p, *r.scale, "ue4m3", "ue8m0 for " + kindName);
    for (auto [field, v] :
         {std::pair{r.sfa, d.sfaId}, std::pair{r.sfb, d.sfbId}}) {
      bool ok = isMxf4(d.kind) ? (v == 0 || v == 2) : (v >= 0 && v <= 3);
      if (!ok)
        return fieldError(p, *field, str(v),
                          isMxf4(d.kind) ? "0 or 2" : "0 to 3");
    }
    if (isMxf4(d.kind)) {
      if (d.k != 0 && d.k != 64 && d.k != 96)
        return fieldError(p, *r.kSize, str(d.k), "64 or 96");
      if (d.k == 96 && !(d.m == 256 && d.ctaGroup == 2))
        return fieldError(p, *r.kSize, "96",
                          "96 only with M = 256 and cta_group::2");
    }
  } else {
    if (d.scaleType != UmmaScaleType::UE8M0 || d.sfaId != 0 || d.sfbId != 0)
      return Diagnostic::error(
          p + ": scale type and SF IDs exist only in the "
              "block-scaled kinds (leave them at ue8m0, 0, 0)");
  }
  if (!isMxf4(d.kind) && d.k != 0 && d.k != ki.k)
    return Diagnostic::error(p + ": K = " + str(d.k) + "; allowed: " +
                             str(ki.k) + " (or 0 for the kind's K)");
  return Ok{};
}

} // namespace

std::span<const UmmaKindInfo> ummaKinds() { return kKinds; }
const UmmaKindInfo &info(UmmaKind kind) { return kKinds[size_t(kind)]; }

Expected<UmmaKind> parseUmmaKind(std::string_view name) {
  std::string known;
  for (const UmmaKindInfo &k : kKinds) {
    if (k.name == name)
      return k.kind;
    known += (known.empty() ? "" : ", ") + std::string(k.name);
  }
  return Diagnostic::error("unknown tcgen05.mma kind '" + std::string(name) +
                           "' (known: " + known + ")");
}

std::string_view name(UmmaFormat format) {
  return kFormats[size_t(format)].name;
}
int64_t bits(UmmaFormat format) { return kFormats[size_t(format)].bits; }

std::string_view name(UmmaAccum accum) {
  static constexpr std::string_view kNames[] = {"f16", "f32", "s32"};
  return kNames[size_t(accum)];
}

std::string_view name(UmmaScaleType type) {
  return type == UmmaScaleType::UE4M3 ? "ue4m3" : "ue8m0";
}

std::span<const BitField> ummaInstrFields(UmmaKind kind) {
  return rolesOf(kind).fields;
}
std::span<const FixedBits> ummaInstrFixedBits(UmmaKind kind) {
  return rolesOf(kind).fixed;
}

Expected<uint32_t> encodeUmmaInstrDescriptor(const UmmaInstrDescriptor &d) {
  LK_CHECK(validate(d));
  const Roles r = rolesOf(d.kind);
  uint64_t w = applyFixed(0, r.fixed);
  auto put = [&](const BitField *f, uint64_t v) {
    if (f)
      w = insertField(w, *f, v);
  };
  put(r.selector, uint64_t(d.sparsitySelector));
  put(r.sparse, d.sparse);
  put(r.saturate, d.saturate);
  put(r.dtype, uint64_t(d.d));
  put(r.a, uint64_t(formatCode(d.kind, d.a)));
  put(r.b, uint64_t(formatCode(d.kind, d.b)));
  put(r.negA, d.negateA);
  put(r.negB, d.negateB);
  put(r.trA, d.majorA == Major::MN);
  put(r.trB, d.majorB == Major::MN);
  put(r.n, uint64_t(d.n >> 3));
  put(r.m, uint64_t(d.m >> r.mShift));
  put(r.maxShift, d.maxShift == 0    ? 0
                  : d.maxShift == 8  ? 1
                  : d.maxShift == 16 ? 2
                                     : 3);
  put(r.sfb, uint64_t(d.sfbId));
  put(r.scale, d.scaleType == UmmaScaleType::UE8M0);
  put(r.sfa, uint64_t(d.sfaId));
  put(r.kSize, d.k == 96);
  return uint32_t(w);
}

Expected<UmmaInstrDescriptor> decodeUmmaInstrDescriptor(uint32_t word,
                                                        UmmaKind kind,
                                                        int64_t ctaGroup,
                                                        bool weightStationary) {
  const Roles r = rolesOf(kind);
  const std::string p = prefix(kind);
  LK_CHECK(checkFixed(word, r.fixed, p));
  auto get = [&](const BitField *f) -> int64_t {
    return f ? int64_t(extractField(word, *f)) : 0;
  };
  auto format = [&](const BitField *f) -> Expected<UmmaFormat> {
    int64_t code = get(f);
    for (const FormatCode &c : kFormatCodes)
      if (c.kind == kind && c.code == code)
        return c.format;
    return fieldError(p, *f, str(code), allowedFormats(kind, true));
  };
  UmmaInstrDescriptor d;
  d.kind = kind;
  d.ctaGroup = ctaGroup;
  d.weightStationary = weightStationary;
  LK_TRY(d.a, format(r.a));
  LK_TRY(d.b, format(r.b));
  if (r.dtype) {
    int64_t code = get(r.dtype);
    if (code > 2)
      return fieldError(p, *r.dtype, str(code), "0 (f16), 1 (f32), 2 (s32)");
    d.d = UmmaAccum(code);
  } else {
    d.d = UmmaAccum::F32;
  }
  d.sparsitySelector = get(r.selector);
  d.sparse = get(r.sparse) != 0;
  d.saturate = get(r.saturate) != 0;
  d.negateA = get(r.negA) != 0;
  d.negateB = get(r.negB) != 0;
  d.majorA = get(r.trA) ? Major::MN : Major::K;
  d.majorB = get(r.trB) ? Major::MN : Major::K;
  d.n = get(r.n) << 3;
  d.m = get(r.m) << r.mShift;
  static constexpr int64_t kShifts[] = {0, 8, 16, 32};
  d.maxShift = kShifts[get(r.maxShift)];
  if (r.scale)
    d.scaleType = get(r.scale) ? UmmaScaleType::UE8M0 : UmmaScaleType::UE4M3;
  d.sfaId = get(r.sfa);
  d.sfbId = get(r.sfb);
  d.k = get(r.kSize) ? 96 : 0;
  LK_CHECK(validate(d));
  return d;
}

} // namespace lk::hw
