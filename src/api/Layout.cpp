//===- Layout.cpp - A layout in any model, read from text -----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Layout.h"

#include "layoutkit/core/Join.h"

#include "layoutkit/cute/Attribute.h"
#include "layoutkit/cute/BasisDescriptor.h"
#include "layoutkit/cute/Text.h"
#include "layoutkit/linear/EncodingFields.h"
#include "layoutkit/linear/EncodingJson.h"
#include "layoutkit/linear/Text.h"
#include "layoutkit/linear/TtgirText.h"
#include "layoutkit/tile/TileText.h"

#include <cctype>

namespace lk::api {

std::string_view modelName(Model m) {
  switch (m) {
  case Model::Cute:
    return "cute";
  case Model::Tile:
    return "tile";
  case Model::Linear:
    return "linear";
  }
  return "?";
}

std::string_view syntaxName(Syntax s) {
  switch (s) {
  case Syntax::StandardParams:
    return "standard-layout parameters (JSON)";
  case Syntax::LinearText:
    return "a linear layout";
  case Syntax::TileText:
    return "a tile layout";
  case Syntax::Attribute:
    return "a layout attribute";
  case Syntax::TtgirText:
    return "Triton's TTGIR layout text";
  case Syntax::CuteText:
    return "a cute layout";
  case Syntax::BasisDescriptor:
    return "a basis descriptor";
  }
  return "?";
}

Model modelOf(Syntax s) {
  switch (s) {
  case Syntax::StandardParams:
  case Syntax::LinearText:
  case Syntax::TtgirText:
    return Model::Linear;
  case Syntax::TileText:
    return Model::Tile;
  default:
    return Model::Cute;
  }
}

std::string tileText(const tile::SwizzledTileLayout &c) {
  return c.swizzle().isIdentity() ? c.tile().str() : c.str();
}

std::string cuteText(const cute::ComposedLayout &c) {
  return c.swizzle.isIdentity() && c.offset == 0 ? c.layout.str() : c.str();
}

std::string AnyLayout::str() const {
  if (const cute::ComposedLayout *c = cute())
    return cuteText(*c);
  if (const tile::SwizzledTileLayout *t = tile())
    return tileText(*t);
  return linear()->str();
}

namespace {

/// The text after leading blanks (a UTF-8 byte-order mark opening it
/// counts as one, as the readers' Lexer skips it).
std::string_view trimmed(std::string_view text) {
  size_t p = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p])))
    ++p;
  return text.substr(p);
}

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

/// The first non-blank character after the first one of `t`, or 0.
char nextAfter(std::string_view t) {
  std::string_view rest =
      t.size() > 1 ? trimmed(t.substr(1)) : std::string_view();
  return rest.empty() ? 0 : rest[0];
}

/// Identity swizzles (B = 0) are one function whatever their M and S, and
/// the print forms omit them; the api keeps the default identity so that a
/// layout equals its print form read back ("Sw<0,3,3> o 4:1" is 4:1).
cute::ComposedLayout canonical(cute::ComposedLayout c) {
  if (c.swizzle.isIdentity())
    c.swizzle = cute::Swizzle{};
  return c;
}

tile::SwizzledTileLayout canonical(tile::SwizzledTileLayout c) {
  if (c.swizzle().isIdentity() && !(c.swizzle() == tile::SwizzleLayout()))
    return tile::SwizzledTileLayout(tile::SwizzleLayout(), c.tile());
  return c;
}

Expected<AnyLayout> readStandard(std::string_view text, const ParseOptions &o) {
  if (!o.shape)
    return Diagnostic::error("standard-layout parameters need " + o.shapeName +
                             ", the tensor shape, e.g. (64,64)");
  LK_TRY(linear::Encoding enc, linear::parseEncodingJson(text));
  std::vector<int64_t> shape;
  for (const IntTuple::Node &n : o.shape->leaves())
    shape.push_back(n.value);
  Expected<linear::LinearLayout> l = linear::toLinearLayout(enc, shape);
  if (!l)
    return linear::placeAtField(std::move(l).error(), enc, text);
  return AnyLayout{Syntax::StandardParams, std::move(*l), std::nullopt};
}

/// Triton's TTGIR spellings of registry types, where they differ: the f8
/// variants, the sub-byte and scale types of block-scaled dots, and i1
/// (the byte Triton stores a boolean in).
constexpr std::pair<std::string_view, std::string_view> kTtgirSpellings[] = {
    {"f8E4M3FN", "f8e4m3"},      {"f8E4M3FNUZ", "f8e4m3"},
    {"f8E4M3B11FNUZ", "f8e4m3"}, {"f8E5M2", "f8e5m2"},
    {"f8E5M2FNUZ", "f8e5m2"},    {"f4E2M1FN", "f4e2m1"},
    {"f6E2M3FN", "f6e2m3"},      {"f6E3M2FN", "f6e3m2"},
    {"f8E8M0FNU", "ue8m0"},      {"i1", "i8"}};

/// The TTGIR spellings of kTtgirSpellings, comma separated.
std::string ttgirSpellings() {
  std::string r;
  for (auto [ttgir, ours] : kTtgirSpellings)
    r += (r.empty() ? "" : ", ") + std::string(ttgir);
  return r;
}

/// Whether `e` is Triton's pointer type `!tt.ptr<T>` or
/// `!tt.ptr<T, addressSpace>`: T an element type registryNameOfTtgir
/// names (a pointer too), the address space decimal digits.
bool isTtgirPointer(std::string_view e);

/// The registry name of a TTGIR element type (see elementTypeOf); empty
/// when it has none.
std::string registryNameOfTtgir(std::string_view e) {
  if (isTtgirPointer(e))
    return "i64";
  for (auto [ttgir, ours] : kTtgirSpellings)
    if (e == ttgir)
      return std::string(ours);
  for (std::string_view same :
       {"f16", "bf16", "f32", "f64", "tf32", "i8", "i16", "i32", "i64"})
    if (e == same)
      return std::string(same);
  return {};
}

/// `s` without its leading and trailing blanks.
std::string_view withoutBlanks(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == s.npos ? std::string_view() : s.substr(b, e - b + 1);
}

bool isTtgirPointer(std::string_view e) {
  constexpr std::string_view open = "!tt.ptr<";
  bool pointer = false;
  // One level a pass, in constant stack and linear time: the address
  // space's comma is after the last '>' of the pointee (a scan of the tail).
  while (e.size() >= open.size() + 2 && e.substr(0, open.size()) == open &&
         e.back() == '>') {
    std::string_view inner = e.substr(open.size(), e.size() - open.size() - 1);
    const size_t close = inner.rfind('>');
    if (size_t comma = inner.find(',', close == inner.npos ? 0 : close);
        comma != inner.npos) {
      std::string_view space = withoutBlanks(inner.substr(comma + 1));
      if (space.empty() || space.size() > 9 || // an int32 address space
          space.find_first_not_of("0123456789") != space.npos)
        return false;
      inner = inner.substr(0, comma);
    }
    e = withoutBlanks(inner);
    pointer = true;
  }
  return pointer && !registryNameOfTtgir(e).empty();
}

/// A typed memdesc's faults found before its layout is built: an
/// nvmma_shared elementBitWidth other than the type's element width, and a
/// pipelined allocation (the leading dim counts buffers of a layout one
/// rank lower). Ok when neither applies.
Status checkMemdesc(const linear::TtgirLayout &t) {
  if (!t.memdesc || !t.shape)
    return Ok{};
  const std::vector<int64_t> &shape = *t.shape;
  std::string name = registryNameOfTtgir(t.elem);
  Expected<cute::ElementType> elem =
      name.empty() ? Expected<cute::ElementType>(Diagnostic::error(""))
                   : cute::lookupElementType(name);
  if (t.encoding.kind == linear::EncodingKind::NvmmaShared && elem &&
      elem->bits != t.encoding.elementBitWidth)
    return Diagnostic::error("nvmma_shared's elementBitWidth " +
                             std::to_string(t.encoding.elementBitWidth) +
                             " and the memdesc's element type " + t.elem +
                             " (" + std::to_string(elem->bits) +
                             " bits) disagree");
  // Buffers lead where the encoding's fields fix a rank one less than the
  // type's (a swizzled_shared order, a CTA order), where a tensor dim
  // cannot (not a power of two), or before a 2-D tile; otherwise (an
  // nvmma_shared 8x32) the type's own fault is reported as is.
  const size_t rank = !t.encoding.order.empty()
                          ? t.encoding.order.size()
                          : t.encoding.cta.ctaOrder.size();
  const bool buffers = rank + 1 == shape.size() || shape.size() > 2 ||
                       (shape.size() == 2 && (shape[0] & (shape[0] - 1)) != 0);
  if (buffers && !linear::toLinearLayout(t.encoding, shape) &&
      linear::toLinearLayout(t.encoding,
                             std::span<const int64_t>(shape).subspan(1))) {
    std::string one = joinIntegers(std::span(shape).subspan(1), "x");
    return Diagnostic::error(
        "a memdesc of " + std::to_string(shape[0]) + " buffers of " + one +
        ": the layout is one buffer's; write its type, '!ttg.memdesc<" + one +
        "x...>' (as ttg.memdesc_index gives it)");
  }
  return Ok{};
}

/// A TTGIR type's element type: one registryNameOfTtgir names, else an
/// error with a caret at it (an empty one too: "tensor<8x16x, #..>").
Status checkTtgirElement(const linear::TtgirLayout &t, std::string_view text) {
  if (!t.shape || !registryNameOfTtgir(t.elem).empty())
    return Ok{};
  const std::string shown = excerpt(t.elem);
  std::string message =
      t.elem.empty()
          ? "expected the element type after the dims, e.g. 128x64xf16"
          : "unknown element type '" + shown +
                "' (LayoutKit reads f16, bf16, f32, f64, tf32, i8 to i64, " +
                ttgirSpellings() + ", !tt.ptr<..>)";
  if (t.elem.rfind("!tt.ptr<", 0) == 0)
    message = "expected a pointer type !tt.ptr<T> or !tt.ptr<T, N>, T an "
              "element type LayoutKit reads or a pointer, N a decimal "
              "address space of at most 9 digits; got '" +
              shown + "'";
  return Diagnostic::at(message, text, t.elemAt,
                        std::max<size_t>(1, t.elem.size()));
}

/// TTGIR text over the shape of its type or of the options (see Layout.h).
Expected<AnyLayout> readTtgir(std::string_view text, const ParseOptions &o) {
  LK_TRY(linear::TtgirLayout t, linear::parseTtgir(text));
  LK_CHECK(checkTtgirElement(t, text));
  LK_CHECK(checkMemdesc(t));
  bool typed = t.shape.has_value();
  std::vector<int64_t> shape = typed ? *t.shape : std::vector<int64_t>();
  if (o.shape) {
    std::vector<int64_t> given;
    for (const IntTuple::Node &n : o.shape->leaves())
      given.push_back(n.value);
    if (typed && shape != given)
      return Diagnostic::error(
          "the tensor type's shape (" + joinIntegers(shape, ",") + ") and " +
          o.shapeName + " " + o.shape->str() + " disagree");
    shape = std::move(given);
  } else if (!typed) {
    if (t.encoding.kind == linear::EncodingKind::Linear)
      return AnyLayout{Syntax::TtgirText, *t.encoding.linear, std::nullopt};
    return Diagnostic::error(
        "a TTGIR layout attribute needs the tensor shape: write its type, "
        "e.g. 'tensor<128x64xf16, #ttg...>'" +
        (o.shapeName.empty() ? std::string() : ", or give " + o.shapeName));
  }
  Expected<linear::LinearLayout> l = linear::toLinearLayout(t.encoding, shape);
  if (!l)
    return linear::placeAtField(std::move(l).error(), t.encoding, text);
  return AnyLayout{Syntax::TtgirText, std::move(*l), std::nullopt};
}

Expected<AnyLayout> readTile(std::string_view text) {
  if (startsWith(trimmed(text), "Swizzle")) {
    LK_TRY(tile::SwizzledTileLayout c, tile::parseSwizzledTileLayout(text));
    return AnyLayout{Syntax::TileText, canonical(std::move(c)), std::nullopt};
  }
  LK_TRY(tile::TileLayout t, tile::parseTileLayout(text));
  return AnyLayout{
      Syntax::TileText,
      tile::SwizzledTileLayout(tile::SwizzleLayout(), std::move(t)),
      std::nullopt};
}

Expected<AnyLayout> readAttribute(std::string_view text,
                                  const ParseOptions &o) {
  LK_TRY(cute::LayoutAttribute a, cute::parseLayoutAttribute(text));
  LK_TRY(cute::ComposedLayout c, a.elementLayout(o.elementBits));
  return AnyLayout{Syntax::Attribute, canonical(std::move(c)),
                   std::move(a.elem)};
}

Expected<AnyLayout> readBasisDescriptor(std::string_view text,
                                        const ParseOptions &o) {
  LK_TRY(IntTuple strides, cute::parseBasisDescriptor(text));
  if (!o.shape)
    return Diagnostic::error("a basis descriptor gives only strides; it "
                             "needs " +
                             o.shapeName + ", e.g. (4,8) for (1@0,1@1)");
  cute::ComposedLayout c;
  LK_TRY(c.layout, cute::Layout::make(*o.shape, std::move(strides)));
  return AnyLayout{Syntax::BasisDescriptor, std::move(c), std::nullopt};
}

Expected<AnyLayout> readAs(Syntax s, std::string_view text,
                           const ParseOptions &o) {
  switch (s) {
  case Syntax::StandardParams:
    return readStandard(text, o);
  case Syntax::LinearText: {
    LK_TRY(linear::LinearLayout l, linear::parseLinearLayout(text));
    return AnyLayout{s, std::move(l), std::nullopt};
  }
  case Syntax::TileText:
    return readTile(text);
  case Syntax::Attribute:
    return readAttribute(text, o);
  case Syntax::TtgirText:
    return readTtgir(text, o);
  case Syntax::CuteText: {
    LK_TRY(cute::ComposedLayout c, cute::parseComposedLayout(text));
    return AnyLayout{s, canonical(std::move(c)), std::nullopt};
  }
  case Syntax::BasisDescriptor:
    return readBasisDescriptor(text, o);
  }
  return Diagnostic::error("unknown grammar");
}

} // namespace

std::string readAsNote(Syntax s) {
  return "read as " + std::string(syntaxName(s)) +
         " (the model is told by the first characters: '{\"' JSON "
         "parameters, '{' linear, 'S[', 'R[' or 'Swizzle' tile, '<' a layout "
         "attribute, '#', 'tensor<' or '!ttg.memdesc<' Triton's TTGIR, "
         "otherwise cute, and '(' also a basis descriptor)";
}

std::vector<Syntax> candidateSyntaxes(std::string_view text) {
  std::string_view t = trimmed(text);
  char first = t.empty() ? 0 : t[0];
  if (first == '{')
    return {nextAfter(t) == '"' ? Syntax::StandardParams : Syntax::LinearText};
  if ((first == 'S' || first == 'R') && nextAfter(t) == '[')
    return {Syntax::TileText};
  if (startsWith(t, "Swizzle"))
    return {Syntax::TileText};
  if (first == '<')
    return {Syntax::Attribute};
  if (first == '#' || startsWith(t, "tensor<") ||
      startsWith(t, "!ttg.memdesc<"))
    return {Syntax::TtgirText};
  if (first == '(')
    return {Syntax::CuteText, Syntax::BasisDescriptor};
  return {Syntax::CuteText};
}

namespace {

/// The bound every reader of layout text applies before reading.
Status checkTextLength(std::string_view text) {
  if (text.size() > kMaxLayoutTextBytes)
    return Diagnostic::error(
        "layout text of " + std::to_string(text.size()) + " bytes; at most " +
        std::to_string(kMaxLayoutTextBytes) + " (1 MiB) are read");
  return Ok{};
}

} // namespace

Expected<AnyLayout> parseLayout(std::string_view text,
                                const ParseOptions &options) {
  LK_CHECK(checkTextLength(text));
  if (options.syntax)
    return readAs(*options.syntax, text, options);
  std::vector<Syntax> tried = candidateSyntaxes(text);
  std::optional<Diagnostic> first;
  std::vector<std::string> also;
  for (Syntax s : tried) {
    Expected<AnyLayout> l = readAs(s, text, options);
    if (l)
      return l;
    if (!first)
      first = std::move(l).error();
    else
      also.push_back(
          "also tried as " + std::string(syntaxName(s)) + ": " +
          l.error().message +
          (l.error().range
               ? " at column " + std::to_string(l.error().range->begin.column)
               : std::string()));
  }
  Diagnostic d = std::move(*first);
  d.notes.push_back(readAsNote(tried.front()));
  for (std::string &n : also)
    d.notes.push_back(std::move(n));
  return d;
}

Expected<std::optional<cute::ElementType>>
elementTypeOf(std::string_view text) {
  LK_CHECK(checkTextLength(text));
  Syntax s = candidateSyntaxes(text).front();
  if (s == Syntax::Attribute) {
    Expected<cute::LayoutAttribute> a = cute::parseLayoutAttribute(text);
    return a ? a->elem : std::nullopt;
  }
  if (s != Syntax::TtgirText)
    return std::optional<cute::ElementType>();
  Expected<linear::TtgirLayout> t = linear::parseTtgir(text);
  if (!t || !t->shape)
    return std::optional<cute::ElementType>();
  LK_CHECK(checkTtgirElement(*t, text));
  LK_TRY(cute::ElementType e,
         cute::lookupElementType(registryNameOfTtgir(t->elem)));
  return std::optional<cute::ElementType>(std::move(e));
}

Expected<cute::ElementType> elementTypeNamed(std::string_view name) {
  Expected<cute::ElementType> e = cute::lookupElementType(name);
  if (e)
    return e;
  if (std::string ttgir = registryNameOfTtgir(name); !ttgir.empty())
    return cute::lookupElementType(ttgir);
  return std::move(e).error().note("also read: Triton's " + ttgirSpellings() +
                                   " (i1 as a byte)");
}

Expected<std::vector<int64_t>> parseShapeLeaves(std::string_view text) {
  LK_TRY(IntTuple t, cute::parseIntTuple(text));
  std::vector<int64_t> shape;
  for (const IntTuple::Node &n : t.leaves())
    shape.push_back(n.value);
  return shape;
}

namespace {

/// The offset and length of the k-th integer written in IntTuple text
/// (a basis mode after '@' is no integer of the shape); npos when absent.
std::pair<size_t, size_t> nthInteger(std::string_view text, size_t k) {
  for (size_t p = 0; p < text.size();) {
    bool sign = text[p] == '-' && p + 1 < text.size() &&
                std::isdigit(static_cast<unsigned char>(text[p + 1]));
    if (!sign && !std::isdigit(static_cast<unsigned char>(text[p]))) {
      ++p;
      continue;
    }
    size_t q = p + 1;
    while (q < text.size() && std::isdigit(static_cast<unsigned char>(text[q])))
      ++q;
    bool basis = p > 0 && text[p - 1] == '@';
    if (!basis && k-- == 0)
      return {p, q - p};
    p = q;
  }
  return {std::string_view::npos, 0};
}

} // namespace

Expected<IntTuple> parseTensorShape(std::string_view text) {
  LK_TRY(IntTuple t, cute::parseIntTuple(text));
  std::vector<int64_t> shape;
  for (const IntTuple::Node &n : t.leaves())
    shape.push_back(n.value);
  Status s = linear::checkTensorShape(shape);
  if (s)
    return t;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] > 0 && (shape[k] & (shape[k] - 1)) == 0)
      continue;
    auto [at, length] = nthInteger(text, k);
    if (at != std::string_view::npos)
      return Diagnostic::at(s.error().message, text, at, length);
  }
  return std::move(s).error();
}

} // namespace lk::api
