//===- Describe.cpp - Results as records ----------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Describe.h"

#include <algorithm>

namespace lk::api {

namespace {

Value leaf(const IntTuple::Node &node) {
  BasisPath path = BasisPath::fromRaw(node.basis);
  if (path.empty())
    return node.value;
  Value::List basis;
  for (int k = 0; k < path.depth(); ++k)
    basis.emplace_back(int64_t(path.at(k)));
  return Record().add("scale", node.value).add("basis", std::move(basis));
}

/// The subtree rooted at nodes[i]; advances i past it.
Value subtree(const IntTuple::Node *nodes, size_t &i) {
  const IntTuple::Node &node = nodes[i++];
  if (node.rank == IntTuple::kLeaf)
    return leaf(node);
  Value::List children;
  children.reserve(size_t(node.rank));
  for (int16_t c = 0; c < node.rank; ++c)
    children.push_back(subtree(nodes, i));
  return children;
}

} // namespace

Value describe(const IntTuple &t) {
  size_t i = 0;
  return subtree(t.nodes(), i);
}

Record describe(const cute::Layout &l) {
  Value cosize;
  if (!l.hasBasisStrides())
    if (Expected<int64_t> c = l.cosize())
      cosize = *c;
  return Record()
      .add("layout", l.str())
      .add("shape", describe(l.shape()))
      .add("stride", describe(l.stride()))
      .add("size", l.size())
      .add("cosize", std::move(cosize))
      .add("rank", int64_t(l.rank()))
      .add("depth", l.depth());
}

Record describe(const cute::ComposedLayout &c) {
  bool plain = c.swizzle.isIdentity() && c.offset == 0;
  return Record()
      .add("layout", plain ? c.layout.str() : c.str())
      .add("swizzle", Record()
                          .add("B", c.swizzle.B)
                          .add("M", c.swizzle.M)
                          .add("S", c.swizzle.S))
      .add("offset", c.offset)
      .add("inner", describe(c.layout));
}

Record describe(const Diagnostic &d) {
  Record r;
  r.add("message", d.message);
  if (d.range) {
    const SourceRange &s = *d.range;
    r.add("line", int64_t(s.begin.line))
        .add("column", int64_t(s.begin.column))
        .add("offset", int64_t(s.begin.offset))
        .add("length", std::max<int64_t>(1, int64_t(s.end.offset) -
                                                int64_t(s.begin.offset)))
        .add("input", d.source);
  } else {
    r.add("line", Value()).add("column", Value()).add("offset", Value());
    r.add("length", 0).add("input", Value());
  }
  return r.add("notes", Value::strings(d.notes)).add("rendered", d.render());
}

} // namespace lk::api
