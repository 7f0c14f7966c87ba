//===- TupleSyntax.cpp - Located int-tuple parsing, shared ----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/cute/TupleSyntax.h"

#include <string>

namespace lk::cute::detail {
namespace {

/// The subject of the size-limit messages: the noun or "tuple".
std::string limitSubject(const TupleGrammar &g) {
  return g.nounInLimits ? std::string(g.noun) : std::string("tuple");
}

/// One node of a tuple; appends the span of every leaf to `leaves`.
Expected<IntTuple> parseNode(Lexer &lx, const TupleGrammar &g, int depth,
                             size_t &nodes, SmallVector<Span, 16> &leaves) {
  lx.peek();
  size_t start = lx.pos();
  if (++nodes > IntTuple::kMaxNodes)
    return lx.error(limitSubject(g) + " has more than " +
                        std::to_string(IntTuple::kMaxNodes) + " nodes",
                    start);
  if (lx.peek() == '(') {
    if (depth >= g.maxNesting)
      return nestingError(lx, g, start);
    lx.consumeIf('(');
    IntTuple t;
    if (g.allowEmpty && lx.consumeIf(')'))
      return t;
    while (true) {
      if (t.rank() >= kMaxTupleRank)
        return lx.error(limitSubject(g) + " has more than " +
                        std::to_string(kMaxTupleRank) + " modes");
      LK_TRY(IntTuple child, parseNode(lx, g, depth + 1, nodes, leaves));
      t.push_back(child);
      if (lx.consumeIf(','))
        continue;
      if (lx.consumeIf(')'))
        return t;
      return lx.expected("',' or ')' in " + std::string(g.noun));
    }
  }
  if (!atInteger(lx, g))
    return lx.expected(
        std::string(g.allowNegative ? "an integer" : "a non-negative integer") +
        " or '(' in " + std::string(g.noun));
  LK_TRY(int64_t v, readInteger(lx, std::string(g.noun) + " leaf", g));
  BasisPath path;
  while (g.allowBases && lx.peek() == '@') {
    lx.consumeIf('@');
    lx.peek();
    size_t dimStart = lx.pos();
    LK_TRY(int64_t d, lx.readUint("basis index"));
    Expected<BasisPath> next = path.pushed(d);
    if (!next)
      return lx.error(next.error().message, dimStart, lx.pos() - dimStart);
    path = *next;
  }
  leaves.push_back(Span{start, lx.pos() - start});
  return IntTuple::leaf(v, path);
}

} // namespace

bool atInteger(Lexer &lx, const TupleGrammar &g) {
  char c = lx.peek();
  auto signedDigitAt = [&](size_t k) {
    return isDigit(lx.peekAt(k)) || (g.allowNegative && lx.peekAt(k) == '-' &&
                                     isDigit(lx.peekAt(k + 1)));
  };
  if (c == '_')
    return g.allowStaticPrefix && signedDigitAt(1);
  return signedDigitAt(0);
}

Expected<int64_t> readInteger(Lexer &lx, std::string_view what,
                              const TupleGrammar &g) {
  if (g.allowStaticPrefix && lx.peek() == '_' && atInteger(lx, g))
    lx.consumeIf('_');
  return g.allowNegative ? lx.readInt(what) : lx.readUint(what);
}

Diagnostic nestingError(const Lexer &lx, const TupleGrammar &g, size_t offset) {
  std::string levels = std::to_string(g.maxNesting) + " levels";
  if (g.nounInLimits)
    return lx.error(std::string(g.noun) + " nests deeper than " + levels,
                    offset);
  return lx.error("nesting deeper than " + levels, offset);
}

Expected<LocatedTuple> parseLocatedTuple(Lexer &lx, const TupleGrammar &g,
                                         int depth) {
  LocatedTuple out;
  size_t nodes = 0;
  lx.peek();
  out.whole.offset = lx.pos();
  LK_TRY(out.value, parseNode(lx, g, depth, nodes, out.leaves));
  out.whole.length = lx.pos() - out.whole.offset;
  return out;
}

Expected<Layout> makeLocatedLayout(const Lexer &lx, const LocatedTuple &shape,
                                   const LocatedTuple &stride) {
  if (!congruent(shape.value, stride.value))
    return lx.error("shape " + shape.value.str() + " and stride " +
                        stride.value.str() + " are not congruent",
                    stride.whole.offset, stride.whole.length);
  auto leaves = shape.value.leaves();
  for (size_t i = 0; i < leaves.size(); ++i) {
    const IntTuple::Node &n = leaves[i];
    const Span &at = shape.leaves[i];
    if (n.basis != 0)
      return lx.error(
          "shape leaf " +
              IntTuple::leaf(n.value, BasisPath::fromRaw(n.basis)).str() +
              " cannot have a basis; only strides may be bases",
          at.offset, at.length);
    if (n.value < 1)
      return lx.error("shape leaf " + std::to_string(n.value) +
                          " must be positive",
                      at.offset, at.length);
  }
  if (!shape.value.product())
    return lx.error("size of shape " + shape.value.str() +
                        " does not fit in 64 bits",
                    shape.whole.offset, shape.whole.length);
  Expected<Layout> l = Layout::make(shape.value, stride.value);
  if (!l)
    return lx.error(l.error().message, shape.whole.offset, shape.whole.length);
  return l;
}

} // namespace lk::cute::detail
