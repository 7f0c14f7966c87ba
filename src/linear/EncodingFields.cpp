//===- EncodingFields.cpp - Triton encodings from named fields ------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The field table of every encoding kind, the range checks done before a
/// value is narrowed into its Encoding member, and checkEncoding().
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/EncodingFields.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace lk::linear {
namespace {

using namespace dims;

constexpr int64_t kMaxValue = int64_t(1) << 30;
constexpr size_t kMaxRank = 8, kMaxBases = 32;
constexpr int kMaxDepth = 8;

enum class Type { Int, Bool, List, Bases, Parent };

/// One field of a kind. `alt` names another spelling that satisfies the
/// same requirement (e.g. amd_mfma's instrShape or mDim).
struct Spec {
  std::string_view name;
  Type type;
  bool required;
  std::string_view alt = {};
};

constexpr Spec kCta[] = {{"CTAsPerCGA", Type::List, false},
                         {"CTASplitNum", Type::List, false},
                         {"CTAOrder", Type::List, false},
                         {"CGALayout", Type::Bases, false}};

constexpr Spec kBlocked[] = {{"sizePerThread", Type::List, true},
                             {"threadsPerWarp", Type::List, true},
                             {"warpsPerCTA", Type::List, true},
                             {"order", Type::List, true}};
constexpr Spec kNvidiaMma[] = {{"versionMajor", Type::Int, true},
                               {"versionMinor", Type::Int, false},
                               {"warpsPerCTA", Type::List, true},
                               {"instrShape", Type::List, true}};
constexpr Spec kMfma[] = {{"version", Type::Int, false},
                          {"versionMajor", Type::Int, false},
                          {"versionMinor", Type::Int, false},
                          {"warpsPerCTA", Type::List, true},
                          {"instrShape", Type::List, true, "mDim"},
                          {"mDim", Type::Int, true, "instrShape"},
                          {"nDim", Type::Int, false},
                          {"isTransposed", Type::Bool, false},
                          {"tilesPerWarp", Type::List, false}};
constexpr Spec kWmma[] = {{"version", Type::Int, true},
                          {"warpsPerCTA", Type::List, true},
                          {"isTranspose", Type::Bool, false},
                          {"isTransposed", Type::Bool, false},
                          {"instrShape", Type::List, false}};
constexpr Spec kDpas[] = {{"repeatCount", Type::Int, true},
                          {"systolicDepth", Type::Int, true},
                          {"executionSize", Type::Int, true},
                          {"opsPerChan", Type::Int, true, "opsPerChannel"},
                          {"opsPerChannel", Type::Int, true, "opsPerChan"},
                          {"threadsPerWarp", Type::Int, true},
                          {"warpsPerCTA", Type::List, true},
                          {"repCluster", Type::List, true}};
constexpr Spec kDot[] = {{"opIdx", Type::Int, true},
                         {"parent", Type::Parent, true},
                         {"kWidth", Type::Int, false}};
constexpr Spec kSlice[] = {{"dim", Type::Int, true},
                           {"parent", Type::Parent, true}};
constexpr Spec kSwizzled[] = {{"vec", Type::Int, true},
                              {"perPhase", Type::Int, true},
                              {"maxPhase", Type::Int, true},
                              {"order", Type::List, true}};
constexpr Spec kNvmma[] = {
    {"swizzlingByteWidth", Type::Int, true, "swizzleSizeInBytes"},
    {"swizzleSizeInBytes", Type::Int, true, "swizzlingByteWidth"},
    {"elementBitWidth", Type::Int, true},
    {"transposed", Type::Bool, false},
    {"fp4Padded", Type::Bool, false},
    {"order", Type::List, false}};
constexpr Spec kShmem[] = {{"tensorShape", Type::List, true},
                           {"repShape", Type::List, true},
                           {"order", Type::List, true}};
constexpr Spec kLinear[] = {{"register", Type::Bases, true},
                            {"lane", Type::Bases, true},
                            {"warp", Type::Bases, true},
                            {"block", Type::Bases, true}};

struct KindInfo {
  EncodingKind kind;
  std::string_view name;
  std::span<const Spec> fields;
  bool cta;
};

constexpr std::array<KindInfo, 11> kKinds = {{
    {EncodingKind::Blocked, "blocked", kBlocked, true},
    {EncodingKind::NvidiaMma, "nvidia_mma", kNvidiaMma, true},
    {EncodingKind::AmdMfma, "amd_mfma", kMfma, true},
    {EncodingKind::AmdWmma, "amd_wmma", kWmma, true},
    {EncodingKind::IntelDpas, "intel_dpas", kDpas, false},
    {EncodingKind::DotOperand, "dot_operand", kDot, false},
    {EncodingKind::Slice, "slice", kSlice, false},
    {EncodingKind::SwizzledShared, "swizzled_shared", kSwizzled, true},
    {EncodingKind::NvmmaShared, "nvmma_shared", kNvmma, true},
    {EncodingKind::ShmemForRegToReg, "shmem_for_reg_to_reg", kShmem, false},
    {EncodingKind::Linear, "linear", kLinear, false},
}};

const KindInfo &info(EncodingKind k) {
  for (const KindInfo &i : kKinds)
    if (i.kind == k)
      return i;
  return kKinds[0];
}

const Spec *findSpec(const KindInfo &k, std::string_view name) {
  for (const Spec &s : k.fields)
    if (s.name == name)
      return &s;
  if (k.cta)
    for (const Spec &s : kCta)
      if (s.name == name)
        return &s;
  return nullptr;
}

std::string_view typeName(Type t) {
  switch (t) {
  case Type::Int:
    return "an integer";
  case Type::Bool:
    return "true or false";
  case Type::List:
    return "a list of integers";
  case Type::Bases:
    return "a list of bases (lists of integers)";
  case Type::Parent:
    return "a layout";
  }
  return "?";
}

std::string describe(const FieldValue &v) {
  struct {
    std::string operator()(int64_t v) { return std::to_string(v); }
    std::string operator()(bool b) { return b ? "true" : "false"; }
    std::string operator()(const std::vector<int64_t> &) {
      return "a list of integers";
    }
    std::string operator()(const std::vector<std::vector<int64_t>> &) {
      return "a list of lists";
    }
    std::string operator()(const std::shared_ptr<const Encoding> &) {
      return "a layout";
    }
    std::string operator()(const OtherValue &o) { return o.description; }
  } d;
  return std::visit(d, v);
}

std::string fieldList(const KindInfo &k) {
  std::string r;
  for (const Spec &s : k.fields)
    r += (r.empty() ? "" : ", ") + std::string(s.name);
  if (k.cta)
    r += ", CTAsPerCGA, CTASplitNum, CTAOrder, CGALayout";
  return r;
}

Status inRange(std::string_view name, int64_t v) {
  if (v < 0 || v > kMaxValue)
    return Diagnostic::error("field '" + std::string(name) +
                             "' must be in 0..2^30, got " + std::to_string(v));
  return Ok{};
}

/// Whether `v` has the type of field `s` and its integers are in range
/// (checked before any narrowing to int or unsigned).
Status checkValue(const Spec &s, const FieldValue &v) {
  auto wrong = [&] {
    return Diagnostic::error("field '" + std::string(s.name) + "' must be " +
                             std::string(typeName(s.type)) + ", got " +
                             describe(v));
  };
  switch (s.type) {
  case Type::Int:
    if (!std::holds_alternative<int64_t>(v))
      return wrong();
    return inRange(s.name, std::get<int64_t>(v));
  case Type::Bool:
    return std::holds_alternative<bool>(v) ? Status(Ok{}) : Status(wrong());
  case Type::List: {
    const auto *l = std::get_if<std::vector<int64_t>>(&v);
    if (!l)
      return wrong();
    if (l->size() > kMaxRank)
      return Diagnostic::error("field '" + std::string(s.name) +
                               "' has more than 8 entries");
    for (int64_t x : *l)
      LK_CHECK(inRange(s.name, x));
    return Ok{};
  }
  case Type::Bases: {
    if (const auto *l = std::get_if<std::vector<int64_t>>(&v))
      return l->empty() ? Status(Ok{}) : Status(wrong());
    const auto *b = std::get_if<std::vector<std::vector<int64_t>>>(&v);
    if (!b)
      return wrong();
    if (b->size() > kMaxBases)
      return Diagnostic::error("field '" + std::string(s.name) +
                               "' has more than 32 bases");
    for (const std::vector<int64_t> &basis : *b) {
      if (basis.size() > kMaxRank)
        return Diagnostic::error("field '" + std::string(s.name) +
                                 "' has a basis of more than 8 entries");
      for (int64_t x : basis)
        LK_CHECK(inRange(s.name, x));
    }
    return Ok{};
  }
  case Type::Parent: {
    const auto *p = std::get_if<std::shared_ptr<const Encoding>>(&v);
    return p && *p ? Status(Ok{}) : Status(wrong());
  }
  }
  return wrong();
}

std::vector<unsigned> toUnsigned(const FieldValue &v) {
  std::vector<unsigned> r;
  for (int64_t x : std::get<std::vector<int64_t>>(v))
    r.push_back(unsigned(x));
  return r;
}

std::vector<std::vector<int64_t>> toBases(const FieldValue &v) {
  if (const auto *b = std::get_if<std::vector<std::vector<int64_t>>>(&v))
    return *b;
  return {};
}

/// The int member field `name` is stored in, or null (`version` is
/// amd_wmma's version, or amd_mfma's versionMajor).
int *intSlot(Encoding &e, std::string_view name) {
  struct Slot {
    std::string_view name;
    int Encoding::*member;
  };
  static constexpr Slot kSlots[] = {
      {"versionMajor", &Encoding::versionMajor},
      {"versionMinor", &Encoding::versionMinor},
      {"mDim", &Encoding::mDim},
      {"nDim", &Encoding::nDim},
      {"repeatCount", &Encoding::repeatCount},
      {"systolicDepth", &Encoding::systolicDepth},
      {"executionSize", &Encoding::executionSize},
      {"opsPerChan", &Encoding::opsPerChannel},
      {"opsPerChannel", &Encoding::opsPerChannel},
      {"opIdx", &Encoding::opIdx},
      {"kWidth", &Encoding::kWidth},
      {"dim", &Encoding::dim},
      {"vec", &Encoding::vec},
      {"perPhase", &Encoding::perPhase},
      {"maxPhase", &Encoding::maxPhase},
      {"swizzlingByteWidth", &Encoding::swizzleSizeInBytes},
      {"swizzleSizeInBytes", &Encoding::swizzleSizeInBytes},
      {"elementBitWidth", &Encoding::elementBitWidth},
  };
  if (name == "version")
    return e.kind == EncodingKind::AmdWmma ? &e.version : &e.versionMajor;
  for (const Slot &s : kSlots)
    if (s.name == name)
      return &(e.*s.member);
  return nullptr;
}

std::vector<unsigned> *listSlot(Encoding &e, std::string_view name) {
  if (name == "sizePerThread")
    return &e.sizePerThread;
  if (name == "threadsPerWarp")
    return &e.threadsPerWarp;
  if (name == "warpsPerCTA")
    return &e.warpsPerCTA;
  if (name == "order")
    return &e.order;
  if (name == "instrShape")
    return &e.instrShape;
  if (name == "repCluster")
    return &e.repCluster;
  if (name == "tensorShape")
    return &e.tensorShape;
  if (name == "repShape")
    return &e.repShape;
  if (name == "CTAsPerCGA")
    return &e.cta.ctasPerCGA;
  if (name == "CTASplitNum")
    return &e.cta.ctaSplitNum;
  if (name == "CTAOrder")
    return &e.cta.ctaOrder;
  return nullptr;
}

/// Stores a checked value; the fields that need more than a copy (lists
/// that set two members, the linear bases) are the special cases.
Status store(Encoding &e, const Spec &s, const FieldValue &v,
             std::vector<InDimBases> &linearBases) {
  if (s.type == Type::Int && e.kind == EncodingKind::IntelDpas &&
      s.name == "threadsPerWarp") {
    e.threadsPerWarp = {unsigned(std::get<int64_t>(v))};
    return Ok{};
  }
  if (int *slot = s.type == Type::Int ? intSlot(e, s.name) : nullptr) {
    *slot = int(std::get<int64_t>(v));
    return Ok{};
  }
  switch (s.type) {
  case Type::Bool: {
    bool b = std::get<bool>(v);
    if (s.name == "fp4Padded")
      e.fp4Padded = b;
    else if (s.name == "transposed")
      e.transposed = b;
    else
      e.isTransposed = b;
    return Ok{};
  }
  case Type::Parent:
    e.parent = std::get<std::shared_ptr<const Encoding>>(v);
    return Ok{};
  case Type::Bases:
    if (s.name == "CGALayout")
      e.cta.blockBases = toBases(v);
    else
      linearBases.push_back({internDim(s.name), toBases(v)});
    return Ok{};
  case Type::List:
    if (std::vector<unsigned> *slot = listSlot(e, s.name)) {
      *slot = toUnsigned(v);
      return Ok{};
    }
    break;
  case Type::Int:
    break;
  }
  if (s.name == "tilesPerWarp") {
    for (unsigned t : toUnsigned(v))
      if (t != 1)
        return Diagnostic::error("field 'tilesPerWarp' other than all ones "
                                 "is not modelled");
    return Ok{};
  }
  return Diagnostic::error("field '" + std::string(s.name) + "' is not stored");
}

/// `d` pointed at [offset, offset + length) of `source`, when given.
Diagnostic placed(Diagnostic d, std::string_view source, size_t offset,
                  size_t length) {
  if (source.empty() || offset > source.size())
    return d;
  Diagnostic r = Diagnostic::at(std::move(d.message), source, offset,
                                std::max<size_t>(1, length));
  r.notes = std::move(d.notes);
  r.parameter = std::move(d.parameter);
  return r;
}

/// Kind-specific field meanings that the table cannot say.
Status interpret(Encoding &e, std::span<const EncodingField> fields) {
  auto has = [&](std::string_view n) {
    return std::any_of(fields.begin(), fields.end(),
                       [&](const EncodingField &f) { return f.name == n; });
  };
  if (e.kind == EncodingKind::AmdMfma) {
    if (e.versionMajor > 4) // Triton's range: the CDNA generations
      return Diagnostic::error("amd_mfma: version must be 0 to 4, got " +
                               std::to_string(e.versionMajor))
          .about(has("version") ? "version" : "versionMajor");
    if (has("instrShape")) {
      if (e.instrShape.size() < 2 || e.instrShape.size() > 3)
        return Diagnostic::error("field 'instrShape' of amd_mfma is [m, n] "
                                 "or [m, n, k]")
            .about("instrShape");
      e.mDim = int(e.instrShape[0]);
      e.nDim = int(e.instrShape[1]);
    } else if (!has("nDim")) {
      return Diagnostic::error("amd_mfma needs the field 'nDim' with 'mDim'")
          .about("mDim");
    }
  }
  if (e.kind == EncodingKind::AmdWmma && has("instrShape") &&
      (e.instrShape.size() < 2 || e.instrShape.size() > 3 ||
       e.instrShape[0] != 16 || e.instrShape[1] != 16))
    return Diagnostic::error("field 'instrShape' of amd_wmma must be "
                             "[16, 16] or [16, 16, k] (versions 1 and 2)")
        .about("instrShape");
  bool oldCta = has("CTAsPerCGA") || has("CTASplitNum") || has("CTAOrder");
  if (oldCta && has("CGALayout"))
    return Diagnostic::error("CGALayout and CTAsPerCGA/CTASplitNum/CTAOrder "
                             "are two spellings of one field; give one");
  if (oldCta && !(has("CTAsPerCGA") && has("CTASplitNum") && has("CTAOrder")))
    return Diagnostic::error("the CTA fields come together: CTAsPerCGA, "
                             "CTASplitNum and CTAOrder");
  return Ok{};
}

/// The `#ttg.linear` layout of `ins` (register, lane, warp, block in this
/// order): output dims dim0..dim{rank-1}, the rank told by the bases, the
/// sizes inferred (the smallest powers of two that fit; surjective).
Expected<LinearLayout> linearFromBases(std::vector<InDimBases> ins) {
  size_t rank = 0;
  for (const InDimBases &in : ins)
    if (!in.bases.empty()) {
      rank = in.bases.front().size();
      break;
    }
  if (rank == 0)
    return Diagnostic::error("linear: no basis tells the rank");
  static constexpr DimId kOrder[] = {dims::kRegister, dims::kLane, dims::kWarp,
                                     dims::kBlock};
  std::stable_sort(
      ins.begin(), ins.end(), [](const InDimBases &a, const InDimBases &b) {
        return std::find(std::begin(kOrder), std::end(kOrder), a.dim) <
               std::find(std::begin(kOrder), std::end(kOrder), b.dim);
      });
  std::vector<DimId> outs;
  for (size_t d = 0; d < rank; ++d)
    outs.push_back(dims::dim(int(d)));
  return LinearLayout::make(std::span<const InDimBases>(ins),
                            std::span<const DimId>(outs));
}

size_t depth(const Encoding &e) {
  size_t d = 0;
  for (const Encoding *p = e.parent.get(); p && d <= kMaxDepth;
       p = p->parent.get())
    ++d;
  return d;
}

/// The lists named in `what` have one length; else the failure is about
/// the first list whose length differs from the one most of them have
/// (the earliest such length on a tie): [1, 1] beside three lists of one
/// entry is the odd one out.
Status sameLength(std::initializer_list<
                      std::pair<const std::vector<unsigned> *, const char *>>
                      lists,
                  std::string_view what) {
  size_t common = 0, best = 0;
  for (auto [l, name] : lists) {
    size_t n = 0;
    for (auto [m, other] : lists)
      n += m->size() == l->size();
    if (n > best)
      best = n, common = l->size();
  }
  for (auto [l, name] : lists)
    if (l->size() != common)
      return Diagnostic::error(std::string(what) +
                               " must have one length (the rank)")
          .about(name);
  return Ok{};
}

} // namespace

std::string_view encodingKindName(EncodingKind k) { return info(k).name; }

std::optional<EncodingKind> encodingKindFromName(std::string_view name) {
  if (name == "dot_op")
    return EncodingKind::DotOperand;
  for (const KindInfo &i : kKinds)
    if (i.name == name)
      return i.kind;
  return std::nullopt;
}

Status checkEncoding(const Encoding &e) {
  if (depth(e) > kMaxDepth)
    return Diagnostic::error("layout parents nest deeper than 8");
  for (int v : {e.versionMajor, e.versionMinor, e.mDim, e.nDim, e.version,
                e.repeatCount, e.systolicDepth, e.executionSize,
                e.opsPerChannel, e.opIdx, e.kWidth, e.dim, e.vec, e.perPhase,
                e.maxPhase, e.swizzleSizeInBytes, e.elementBitWidth})
    if (v < 0 || v > kMaxValue)
      return Diagnostic::error("an integer field is outside 0..2^30 (got " +
                               std::to_string(v) + ")");
  const CTALayout &c = e.cta;
  if (!c.ctaOrder.empty() || !c.ctasPerCGA.empty() || !c.ctaSplitNum.empty())
    LK_CHECK(sameLength({{&c.ctasPerCGA, "CTAsPerCGA"},
                         {&c.ctaSplitNum, "CTASplitNum"},
                         {&c.ctaOrder, "CTAOrder"}},
                        "CTAsPerCGA, CTASplitNum and CTAOrder"));
  switch (e.kind) {
  case EncodingKind::Blocked:
    return sameLength(
        {{&e.sizePerThread, "sizePerThread"},
         {&e.threadsPerWarp, "threadsPerWarp"},
         {&e.warpsPerCTA, "warpsPerCTA"},
         {&e.order, "order"}},
        "blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order");
  case EncodingKind::DotOperand:
  case EncodingKind::Slice:
    if (!e.parent)
      return Diagnostic::error(std::string(encodingKindName(e.kind)) +
                               " needs a parent layout");
    return checkEncoding(*e.parent);
  case EncodingKind::NvmmaShared:
    if (!e.order.empty()) {
      size_t rank = e.order.size();
      unsigned fastest =
          unsigned(rank < 2 ? 0 : (e.transposed ? rank - 2 : rank - 1));
      if (e.order[0] != fastest)
        return Diagnostic::error("nvmma_shared: order must start with dim " +
                                 std::to_string(fastest) +
                                 " (the matrix order of transposed = " +
                                 (e.transposed ? "true" : "false") + ")")
            .about("order");
    }
    return Ok{};
  case EncodingKind::Linear:
    if (!e.linear)
      return Diagnostic::error("linear needs its layout");
    return Ok{};
  default:
    return Ok{};
  }
}

Expected<Encoding> makeEncoding(EncodingKind kind,
                                std::span<const EncodingField> fields,
                                std::string_view source, size_t kindOffset) {
  const KindInfo &k = info(kind);
  Encoding e;
  e.kind = kind;
  e.kindOffset = kindOffset;
  std::vector<InDimBases> linearBases;
  for (size_t i = 0; i < fields.size(); ++i) {
    const EncodingField &f = fields[i];
    // The linear oracle's JSON describes the CTA fields in a `CTALayout`
    // string beside them; it is no parameter of Triton's.
    if (f.name == "CTALayout")
      continue;
    e.places.push_back({f.name, f.offset, f.length});
    auto at = [&](Diagnostic d) {
      if (d.parameter.empty())
        d.parameter = f.name;
      return placed(std::move(d), source, f.offset, f.length);
    };
    const Spec *s = findSpec(k, f.name);
    if (!s)
      return at(Diagnostic::error(std::string(k.name) + " has no field '" +
                                  f.name + "'")
                    .note("its fields: " + fieldList(k)));
    for (size_t j = 0; j < i; ++j)
      if (fields[j].name == f.name)
        return at(Diagnostic::error("field '" + f.name + "' given twice"));
    if (Status st = checkValue(*s, f.value); !st)
      return at(std::move(st).error());
    if (Status st = store(e, *s, f.value, linearBases); !st)
      return at(std::move(st).error());
  }
  for (const Spec &s : k.fields) {
    if (!s.required)
      continue;
    auto given = [&](std::string_view n) {
      return !n.empty() &&
             std::any_of(fields.begin(), fields.end(),
                         [&](const EncodingField &f) { return f.name == n; });
    };
    if (!given(s.name) && !given(s.alt))
      return placed(Diagnostic::error("missing field '" + std::string(s.name) +
                                      "' (" + std::string(k.name) +
                                      " needs it)")
                        .about(std::string(s.name)),
                    source, kindOffset, 1);
  }
  // A failure about one parameter points at it, any other at the kind.
  auto atParameter = [&](Diagnostic d) {
    for (const EncodingField &f : fields)
      if (f.name == d.parameter)
        return placed(std::move(d), source, f.offset, f.length);
    return placed(std::move(d), source, kindOffset, 1);
  };
  if (Status st = interpret(e, fields); !st)
    return atParameter(std::move(st).error());
  if (kind == EncodingKind::Linear) {
    Expected<LinearLayout> l = linearFromBases(std::move(linearBases));
    if (!l)
      return placed(std::move(l).error(), source, kindOffset, 1);
    e.linear = std::make_shared<const LinearLayout>(std::move(*l));
  }
  if (Status st = checkEncoding(e); !st)
    return atParameter(std::move(st).error());
  return e;
}

namespace {} // namespace

Diagnostic placeAtField(Diagnostic d, const Encoding &e,
                        std::string_view source) {
  if (d.range || source.empty() || d.parameter.empty())
    return d;
  // "parent.order" is the parent's order.
  const Encoding *on = &e;
  std::string_view name = d.parameter;
  while (name.starts_with("parent.")) {
    on = on->parent.get();
    if (!on)
      return d;
    name.remove_prefix(7);
  }
  // A check names the parameter it reads; the text may hold it under
  // another spelling (one member of intSlot's table: swizzlingByteWidth
  // for swizzleSizeInBytes, version for versionMajor) or, for an mma's m
  // and n, inside instrShape.
  for (const Encoding *p = on; p; p = p->parent.get()) {
    Encoding &q = const_cast<Encoding &>(*p); // intSlot only names a member
    const int *member = intSlot(q, name);
    auto written = [&](std::string_view field) {
      return field == name || (member && intSlot(q, field) == member) ||
             (field == "instrShape" && (name == "mDim" || name == "nDim"));
    };
    for (const Encoding::FieldPlace &f : p->places)
      if (written(f.name))
        return placed(std::move(d), source, f.offset, f.length);
  }
  // A field of the kind that the text leaves out: the kind is at fault.
  if (findSpec(info(on->kind), name) && on->kindOffset <= source.size())
    return placed(std::move(d), source, on->kindOffset, 1);
  return d;
}

} // namespace lk::linear
