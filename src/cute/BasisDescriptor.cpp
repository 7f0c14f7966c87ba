//===- BasisDescriptor.cpp ------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/BasisDescriptor.h"
#include "layoutkit/core/Lexer.h"
#include "layoutkit/core/Rational.h"

#include "layoutkit/cute/TupleSyntax.h"

#include <limits>

namespace lk::cute {
namespace {

// The descriptor grammar (rational counts, mandatory '@', a syntax tree
// rather than a LocatedTuple) has its own parser, but the same limits as the
// other tuple grammars.
using detail::isDigit;
constexpr int kMaxNesting = detail::kMaxTupleNesting;
constexpr size_t kMaxRank = detail::kMaxTupleRank;

class SyntaxParser {
public:
  explicit SyntaxParser(std::string_view text)
      : lx_(text, /*newlinesAreBlank=*/false) {}

  Expected<BasisDescriptorSyntax> descriptor() {
    if (lx_.peek() != '(')
      return lx_.expected("'(' to start a basis descriptor");
    LK_TRY(BasisDescriptorSyntax root, group(0));
    LK_CHECK(lx_.expectEnd("end of basis descriptor"));
    return root;
  }

private:
  Diagnostic tooMany(std::string what, size_t limit) {
    return lx_.error("basis descriptor has more than " + std::to_string(limit) +
                     " " + what);
  }

  /// @pre the next token is '('.
  Expected<BasisDescriptorSyntax> group(int depth) {
    lx_.peek();
    size_t start = lx_.pos();
    if (depth >= kMaxNesting)
      return lx_.error("basis descriptor nests deeper than " +
                           std::to_string(kMaxNesting) + " groups",
                       start);
    if (++nodes_ > IntTuple::kMaxNodes)
      return tooMany("entries", IntTuple::kMaxNodes);
    lx_.consumeIf('(');
    BasisDescriptorSyntax g;
    g.isGroup = true;
    if (lx_.consumeIf(')'))
      return g;
    while (true) {
      if (g.entries.size() >= kMaxRank)
        return tooMany("entries in one group", kMaxRank);
      LK_TRY(BasisDescriptorSyntax e, entry(depth));
      g.entries.push_back(std::move(e));
      if (lx_.consumeIf(','))
        continue;
      if (lx_.consumeIf(')'))
        return g;
      return lx_.expected("',' or ')' in basis descriptor group");
    }
  }

  Expected<BasisDescriptorSyntax> entry(int depth) {
    char c = lx_.peek();
    if (c == '(')
      return group(depth + 1);
    if (isDigit(c) || (c == '-' && isDigit(lx_.peekAt(1))))
      return basis();
    return lx_.expected("a basis 'N@d' or '(' in basis descriptor");
  }

  Expected<BasisDescriptorSyntax> basis() {
    if (++nodes_ > IntTuple::kMaxNodes)
      return tooMany("entries", IntTuple::kMaxNodes);
    BasisDescriptorSyntax b;
    b.isGroup = false;
    lx_.peek();
    b.countOffset = lx_.pos();
    LK_TRY(b.numerator, lx_.readInt("basis count"));
    size_t countEnd = lx_.pos();
    if (lx_.consumeIf('/')) {
      char c = lx_.peek();
      if (!isDigit(c) && !(c == '-' && isDigit(lx_.peekAt(1))))
        return lx_.expected("denominator (an integer) after '/'");
      b.denominatorOffset = lx_.pos();
      LK_TRY(b.denominator, lx_.readInt("denominator"));
      countEnd = lx_.pos();
      b.denominatorLength = countEnd - b.denominatorOffset;
    }
    b.countLength = countEnd - b.countOffset;
    if (lx_.peek() != '@')
      return lx_.expected("'@' after basis count");
    while (lx_.consumeIf('@')) {
      if (!isDigit(lx_.peek()))
        return lx_.expected(
            "basis dimension (a non-negative integer) after '@'");
      BasisDescriptorSyntax::Dim d;
      d.offset = lx_.pos();
      LK_TRY(d.index, lx_.readUint("basis dimension"));
      d.length = lx_.pos() - d.offset;
      b.dims.push_back(d);
    }
    return b;
  }

  Lexer lx_;
  size_t nodes_ = 0;
};

/// Stage 2, one node. `nodes` is the running node count of the result.
Expected<IntTuple> normalize(const BasisDescriptorSyntax &s,
                             std::string_view text, int depth, size_t &nodes) {
  auto at = [&](std::string message, size_t offset, size_t length) {
    return Diagnostic::at(std::move(message), text, offset, length);
  };
  if (++nodes > IntTuple::kMaxNodes)
    return Diagnostic::error("basis descriptor has more than " +
                             std::to_string(IntTuple::kMaxNodes) + " entries");
  if (s.isGroup) {
    if (depth >= kMaxNesting)
      return Diagnostic::error("basis descriptor nests deeper than " +
                               std::to_string(kMaxNesting) + " groups");
    if (s.entries.size() > kMaxRank)
      return Diagnostic::error("basis descriptor has more than " +
                               std::to_string(kMaxRank) +
                               " entries in one group");
    IntTuple t;
    for (const BasisDescriptorSyntax &e : s.entries) {
      LK_TRY(IntTuple child, normalize(e, text, depth + 1, nodes));
      t.push_back(child);
    }
    return t;
  }
  std::string written = std::to_string(s.numerator);
  if (s.denominator != 1 || s.denominatorLength != 0)
    written += "/" + std::to_string(s.denominator);
  if (s.denominator == 0)
    return at("zero denominator in basis count " + written,
              s.denominatorLength ? s.denominatorOffset : s.countOffset,
              s.denominatorLength ? s.denominatorLength : s.countLength);
  // The count is an integer exactly when den divides num. INT64_MIN / -1 is
  // the one integral quotient that does not fit.
  if (s.numerator == std::numeric_limits<int64_t>::min() && s.denominator == -1)
    return at("basis count " + written + " does not fit in 64 bits",
              s.countOffset, s.countLength);
  if (s.numerator % s.denominator != 0) {
    Expected<Rational> reduced = Rational::make(s.numerator, s.denominator);
    std::string shown = reduced ? " (it is " + reduced->str() + ")" : "";
    return at("basis count " + written + " is not an integer" + shown,
              s.countOffset, s.countLength);
  }
  int64_t count = s.numerator / s.denominator;
  if (s.dims.empty())
    return at("basis count " + written + " has no '@' dimension", s.countOffset,
              s.countLength);
  BasisPath path;
  for (const BasisDescriptorSyntax::Dim &d : s.dims) {
    Expected<BasisPath> next = path.pushed(d.index);
    if (!next)
      return at(next.error().message, d.offset, d.length);
    path = *next;
  }
  return IntTuple::leaf(count, path);
}

void print(const IntTuple &t, std::string &out) {
  if (t.isLeaf()) {
    out += std::to_string(t.value());
    out += t.basis().str();
    return;
  }
  out += '(';
  for (size_t i = 0; i < t.rank(); ++i) {
    if (i)
      out += ", ";
    print(t[i], out);
  }
  out += ')';
}

} // namespace

Expected<BasisDescriptorSyntax>
parseBasisDescriptorSyntax(std::string_view text) {
  return SyntaxParser(text).descriptor();
}

Expected<IntTuple> normalizeBasisDescriptor(const BasisDescriptorSyntax &syntax,
                                            std::string_view text) {
  if (!syntax.isGroup)
    return Diagnostic::error("a basis descriptor must be a group '( ... )'");
  size_t nodes = 0;
  return normalize(syntax, text, 0, nodes);
}

Expected<IntTuple> parseBasisDescriptor(std::string_view text) {
  LK_TRY(BasisDescriptorSyntax syntax, parseBasisDescriptorSyntax(text));
  return normalizeBasisDescriptor(syntax, text);
}

Expected<std::string> printBasisDescriptor(const IntTuple &descriptor) {
  if (descriptor.isLeaf())
    return Diagnostic::error("basis descriptor " + descriptor.str() +
                             " is a leaf; a descriptor is a group '( ... )'");
  for (const IntTuple::Node &n : descriptor.leaves())
    if (n.basis == 0)
      return Diagnostic::error("basis descriptor " + descriptor.str() +
                               " has the leaf " + std::to_string(n.value) +
                               " without a basis dimension");
  if (descriptor.depth() > kMaxNesting)
    return Diagnostic::error("basis descriptor " + descriptor.str() +
                             " nests deeper than " +
                             std::to_string(kMaxNesting) + " groups");
  std::string out;
  print(descriptor, out);
  return out;
}

} // namespace lk::cute
