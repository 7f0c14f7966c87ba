//===- Json.cpp - JSON encoding of layoutkit values -----------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "cli/Json.h"

namespace lk::cli {

namespace {

JsonValue leafToJson(const IntTuple::Node &node) {
  BasisPath path = BasisPath::fromRaw(node.basis);
  if (path.empty())
    return node.value;
  JsonValue basis = JsonValue::array();
  for (int k = 0; k < path.depth(); ++k)
    basis.push_back(path.at(k));
  return {{"scale", node.value}, {"basis", std::move(basis)}};
}

/// Encodes the subtree rooted at nodes[i]; advances i past it.
JsonValue subtreeToJson(const IntTuple::Node *nodes, size_t &i) {
  const IntTuple::Node &node = nodes[i++];
  if (node.rank == IntTuple::kLeaf)
    return leafToJson(node);
  JsonValue children = JsonValue::array();
  for (int16_t c = 0; c < node.rank; ++c)
    children.push_back(subtreeToJson(nodes, i));
  return children;
}

} // namespace

JsonValue toJson(const IntTuple &t) {
  size_t i = 0;
  return subtreeToJson(t.nodes(), i);
}

JsonValue toJson(const cute::Layout &l) {
  JsonValue j;
  j["layout"] = l.str();
  j["shape"] = toJson(l.shape());
  j["stride"] = toJson(l.stride());
  j["size"] = l.size();
  if (l.hasBasisStrides()) {
    j["cosize"] = nullptr;
  } else {
    Expected<int64_t> cosize = l.cosize();
    j["cosize"] = cosize ? JsonValue(*cosize) : JsonValue(nullptr);
  }
  j["rank"] = l.rank();
  j["depth"] = l.depth();
  return j;
}

JsonValue toJson(const cute::ComposedLayout &c) {
  JsonValue j;
  j["layout"] = c.swizzle.isIdentity() && c.offset == 0 ? c.layout.str()
                                                          : c.str();
  j["swizzle"] = {{"B", c.swizzle.B}, {"M", c.swizzle.M}, {"S", c.swizzle.S}};
  j["offset"] = c.offset;
  j["inner"] = toJson(c.layout);
  return j;
}

JsonValue errorToJson(const Diagnostic &d) {
  JsonValue e;
  e["message"] = d.message;
  if (d.range) {
    e["column"] = d.range->begin.column;
    e["line"] = d.range->begin.line;
    e["input"] = d.source;
  } else {
    e["column"] = nullptr;
    e["line"] = nullptr;
    e["input"] = nullptr;
  }
  e["notes"] = d.notes;
  return {{"error", std::move(e)}};
}

} // namespace lk::cli
