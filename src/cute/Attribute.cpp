//===- Attribute.cpp ------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Attribute.h"
#include "layoutkit/core/Lexer.h"

#include "layoutkit/cute/TupleSyntax.h"

#include <array>
#include <bit>

namespace lk::cute {
namespace {

using detail::isDigit;
using detail::kAttributeTuple;
using detail::LocatedTuple;
using detail::Span;

constexpr int kMaxNesting = kAttributeTuple.maxNesting;

constexpr std::array<Swizzle, 5> kHardwareSwizzles = {
    Swizzle{0, 4, 3}, Swizzle{1, 4, 3}, Swizzle{2, 4, 3}, Swizzle{3, 4, 3},
    Swizzle{2, 5, 2}};

std::string swizzleText(int64_t b, int64_t m, int64_t s) {
  return "swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," +
         std::to_string(s) + ">";
}

std::string supportedNote() {
  std::string note = "supported swizzles: ";
  for (size_t i = 0; i < kHardwareSwizzles.size(); ++i) {
    const Swizzle &s = kHardwareSwizzles[i];
    if (i)
      note += ", ";
    note += swizzleText(s.B, s.M, s.S);
  }
  return note;
}

/// Everything the syntax stage collects, with locations for the later
/// stages.
struct AttributeSyntax {
  LocatedTuple shape;
  LocatedTuple stride;
  bool hasSwizzle = false;
  int64_t swizzle[3] = {0, 0, 0};
  Span swizzleSpan;
  bool hasElem = false;
  std::string elem;
  Span elemSpan;
};

class AttributeParser {
public:
  explicit AttributeParser(std::string_view text) : lx_(text) {}

  Expected<AttributeSyntax> syntax() {
    AttributeSyntax a;
    LK_CHECK(lx_.expect('<', "to start a layout attribute"));
    LK_TRY(a.shape, tuple("shape"));
    LK_CHECK(lx_.expect(',', "between shape and stride"));
    LK_TRY(a.stride, tuple("stride"));
    bool clauseSeen = false;
    while (true) {
      if (a.hasElem) { // elem is the last clause
        const size_t after = lx_.pos();
        Status closed = lx_.expect('>', "to close the layout attribute");
        if (closed)
          break;
        // A swizzle after elem gets the rule; other junk only the error.
        Expected<std::string> next =
            lx_.consumeIf(',') ? lx_.readWord("clause") : std::string();
        lx_.reset(after);
        if (next && *next == "swizzle")
          return std::move(closed).error().note(
              "elem is the last clause: the swizzle comes before it");
        return std::move(closed).error();
      }
      if (lx_.consumeIf('>'))
        break;
      if (!lx_.consumeIf(',')) {
        return lx_.expected(
            a.hasSwizzle
                ? "',' or '>' after the swizzle"
                : (clauseSeen ? "',' or '>'" : "',' or '>' after the stride"));
      }
      clauseSeen = true;
      lx_.peek();
      size_t keyStart = lx_.pos();
      std::string_view wanted =
          a.hasSwizzle ? "'elem=<name>'" : "'swizzle<B,M,S>' or 'elem=<name>'";
      Expected<std::string> key = lx_.readWord("clause");
      if (!key) {
        lx_.reset(keyStart);
        return lx_.expected(wanted);
      }
      if (*key == "swizzle" && !a.hasSwizzle) {
        a.hasSwizzle = true;
        LK_CHECK(lx_.expect('<', "after 'swizzle'"));
        LK_TRY(a.swizzle[0], uint("swizzle B"));
        LK_CHECK(lx_.expect(',', "after swizzle B"));
        LK_TRY(a.swizzle[1], uint("swizzle M"));
        LK_CHECK(lx_.expect(',', "after swizzle M"));
        LK_TRY(a.swizzle[2], uint("swizzle S"));
        LK_CHECK(lx_.expect('>', "to close the swizzle"));
        a.swizzleSpan = Span{keyStart, lx_.pos() - keyStart};
        continue;
      }
      if (*key == "elem") {
        a.hasElem = true;
        LK_CHECK(lx_.expect('=', "after 'elem'"));
        lx_.peek();
        a.elemSpan.offset = lx_.pos();
        LK_TRY(a.elem, lx_.readIdent("element type"));
        a.elemSpan.length = lx_.pos() - a.elemSpan.offset;
        continue;
      }
      std::string found =
          *key == "swizzle" ? "a second 'swizzle' clause" : "'" + *key + "'";
      return lx_.error("expected " + std::string(wanted) + " but found " +
                           found,
                       keyStart, key->size());
    }
    LK_CHECK(lx_.expectEnd("end of layout attribute"));
    return a;
  }

  Lexer &lexer() { return lx_; }

private:
  Expected<int64_t> uint(std::string_view what) {
    if (!isDigit(lx_.peek()))
      return lx_.expected(std::string(what) + " (a non-negative integer)");
    return lx_.readUint(what);
  }

  Expected<LocatedTuple> tuple(std::string_view context) {
    return detail::parseLocatedTuple(lx_, kAttributeTuple.named(context));
  }

  Lexer lx_;
};

} // namespace

std::span<const Swizzle> hardwareSwizzles() { return kHardwareSwizzles; }

bool isHardwareSwizzle(const Swizzle &s) {
  for (const Swizzle &h : kHardwareSwizzles)
    if (h == s)
      return true;
  return false;
}

Expected<Swizzle> elementSwizzle(const Swizzle &bytes, int64_t bits) {
  const bool pow2 = bits >= 1 && (bits & (bits - 1)) == 0;
  const int k = pow2 ? std::countr_zero(uint64_t(bits)) - 3 : 0; // 8 * 2^k
  if (pow2 && bytes.M - k >= 0)
    return Swizzle::make(bytes.B, bytes.M - k, bytes.S);
  if (bytes.isIdentity()) // moves nothing, over any element
    return bytes;
  if (!pow2)
    return Diagnostic::error(swizzleText(bytes.B, bytes.M, bytes.S) +
                             " acts on byte addresses, and an element of " +
                             std::to_string(bits) +
                             " bits is no power-of-two part or multiple of "
                             "a byte");
  return Diagnostic::error(swizzleText(bytes.B, bytes.M, bytes.S) + " moves " +
                           std::to_string(int64_t(1) << bytes.M) +
                           "-byte units, narrower than an element of " +
                           std::to_string(bits) + " bits");
}

Expected<ComposedLayout>
LayoutAttribute::elementLayout(std::optional<int64_t> contextBits) const {
  const int64_t bits = elem ? elem->bits : contextBits.value_or(8);
  LK_TRY(Swizzle s, elementSwizzle(swizzle.value_or(Swizzle{}), bits));
  return ComposedLayout{s, 0, layout};
}

Expected<LayoutAttribute>
parseLayoutAttribute(std::string_view text,
                     const ElementTypeRegistry &registry) {
  AttributeParser p(text);
  LK_TRY(AttributeSyntax a, p.syntax());
  Lexer &lx = p.lexer();
  LayoutAttribute out;

  // 1. The element type, before any other validation (docs/design.md §6.6).
  if (a.hasElem) {
    Expected<ElementType> t = registry.lookup(a.elem);
    if (!t) {
      std::string known;
      for (const ElementType &e : registry.all())
        known += (known.empty() ? "" : ", ") + e.name;
      return lx
          .error("unknown element type '" + excerpt(a.elem) + "'",
                 a.elemSpan.offset, a.elemSpan.length)
          .note("registered element types: " +
                (known.empty() ? std::string("(none)") : known));
    }
    out.elem = *t;
  }

  // 2. The layout.
  LK_TRY(out.layout, detail::makeLocatedLayout(lx, a.shape, a.stride));

  // 3. The swizzle.
  if (a.hasSwizzle) {
    const int64_t *s = a.swizzle;
    bool small = s[0] <= 62 && s[1] <= 62 && s[2] <= 62;
    Swizzle sw{int(small ? s[0] : 0), int(small ? s[1] : 0),
               int(small ? s[2] : 0)};
    if (!small || !isHardwareSwizzle(sw))
      return lx
          .error(swizzleText(s[0], s[1], s[2]) + " is not a hardware swizzle",
                 a.swizzleSpan.offset, a.swizzleSpan.length)
          .note(supportedNote());
    out.swizzle = sw;
    if (out.elem)
      if (Expected<Swizzle> e = elementSwizzle(sw, out.elem->bits); !e)
        return lx.error(e.error().message, a.elemSpan.offset,
                        a.elemSpan.length);
  }
  return out;
}

Expected<LayoutAttribute>
LayoutAttribute::make(Layout layout, std::optional<Swizzle> swizzle,
                      std::optional<ElementType> elem,
                      const ElementTypeRegistry &registry) {
  std::string what = "layout attribute with layout " + layout.str();
  if (elem) {
    Expected<ElementType> t = registry.lookup(elem->name);
    if (!t)
      return Diagnostic::error("unknown element type '" + elem->name + "'");
    if (t->bits != elem->bits)
      return Diagnostic::error("element type '" + elem->name + "' has " +
                               std::to_string(t->bits) + " bits, not " +
                               std::to_string(elem->bits));
  }
  Expected<Layout> checked = Layout::make(layout.shape(), layout.stride());
  if (!checked)
    return checked.error();
  for (const IntTuple *t : {&layout.shape(), &layout.stride()}) {
    if (t->depth() > kMaxNesting)
      return Diagnostic::error(what + ": nests deeper than " +
                               std::to_string(kMaxNesting) + " levels");
    const IntTuple::Node *nodes = t->nodes();
    for (size_t i = 0; i < t->nodeCount(); ++i) {
      if (nodes[i].rank == 0)
        return Diagnostic::error(
            what + ": the attribute grammar has no empty tuple '()'");
      if (nodes[i].rank == IntTuple::kLeaf &&
          (nodes[i].basis != 0 || nodes[i].value < 0))
        return Diagnostic::error(
            what + ": strides must be non-negative plain integers");
    }
  }
  if (swizzle && !isHardwareSwizzle(*swizzle))
    return Diagnostic::error(swizzleText(swizzle->B, swizzle->M, swizzle->S) +
                             " is not a hardware swizzle")
        .note(supportedNote());
  if (swizzle && elem)
    LK_CHECK(elementSwizzle(*swizzle, elem->bits));
  return LayoutAttribute{std::move(layout), swizzle, std::move(elem)};
}

std::string LayoutAttribute::str() const {
  std::string out = "<" + layout.shape().str() + "," + layout.stride().str();
  if (swizzle)
    out += "," + swizzleText(swizzle->B, swizzle->M, swizzle->S);
  if (elem)
    out += ",elem=" + elem->name;
  return out + ">";
}

std::string printLayoutAttribute(const LayoutAttribute &attr) {
  return attr.str();
}

} // namespace lk::cute
