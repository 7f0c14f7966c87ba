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

#include <cctype>
#include <limits>
#include <vector>

namespace lk::cute {
namespace {

/// Deepest tuple / tiler nesting the parsers accept.
constexpr int kMaxNesting = 64;
/// Largest rank a tuple node can record (IntTuple::Node::rank is int16).
constexpr size_t kMaxRank = size_t(std::numeric_limits<int16_t>::max());

bool isDigit(char c) { return c >= '0' && c <= '9'; }
/// The blanks lk::Lexer skips (newlines included).
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/// Where a leaf of a parsed tuple came from.
struct Span {
  size_t offset = 0;
  size_t length = 0;
};

/// A tuple with the source ranges needed for semantic diagnostics.
struct LocatedTuple {
  IntTuple value;
  Span whole;
  std::vector<Span> leaves; // pre-order, one per leaf of `value`
};

class TextParser {
public:
  explicit TextParser(std::string_view text) : lx_(text) {}

  Lexer &lexer() { return lx_; }

  /// True when the next token starts an integer: a digit, '-' + digit, or
  /// CuTe's static prefix '_' followed by one of those.
  bool atInteger() {
    char c = lx_.peek();
    if (isDigit(c))
      return true;
    if (c == '-')
      return isDigit(lx_.peekAt(1));
    if (c == '_')
      return isDigit(lx_.peekAt(1)) ||
             (lx_.peekAt(1) == '-' && isDigit(lx_.peekAt(2)));
    return false;
  }

  /// An integer with an optional CuTe static prefix `_`.
  Expected<int64_t> integer(std::string_view what) {
    if (lx_.peek() == '_' && atInteger())
      lx_.consumeIf('_');
    return lx_.readInt(what);
  }

  /// int-tuple, recording leaf spans. `context` names the tuple in messages
  /// ("shape", "stride", "int-tuple").
  Expected<LocatedTuple> tuple(std::string_view context, int depth) {
    LocatedTuple out;
    size_t nodes = 0;
    lx_.peek();
    out.whole.offset = lx_.pos();
    LK_TRY(out.value, node(context, depth, nodes, out.leaves));
    out.whole.length = lx_.pos() - out.whole.offset;
    return out;
  }

  /// `shape ":" stride` where the shape has already been parsed (`shape`);
  /// the ':' is next. Checks everything Layout::make checks, with locations.
  Expected<Layout> finishLayout(const LocatedTuple &shape, int depth) {
    LK_CHECK(lx_.expect(':', "between shape and stride"));
    LK_TRY(LocatedTuple stride, tuple("stride", depth));
    return checkLayout(shape, stride);
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
      if (b >= 0 && m >= 0 && s >= b && (m > 62 || s > 62))
        return lx_.error("swizzle Sw<" + std::to_string(b) + "," +
                             std::to_string(m) + "," + std::to_string(s) +
                             ">: B + M + S must be at most 62",
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
    LK_TRY(out.layout, layout(0));
    return out;
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
    return lx_.expected(
        "a tiler ('_', an integer, a layout or a '(' tuple)");
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
    return lx_.error("nesting deeper than " + std::to_string(kMaxNesting) +
                         " levels",
                     offset);
  }

  Expected<Tiler> layoutTiler(const LocatedTuple &shape, int depth) {
    LK_TRY(Layout l, finishLayout(shape, depth));
    return Tiler::of(std::move(l));
  }

  Expected<IntTuple> node(std::string_view context, int depth, size_t &nodes,
                          std::vector<Span> &leaves) {
    lx_.peek();
    size_t start = lx_.pos();
    if (++nodes > IntTuple::kMaxNodes)
      return lx_.error("tuple has more than " +
                           std::to_string(IntTuple::kMaxNodes) + " nodes",
                       start);
    if (lx_.peek() == '(') {
      if (depth >= kMaxNesting)
        return nestingError(start);
      lx_.consumeIf('(');
      IntTuple t;
      if (lx_.consumeIf(')'))
        return t;
      while (true) {
        if (t.rank() >= kMaxRank)
          return lx_.error("tuple has more than " + std::to_string(kMaxRank) +
                           " modes");
        LK_TRY(IntTuple child, node(context, depth + 1, nodes, leaves));
        t.push_back(child);
        if (lx_.consumeIf(','))
          continue;
        if (lx_.consumeIf(')'))
          return t;
        return lx_.expected("',' or ')' in " + std::string(context));
      }
    }
    if (!atInteger())
      return lx_.expected("an integer or '(' in " + std::string(context));
    LK_TRY(int64_t v, integer(std::string(context) + " leaf"));
    BasisPath path;
    while (lx_.peek() == '@') {
      lx_.consumeIf('@');
      lx_.peek();
      size_t dimStart = lx_.pos();
      LK_TRY(int64_t d, lx_.readUint("basis index"));
      Expected<BasisPath> next = path.pushed(d);
      if (!next)
        return lx_.error(next.error().message, dimStart,
                         lx_.pos() - dimStart);
      path = *next;
    }
    leaves.push_back(Span{start, lx_.pos() - start});
    return IntTuple::leaf(v, path);
  }

  Expected<Layout> checkLayout(const LocatedTuple &shape,
                               const LocatedTuple &stride) {
    if (!congruent(shape.value, stride.value))
      return lx_.error("shape " + shape.value.str() + " and stride " +
                           stride.value.str() + " are not congruent",
                       stride.whole.offset, stride.whole.length);
    auto leaves = shape.value.leaves();
    for (size_t i = 0; i < leaves.size(); ++i) {
      const IntTuple::Node &n = leaves[i];
      const Span &at = shape.leaves[i];
      if (n.basis != 0)
        return lx_.error("shape leaf " + IntTuple::leaf(n.value, BasisPath::fromRaw(n.basis)).str() +
                             " cannot have a basis; only strides may be bases",
                         at.offset, at.length);
      if (n.value < 1)
        return lx_.error("shape leaf " + std::to_string(n.value) +
                             " must be positive",
                         at.offset, at.length);
    }
    if (!shape.value.product())
      return lx_.error("size of shape " + shape.value.str() +
                           " does not fit in 64 bits",
                       shape.whole.offset, shape.whole.length);
    Expected<Layout> l = Layout::make(shape.value, stride.value);
    if (!l) // unreachable: every condition of make() was checked above
      return lx_.error(l.error().message, shape.whole.offset,
                       shape.whole.length);
    return l;
  }

  Lexer lx_;
};

template <class T, class F>
Expected<T> parseWhole(std::string_view text, std::string_view what, F f) {
  TextParser p(text);
  LK_TRY(T value, f(p));
  LK_CHECK(p.lexer().expectEnd(std::string("end of ") + std::string(what)));
  return value;
}

} // namespace

Expected<IntTuple> parseIntTuple(std::string_view text) {
  return parseWhole<IntTuple>(text, "int-tuple",
                              [](TextParser &p) -> Expected<IntTuple> {
                                LK_TRY(LocatedTuple t,
                                       p.tuple("int-tuple", 0));
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
