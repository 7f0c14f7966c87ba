//===- Text.cpp - CuTe's print form: parse --------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Recursive-descent parsers for the grammar documented in Text.h. Every
/// parser reports the first error with a source range; none recurses more
/// than kMaxNesting levels and none builds a tuple of more than
/// IntTuple::kMaxNodes nodes, so arbitrary input is safe.
///
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/Text.h"
#include "layoutkit/core/Lexer.h"

#include "layoutkit/cute/TupleSyntax.h"

#include <cctype>
#include <vector>

namespace lk::cute {
namespace {

using detail::isDigit;
using detail::kCuteTuple;
using detail::LocatedTuple;

/// Deepest tuple / tiler nesting the parsers accept.
constexpr int kMaxNesting = kCuteTuple.maxNesting;

/// The blanks lk::Lexer skips (newlines included).
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

class TextParser {
public:
  explicit TextParser(std::string_view text) : lx_(text) {}

  Lexer &lexer() { return lx_; }

  /// True when the next token starts an integer: a digit, '-' + digit, or
  /// CuTe's static prefix '_' followed by one of those.
  bool atInteger() { return detail::atInteger(lx_, kCuteTuple); }

  /// An integer with an optional CuTe static prefix `_`.
  Expected<int64_t> integer(std::string_view what) {
    return detail::readInteger(lx_, what, kCuteTuple);
  }

  /// int-tuple, recording leaf spans. `context` names the tuple in messages
  /// ("shape", "stride", "int-tuple").
  Expected<LocatedTuple> tuple(std::string_view context, int depth) {
    return detail::parseLocatedTuple(lx_, kCuteTuple.named(context), depth);
  }

  /// `shape ":" stride` where the shape has already been parsed (`shape`);
  /// the ':' is next. Checks everything Layout::make checks, with locations.
  Expected<Layout> finishLayout(const LocatedTuple &shape, int depth) {
    LK_CHECK(lx_.expect(':', "between shape and stride"));
    LK_TRY(LocatedTuple stride, tuple("stride", depth));
    return detail::makeLocatedLayout(lx_, shape, stride);
  }

  Expected<Layout> layout(int depth) {
    LK_TRY(LocatedTuple shape, tuple("shape", depth));
    return finishLayout(shape, depth);
  }

  Expected<ComposedLayout> composed() {
    ComposedLayout out;
    lx_.peek();
    size_t swStart = lx_.pos();
    if (lx_.consumeIf("Sw")) {
      LK_CHECK(lx_.expect('<', "after 'Sw'"));
      LK_TRY(int64_t b, integer("swizzle B"));
      LK_CHECK(lx_.expect(',', "after swizzle B"));
      LK_TRY(int64_t m, integer("swizzle M"));
      LK_CHECK(lx_.expect(',', "after swizzle M"));
      LK_TRY(int64_t s, integer("swizzle S"));
      LK_CHECK(lx_.expect('>', "to close the swizzle"));
      size_t swEnd = lx_.pos();
      // Swizzle::make sums B + M + S; keep huge values away from it.
      if (b >= 0 && m >= 0 && (s >= b || s <= -b) &&
          (m > 62 || s > 62 || s < -62))
        return lx_.error("swizzle Sw<" + std::to_string(b) + "," +
                             std::to_string(m) + "," + std::to_string(s) +
                             ">: B + M + |S| must be at most 62",
                         swStart, swEnd - swStart);
      Expected<Swizzle> sw = Swizzle::make(b, m, s);
      if (!sw)
        return lx_.error(sw.error().message, swStart, swEnd - swStart);
      out.swizzle = *sw;
      LK_CHECK(lx_.expect('o', "(composition) after the swizzle"));
      // Optional offset: an integer followed by another 'o'.
      if (atInteger()) {
        size_t save = lx_.pos();
        Expected<int64_t> off = integer("offset");
        if (off && lx_.consumeIf('o'))
          out.offset = *off;
        else
          lx_.reset(save);
      }
    }
    lx_.peek(); // skip blanks
    const size_t layoutAt = lx_.pos();
    LK_TRY(out.layout, layout(0));
    Expected<ComposedLayout> checked =
        ComposedLayout::make(out.swizzle, out.offset, std::move(out.layout));
    if (!checked)
      return lx_.error(checked.error().message, layoutAt, lx_.pos() - layoutAt);
    return checked;
  }

  Expected<Tiler> tiler(int depth) {
    char c = lx_.peek();
    size_t start = lx_.pos();
    if (c == '_' && !atInteger()) {
      lx_.consumeIf('_');
      return Tiler::keep();
    }
    if (c == '(') {
      // A parenthesized int-tuple followed by ':' is a layout; anything else
      // is a tuple of tilers.
      if (groupIsLayoutShape()) {
        LK_TRY(Layout l, layout(depth));
        return Tiler::of(std::move(l));
      }
      if (depth >= kMaxNesting)
        return nestingError(start);
      lx_.consumeIf('(');
      std::vector<Tiler> modes;
      while (true) {
        LK_TRY(Tiler mode, tiler(depth + 1));
        modes.push_back(std::move(mode));
        if (lx_.consumeIf(','))
          continue;
        if (lx_.consumeIf(')'))
          return Tiler::tuple(std::move(modes));
        return lx_.expected("',' or ')' in tiler tuple");
      }
    }
    if (atInteger()) {
      LK_TRY(LocatedTuple shape, tuple("tiler", depth));
      if (lx_.peek() == ':')
        return layoutTiler(shape, depth);
      const IntTuple &v = shape.value;
      if (v.basis().raw() != 0)
        return lx_.error("tiler size " + v.str() + " cannot have a basis",
                         shape.whole.offset, shape.whole.length);
      if (v.value() < 1)
        return lx_.error("tiler size " + v.str() + " must be positive",
                         shape.whole.offset, shape.whole.length);
      // The integer n stands for the compact layout n:1 (1:0 for n = 1);
      // composition treats it as n:1 (Tiler::integer).
      return Tiler::ofSize(v.value());
    }
    return lx_.expected("a tiler ('_', an integer, a layout or a '(' tuple)");
  }

private:
  /// Lookahead without diagnostics: is the '(' group starting at the next
  /// token made of int-tuple characters only, and followed by ':'?
  bool groupIsLayoutShape() {
    lx_.peek();
    std::string_view text = lx_.text();
    size_t p = lx_.pos();
    int open = 0;
    for (; p < text.size(); ++p) {
      char c = text[p];
      if (c == '(') {
        if (++open > kMaxNesting)
          return false; // too deep either way; the tiler path reports it
      } else if (c == ')') {
        if (--open == 0) {
          ++p;
          break;
        }
      } else if (!isDigit(c) && !isBlank(c) && c != ',' && c != '@' &&
                 c != '_' && c != '-') {
        return false;
      }
    }
    if (open != 0)
      return false;
    while (p < text.size() && isBlank(text[p]))
      ++p;
    return p < text.size() && text[p] == ':';
  }

  Diagnostic nestingError(size_t offset) {
    return detail::nestingError(lx_, kCuteTuple, offset);
  }

  Expected<Tiler> layoutTiler(const LocatedTuple &shape, int depth) {
    LK_TRY(Layout l, finishLayout(shape, depth));
    return Tiler::of(std::move(l));
  }

  Lexer lx_;
};

template <class T, class F>
Expected<T> parseWhole(std::string_view text, std::string_view what, F f) {
  TextParser p(text);
  LK_TRY(T value, f(p));
  if (!p.lexer().atEnd()) // the message is built on the error path only
    LK_CHECK(p.lexer().expectEnd(std::string("end of ") + std::string(what)));
  return value;
}

} // namespace

Expected<IntTuple> parseIntTuple(std::string_view text) {
  return parseWhole<IntTuple>(text, "int-tuple",
                              [](TextParser &p) -> Expected<IntTuple> {
                                LK_TRY(LocatedTuple t, p.tuple("int-tuple", 0));
                                return t.value;
                              });
}

Expected<Layout> parseLayout(std::string_view text) {
  return parseWhole<Layout>(text, "layout",
                            [](TextParser &p) { return p.layout(0); });
}

Expected<ComposedLayout> parseComposedLayout(std::string_view text) {
  return parseWhole<ComposedLayout>(text, "composed layout",
                                    [](TextParser &p) { return p.composed(); });
}

Expected<Tiler> parseTiler(std::string_view text) {
  return parseWhole<Tiler>(text, "tiler",
                           [](TextParser &p) { return p.tiler(0); });
}

} // namespace lk::cute
