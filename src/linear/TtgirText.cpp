//===- TtgirText.cpp - Triton's layout attributes as TTGIR text -----------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A recursive-descent reader of the grammar in TtgirText.h over one Lexer
/// on the whole text, so every diagnostic has the line and column of the
/// pasted dump. Work is bounded: parents nest at most 8 deep, lists hold at
/// most 64 values, a type at most 8 dims; aliases are found by hash, so the
/// work is linear in the text (api::parseLayout bounds its length).
///
//===----------------------------------------------------------------------===//

#include "layoutkit/linear/TtgirText.h"

#include "layoutkit/core/Join.h"
#include "layoutkit/core/Lexer.h"
#include "layoutkit/linear/EncodingFields.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <unordered_map>

namespace lk::linear {
namespace {

constexpr int kMaxNesting = 8;
constexpr size_t kMaxListValues = 64, kMaxTypeDims = 8;

/// The kinds of Triton's GPU dialect LayoutKit reads, by TTGIR name.
std::optional<EncodingKind> ttgirKind(std::string_view name) {
  std::optional<EncodingKind> k = encodingKindFromName(name);
  if (!k || *k == EncodingKind::IntelDpas ||
      *k == EncodingKind::ShmemForRegToReg || name == "dot_operand")
    return std::nullopt;
  return k;
}

constexpr std::string_view kKindList =
    "blocked, nvidia_mma, amd_mfma, amd_wmma, dot_op, slice, "
    "swizzled_shared, nvmma_shared, linear";

/// An alias of the dump: a layout, or (for `#loc = loc(..)`,
/// `#smem = #ttg.shared_memory`, kinds not read) what its line holds.
struct Alias {
  std::shared_ptr<const Encoding> layout;
  std::string notLayout;
};

class Reader {
public:
  explicit Reader(std::string_view text) : text_(text), lx_(text) {}

  Expected<TtgirLayout> read() {
    std::shared_ptr<const Encoding> last;
    while (true) {
      skipComments();
      if (lx_.atEnd()) {
        if (last) {
          TtgirLayout r;
          r.encoding = *last;
          return r;
        }
        return lx_.expected("a layout ('#ttg.<kind><{...}>') or a tensor "
                            "type ('tensor<..., #ttg...>')");
      }
      size_t start = lx_.pos();
      if (lx_.peek() == '#' && isDefinition()) {
        LK_TRY(std::shared_ptr<const Encoding> def, definition());
        if (def) // the last alias that is a layout
          last = std::move(def);
        continue;
      }
      TtgirLayout r;
      if (lx_.peek() == '#') {
        LK_TRY(std::shared_ptr<const Encoding> e, attr(0));
        r.encoding = *e;
      } else if (lx_.consumeIf("tensor") || lx_.consumeIf("!ttg.memdesc")) {
        LK_CHECK(type(r, start));
      } else {
        return lx_.expected("an alias line ('#name = #ttg...'), a layout "
                            "('#ttg.<kind><{...}>') or a tensor type "
                            "('tensor<...>')");
      }
      skipComments();
      LK_CHECK(lx_.expectEnd("the end of the layout (it is the last line; "
                             "alias lines come before it)"));
      return r;
    }
  }

private:
  void skipComments() {
    while (lx_.peek() == '/' && lx_.peekAt(1) == '/') {
      size_t nl = text_.find('\n', lx_.pos());
      lx_.reset(nl == std::string_view::npos ? text_.size() : nl);
    }
  }

  /// Whether the next tokens are `#name =`.
  bool isDefinition() {
    size_t save = lx_.pos();
    lx_.consumeIf('#');
    bool def = lx_.readWord("alias") && lx_.peek() == '=';
    lx_.reset(save);
    return def;
  }

  size_t here() {
    lx_.atEnd(); // skip blanks
    return lx_.pos();
  }

  /// `#name = value`: the layout it defines (null when it is no layout).
  Expected<std::shared_ptr<const Encoding>> definition() {
    LK_CHECK(lx_.expect('#'));
    size_t nameAt = here();
    LK_TRY(std::string name, lx_.readWord("an alias name"));
    if (aliases_.count(name))
      return lx_.error("alias '#" + name + "' is defined twice", nameAt,
                       name.size());
    LK_CHECK(lx_.expect('='));
    size_t valueAt = here();
    Alias a{nullptr, {}};
    if (std::string what = notALayout(); !what.empty()) {
      a.notLayout = what;
      size_t nl = text_.find('\n', valueAt);
      lx_.reset(nl == std::string_view::npos ? text_.size() : nl);
    } else {
      LK_TRY(a.layout, attr(0));
    }
    std::shared_ptr<const Encoding> layout = a.layout;
    aliases_.emplace(std::move(name), std::move(a));
    return layout;
  }

  /// Empty when the value ahead is a layout (or an alias) to read; else a
  /// description of what the alias line holds, e.g. "'loc(...)'".
  std::string notALayout() {
    size_t save = lx_.pos();
    std::string what;
    if (!lx_.consumeIf('#')) {
      what = "'" + std::string(text_.substr(save, 8)) + "...'";
    } else if (Expected<std::string> d = lx_.readIdent("dialect");
               d && lx_.peek() == '.') {
      lx_.consumeIf('.');
      Expected<std::string> kind = lx_.readIdent("kind");
      bool ours = *d == "ttg" || *d == "triton_gpu";
      if (!ours || !kind || !ttgirKind(*kind) || lx_.peek() != '<')
        what = "'#" + *d + "." + (kind ? *kind : std::string()) + "'";
    }
    lx_.reset(save);
    return what;
  }

  /// `#alias` or `#ttg.kind<{fields}>`.
  Expected<std::shared_ptr<const Encoding>> attr(int nesting) {
    if (nesting > kMaxNesting)
      return lx_.error("layout parents nest deeper than 8");
    size_t hashAt = here();
    LK_CHECK(lx_.expect('#', "to start a layout attribute"));
    size_t nameAt = here();
    LK_TRY(std::string name, lx_.readWord("a layout ('#ttg.<kind>') or an "
                                          "alias ('#name')"));
    if (!lx_.consumeIf('.'))
      return alias(name, hashAt);
    if (name != "ttg" && name != "triton_gpu")
      return lx_.error("unknown dialect '" + name +
                           "': layouts are '#ttg.<kind>'",
                       nameAt, name.size());
    size_t kindAt = here();
    LK_TRY(std::string kindName, lx_.readWord("a layout kind"));
    std::optional<EncodingKind> kind = ttgirKind(kindName);
    if (!kind)
      return lx_
          .error("unknown layout kind '" + kindName + "'", kindAt,
                 kindName.size())
          .note("the kinds read: " + std::string(kKindList));
    LK_CHECK(lx_.expect('<', "after the layout kind"));
    LK_CHECK(lx_.expect('{', "to open the fields"));
    std::vector<EncodingField> fields;
    if (!lx_.consumeIf('}')) {
      while (true) {
        LK_TRY(EncodingField f, field(nesting));
        fields.push_back(std::move(f));
        if (lx_.consumeIf('}'))
          break;
        LK_CHECK(lx_.expect(',', "between fields (or '}' to close them)"));
      }
    }
    LK_CHECK(lx_.expect('>', "to close the layout"));
    LK_TRY(Encoding e, makeEncoding(*kind, fields, text_, kindAt));
    return std::make_shared<const Encoding>(std::move(e));
  }

  Expected<std::shared_ptr<const Encoding>> alias(const std::string &name,
                                                  size_t hashAt) {
    if (auto it = aliases_.find(name); it != aliases_.end()) {
      if (it->second.layout)
        return it->second.layout;
      return lx_
          .error("alias '#" + name + "' is " + it->second.notLayout +
                     ", not a layout LayoutKit reads",
                 hashAt, name.size() + 1)
          .note("the kinds read: " + std::string(kKindList));
    }
    return lx_.error("unknown alias '#" + name +
                         "' (define it on an earlier line: '#" + name +
                         " = #ttg...')",
                     hashAt, name.size() + 1);
  }

  Expected<EncodingField> field(int nesting) {
    size_t at = here();
    LK_TRY(std::string name, lx_.readWord("a field name"));
    LK_CHECK(lx_.expect('=', "after the field name"));
    LK_TRY(FieldValue v, value(nesting));
    return EncodingField{std::move(name), std::move(v), at, lx_.pos() - at};
  }

  Expected<FieldValue> value(int nesting) {
    char c = lx_.peek();
    if (c == '#') {
      LK_TRY(std::shared_ptr<const Encoding> p, attr(nesting + 1));
      return FieldValue(std::move(p));
    }
    if (lx_.consumeIf("true"))
      return FieldValue(true);
    if (lx_.consumeIf("false"))
      return FieldValue(false);
    if (c == '[')
      return list();
    if (c == '{' || c == '"') {
      LK_CHECK(skipBalanced());
      return FieldValue(OtherValue{c == '{' ? "a dictionary" : "a string"});
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      LK_TRY(int64_t v, lx_.readInt("a field value"));
      return FieldValue(v);
    }
    return lx_.expected("a field value (an integer, true, false, a list "
                        "'[..]' or a layout '#..')");
  }

  /// `[1, 2]` (a list) or `[[0, 1], [1, 0]]` (bases); `[]` is a list.
  Expected<FieldValue> list() {
    LK_CHECK(lx_.expect('['));
    std::vector<int64_t> ints;
    std::vector<std::vector<int64_t>> bases;
    size_t count = 0;
    if (lx_.consumeIf(']'))
      return FieldValue(std::move(ints));
    bool nested = lx_.peek() == '[';
    while (true) {
      if (++count > kMaxListValues)
        return lx_.error("a list of more than 64 values");
      if (nested) {
        LK_CHECK(lx_.expect('[', "to open a basis (the list holds lists)"));
        std::vector<int64_t> basis;
        if (!lx_.consumeIf(']')) {
          while (true) {
            if (++count > kMaxListValues)
              return lx_.error("a list of more than 64 values");
            LK_TRY(int64_t v, lx_.readInt("a basis value"));
            basis.push_back(v);
            if (lx_.consumeIf(']'))
              break;
            LK_CHECK(lx_.expect(',', "between values (or ']')"));
          }
        }
        bases.push_back(std::move(basis));
      } else {
        LK_TRY(int64_t v, lx_.readInt("a list value"));
        ints.push_back(v);
      }
      if (lx_.consumeIf(']'))
        break;
      LK_CHECK(lx_.expect(',', "between list values (or ']')"));
    }
    return nested ? FieldValue(std::move(bases)) : FieldValue(std::move(ints));
  }

  /// Skips a `{...}` or `"..."` value (not a layout field's type).
  Status skipBalanced() {
    size_t start = here();
    char open = text_[start];
    int depth = 0;
    for (size_t p = start; p < text_.size(); ++p) {
      char c = text_[p];
      bool closes =
          open == '"' ? (c == '"' && p > start) : (c == '}' && --depth == 0);
      if (open == '{' && c == '{')
        ++depth;
      if (closes) {
        lx_.reset(p + 1);
        return Ok{};
      }
    }
    return lx_.error(std::string("unclosed ") + open, start);
  }

  /// After `tensor` or `!ttg.memdesc`: `<dims elem, attr (, ...)*>`.
  Status type(TtgirLayout &r, size_t start) {
    bool memdesc = text_[start] == '!';
    LK_CHECK(lx_.expect('<', "to open the type"));
    std::vector<int64_t> shape;
    size_t p = here();
    while (p < text_.size() &&
           std::isdigit(static_cast<unsigned char>(text_[p]))) {
      int64_t v = 0;
      size_t dimAt = p;
      for (; p < text_.size() &&
             std::isdigit(static_cast<unsigned char>(text_[p]));
           ++p) {
        if (v > (int64_t(1) << 40))
          return lx_.error("a tensor dim above 2^40", dimAt, p - dimAt);
        v = v * 10 + (text_[p] - '0');
      }
      if (p >= text_.size() || text_[p] != 'x')
        return lx_.error("expected 'x' after a tensor dim", p);
      if (shape.size() == kMaxTypeDims)
        return lx_.error("a tensor type of more than 8 dims", dimAt);
      // A memdesc's leading dims may count buffers (3 pipeline stages).
      if (v == 0 || (!memdesc && (v & (v - 1)) != 0))
        return lx_.error("every tensor dim must be a power of two (got " +
                             std::to_string(v) + ")",
                         dimAt, p - dimAt);
      shape.push_back(v);
      ++p;
    }
    if (shape.empty())
      return lx_.error("expected the tensor's dims, e.g. 128x64xf16 (a "
                       "dynamic dim '?' has no layout)",
                       p);
    // The element type, up to the ',' before the encoding.
    int depth = 0;
    size_t elemAt = p;
    for (; p < text_.size(); ++p) {
      char c = text_[p];
      if (c == '<')
        ++depth;
      else if (c == '>' && --depth < 0)
        break;
      else if (c == ',' && depth == 0)
        break;
    }
    size_t elemEnd = p;
    while (elemEnd > elemAt &&
           std::isspace(static_cast<unsigned char>(text_[elemEnd - 1])))
      --elemEnd;
    lx_.reset(p);
    LK_CHECK(lx_.expect(',', "after the element type (the type needs a "
                             "layout: 'tensor<128x64xf16, #blocked>')"));
    const size_t attrAt = here();
    LK_TRY(std::shared_ptr<const Encoding> e, attr(0));
    if (memdesc && e->kind != EncodingKind::SwizzledShared &&
        e->kind != EncodingKind::NvmmaShared)
      return lx_.error(
          "a memdesc's layout is a shared one (#ttg.swizzled_shared, "
          "#ttg.nvmma_shared); #ttg." +
              std::string(encodingKindName(e->kind)) +
              " places a tensor in registers: write 'tensor<...>'",
          attrAt, lx_.pos() - attrAt);
    LK_CHECK(memdescFields(memdesc, shape));
    LK_CHECK(lx_.expect('>', "to close the type"));
    r.encoding = *e;
    r.shape = std::move(shape);
    r.memdesc = memdesc;
    r.elemAt = elemAt;
    r.elem = std::string(text_.substr(elemAt, elemEnd - elemAt));
    return Ok{};
  }

  /// A memdesc's fields after its layout, each at most once and read
  /// only to be checked: its memory space (memorySpace), `mutable`, an
  /// allocation shape (allocShape).
  Status memdescFields(bool memdesc, const std::vector<int64_t> &shape) {
    bool space = false, isMutable = false, alloc = false;
    while (memdesc && lx_.consumeIf(',')) {
      const size_t at = here();
      bool *seen = nullptr;
      if (lx_.peek() == '#') {
        seen = &space;
        LK_CHECK(memorySpace());
      } else if (lx_.consumeIf("mutable")) {
        seen = &isMutable;
      } else if (std::isdigit(static_cast<unsigned char>(lx_.peek()))) {
        seen = &alloc;
        LK_CHECK(allocShape(shape));
      } else {
        return lx_.expected("a memdesc field: a memory space '#smem', "
                            "'mutable' or an allocation shape '3x128x64'");
      }
      if (*seen)
        return lx_.error("this memdesc field is given twice", at,
                         lx_.pos() - at);
      *seen = true;
    }
    return Ok{};
  }

  /// A shared layout's memory space: `#ttg.shared_memory`, or an alias of
  /// it (`#smem`; one the text does not define is taken as such).
  Status memorySpace() {
    const size_t at = here();
    LK_CHECK(lx_.expect('#'));
    std::string name;
    do { // a dialect attribute's name holds '.'
      LK_TRY(std::string word, lx_.readWord("a memory space name"));
      name += (name.empty() ? "" : ".") + word;
    } while (lx_.consumeIf('.'));
    auto it = aliases_.find(name);
    const bool shared =
        name == "ttg.shared_memory" || name == "triton_gpu.shared_memory" ||
        (name.find('.') == name.npos &&
         (it == aliases_.end() ||
          it->second.notLayout == "'#ttg.shared_memory'" ||
          it->second.notLayout == "'#triton_gpu.shared_memory'"));
    if (!shared)
      return lx_.error("a shared layout's memory space is "
                       "'#ttg.shared_memory' (or an alias of it, '#smem'), "
                       "not '#" +
                           name + "'" +
                           (it == aliases_.end() ? ""
                            : it->second.layout
                                ? ", which is a layout"
                                : ", which is " + it->second.notLayout),
                       at, lx_.pos() - at);
    return Ok{};
  }

  /// An allocation shape `3x128x64`: no dim 0, at least the type's rank,
  /// its last dims the type's (leading ones count buffers). Triton allows
  /// last dims above the type's (a subview, whose layout is built over the
  /// allocation's dims); LayoutKit builds the type's, so it refuses them.
  Status allocShape(const std::vector<int64_t> &shape) {
    const size_t at = here();
    std::vector<int64_t> dims;
    do {
      size_t p = here(), dimAt = p;
      int64_t d = 0;
      for (; p < text_.size() && std::isdigit((unsigned char)text_[p]); ++p)
        if ((d = d * 10 + (text_[p] - '0')) > (int64_t(1) << 40))
          return lx_.error("an allocation dim above 2^40", dimAt, p - dimAt);
      if (p == dimAt || d == 0)
        return lx_.error("expected an allocation dim (a decimal integer "
                         "from 1)",
                         dimAt, std::max<size_t>(1, p - dimAt));
      lx_.reset(p);
      if (dims.size() == kMaxTypeDims)
        return lx_.error("an allocation shape of more than 8 dims", at,
                         lx_.pos() - at);
      dims.push_back(d);
    } while (lx_.consumeIf('x'));
    bool covers = dims.size() >= shape.size();
    for (size_t i = 0; covers && i < shape.size(); ++i)
      covers = shape[i] <= dims[dims.size() - shape.size() + i];
    if (!covers)
      return lx_.error("the allocation shape " + joinIntegers(dims, "x") +
                           " does not hold the type's " +
                           joinIntegers(shape, "x") +
                           " (its last dims must be the type's)",
                       at, lx_.pos() - at);
    if (!std::equal(shape.begin(), shape.end(), dims.end() - shape.size()))
      return lx_.error(
          "the type " + joinIntegers(shape, "x") +
              " views part of the allocation " + joinIntegers(dims, "x") +
              ", whose layout is the allocation's; LayoutKit reads a memdesc "
              "whose last dims are its allocation's: write the allocation's",
          at, lx_.pos() - at);
    return Ok{};
  }

  std::string_view text_;
  Lexer lx_;
  /// By name: one lookup per use, so a dump of n aliases reads in O(n).
  std::unordered_map<std::string, Alias> aliases_;
};

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string listText(const std::vector<unsigned> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string basesText(const std::vector<std::vector<int64_t>> &b) {
  std::string s = "[";
  for (size_t i = 0; i < b.size(); ++i) {
    s += i ? ", [" : "[";
    for (size_t j = 0; j < b[i].size(); ++j)
      s += (j ? ", " : "") + std::to_string(b[i][j]);
    s += "]";
  }
  return s + "]";
}

std::string ctaText(const CTALayout &c) {
  if (c.blockBases)
    return ", CGALayout = " + basesText(*c.blockBases);
  if (c.ctaOrder.empty())
    return "";
  return ", CTAsPerCGA = " + listText(c.ctasPerCGA) +
         ", CTASplitNum = " + listText(c.ctaSplitNum) +
         ", CTAOrder = " + listText(c.ctaOrder);
}

std::string boolText(bool b) { return b ? "true" : "false"; }

std::string n(int v) { return std::to_string(v); }

Expected<std::string> fieldsText(const Encoding &e) {
  switch (e.kind) {
  case EncodingKind::Blocked:
    return "sizePerThread = " + listText(e.sizePerThread) +
           ", threadsPerWarp = " + listText(e.threadsPerWarp) +
           ", warpsPerCTA = " + listText(e.warpsPerCTA) +
           ", order = " + listText(e.order) + ctaText(e.cta);
  case EncodingKind::NvidiaMma:
    return "versionMajor = " + n(e.versionMajor) +
           ", versionMinor = " + n(e.versionMinor) +
           ", warpsPerCTA = " + listText(e.warpsPerCTA) + ctaText(e.cta) +
           ", instrShape = " + listText(e.instrShape);
  case EncodingKind::AmdMfma:
    return "version = " + n(e.versionMajor) +
           ", warpsPerCTA = " + listText(e.warpsPerCTA) + ctaText(e.cta) +
           ", instrShape = [" + n(e.mDim) + ", " + n(e.nDim) +
           "], isTransposed = " + boolText(e.isTransposed);
  case EncodingKind::AmdWmma:
    return "version = " + n(e.version) +
           ", isTranspose = " + boolText(e.isTransposed) +
           ", warpsPerCTA = " + listText(e.warpsPerCTA) + ctaText(e.cta);
  case EncodingKind::DotOperand: {
    if (!e.parent)
      return Diagnostic::error("dot_operand needs a parent layout");
    LK_TRY(std::string p, printTtgir(*e.parent));
    return "opIdx = " + n(e.opIdx) + ", parent = " + p +
           (e.kWidth ? ", kWidth = " + n(e.kWidth) : std::string());
  }
  case EncodingKind::Slice: {
    if (!e.parent)
      return Diagnostic::error("slice needs a parent layout");
    LK_TRY(std::string p, printTtgir(*e.parent));
    return "dim = " + n(e.dim) + ", parent = " + p;
  }
  case EncodingKind::SwizzledShared:
    return "vec = " + n(e.vec) + ", perPhase = " + n(e.perPhase) +
           ", maxPhase = " + n(e.maxPhase) + ", order = " + listText(e.order) +
           ctaText(e.cta);
  case EncodingKind::NvmmaShared:
    return "swizzlingByteWidth = " + n(e.swizzleSizeInBytes) +
           ", transposed = " + boolText(e.transposed) +
           ", elementBitWidth = " + n(e.elementBitWidth) +
           (e.fp4Padded ? ", fp4Padded = true" : "") + ctaText(e.cta);
  case EncodingKind::Linear: {
    if (!e.linear)
      return Diagnostic::error("linear needs its layout");
    std::string s;
    for (DimId d : {dims::kRegister, dims::kLane, dims::kWarp, dims::kBlock}) {
      int i = e.linear->inDimIndex(d);
      s += (s.empty() ? "" : ", ") + std::string(dimName(d)) + " = " +
           basesText(i < 0 ? std::vector<std::vector<int64_t>>{}
                           : e.linear->bases(i));
    }
    return s;
  }
  case EncodingKind::IntelDpas:
  case EncodingKind::ShmemForRegToReg:
    break;
  }
  return Diagnostic::error(std::string(encodingKindName(e.kind)) +
                           " has no TTGIR form in Triton's GPU dialect");
}

} // namespace

Expected<TtgirLayout> parseTtgir(std::string_view text) {
  return Reader(text).read();
}

Expected<std::string> printTtgir(const Encoding &e) {
  LK_TRY(std::string fields, fieldsText(e));
  std::string_view kind =
      e.kind == EncodingKind::DotOperand ? "dot_op" : encodingKindName(e.kind);
  return "#ttg." + std::string(kind) + "<{" + fields + "}>";
}

} // namespace lk::linear
