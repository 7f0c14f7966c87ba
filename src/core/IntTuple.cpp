//===- IntTuple.cpp -------------------------------------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/core/IntTuple.h"
#include "layoutkit/core/Checked.h"

#include <functional>

namespace lk {

//===----------------------------------------------------------------------===//
// BasisPath
//===----------------------------------------------------------------------===//

Expected<BasisPath> BasisPath::pushed(int64_t d) const {
  if (d < 0 || d > kMaxIndex)
    return Diagnostic::error("basis index " + std::to_string(d) +
                             " out of range [0, " + std::to_string(kMaxIndex) +
                             "]");
  int k = depth();
  if (k >= kMaxDepth)
    return Diagnostic::error("basis path deeper than " +
                             std::to_string(kMaxDepth) + " levels");
  BasisPath p;
  p.bits_ = bits_ | (uint32_t(d + 1) << (8 * k));
  return p;
}

int BasisPath::depth() const {
  int k = 0;
  while (k < kMaxDepth && ((bits_ >> (8 * k)) & 0xff) != 0)
    ++k;
  return k;
}

std::string BasisPath::str() const {
  std::string s;
  for (int k = 0, n = depth(); k < n; ++k)
    s += "@" + std::to_string(at(k));
  return s;
}

//===----------------------------------------------------------------------===//
// IntTuple
//===----------------------------------------------------------------------===//

IntTuple::IntTuple(const Node *nodes, size_t count) {
  nodes_.append(nodes, count);
}

IntTuple IntTuple::leaf(int64_t v, BasisPath path) {
  IntTuple t(v);
  t.nodes_[0].basis = path.raw();
  return t;
}

IntTuple IntTuple::tuple(std::initializer_list<IntTuple> children) {
  return tupleOf(children.begin(), children.end());
}

IntTuple IntTuple::tuple(const std::vector<IntTuple> &children) {
  return tupleOf(children.begin(), children.end());
}

IntTuple IntTuple::operator[](size_t i) const {
  if (isLeaf()) {
    assert(i == 0);
    return *this;
  }
  assert(i < rank());
  size_t pos = 1;
  for (size_t k = 0; k < i; ++k)
    pos += nodes_[pos].span;
  return IntTuple(nodes_.data() + pos, nodes_[pos].span);
}

int IntTuple::depth() const {
  // Depth of a pre-order encoded tree: walk with an explicit stack of
  // remaining-children counts.
  if (isLeaf())
    return 0;
  int best = 0;
  SmallVector<int, 16> remaining;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    while (!remaining.empty() && remaining.back() == 0)
      remaining.pop_back();
    if (!remaining.empty())
      --remaining.back();
    const Node &n = nodes_[i];
    int level = int(remaining.size());
    if (n.rank == kLeaf)
      best = std::max(best, level);
    else {
      best = std::max(best, level + 1);
      remaining.push_back(n.rank);
    }
  }
  return best;
}

void IntTuple::push_back(const IntTuple &child) {
  assert(isTuple());
  assert(nodes_.size() + child.nodes_.size() <= kMaxNodes);
  nodes_.append(child.nodes_.data(), child.nodes_.size());
  nodes_[0].rank = int16_t(nodes_[0].rank + 1);
  nodes_[0].span = uint16_t(nodes_.size());
}

size_t IntTuple::leafCount() const {
  size_t n = 0;
  for (const Node &node : nodes_)
    n += node.rank == kLeaf;
  return n;
}

SmallVector<IntTuple::Node, 16> IntTuple::leaves() const {
  SmallVector<Node, 16> out;
  for (const Node &node : nodes_)
    if (node.rank == kLeaf)
      out.push_back(node);
  return out;
}

Expected<IntTuple> IntTuple::flatten() const {
  if (isLeaf())
    return *this;
  if (leafCount() > size_t(kMaxRank))
    return Diagnostic::error("cannot flatten " + std::to_string(leafCount()) +
                             " leaves into one tuple: at most " +
                             std::to_string(kMaxRank) + " modes");
  IntTuple t;
  for (const Node &node : nodes_)
    if (node.rank == kLeaf) {
      t.nodes_.push_back(node);
      ++t.nodes_[0].rank;
    }
  t.nodes_[0].span = uint16_t(t.nodes_.size());
  return t;
}

Status IntTuple::Builder::check() const {
  size_t leaves = 0;
  if (nodes_.size() > size_t(kMaxRank)) // fewer nodes bound the leaves
    for (const Node &n : nodes_)
      leaves += n.rank == kLeaf;
  if (tooLarge_ || nodes_.size() > kMaxNodes || leaves > size_t(kMaxRank))
    return Diagnostic::error("result too large: a tuple holds at most " +
                             std::to_string(kMaxNodes) + " nodes, " +
                             std::to_string(kMaxRank) + " leaves and " +
                             std::to_string(kMaxRank) + " modes per tuple");
  return Ok{};
}

Expected<IntTuple> IntTuple::Builder::take() const {
  LK_CHECK(check());
  return IntTuple(nodes_.data(), nodes_.size());
}

IntTuple IntTuple::withLeaves(const int64_t *values) const {
  IntTuple t = *this;
  size_t k = 0;
  for (Node &node : t.nodes_)
    if (node.rank == kLeaf) {
      node.value = values[k++];
      node.basis = 0;
    }
  return t;
}

Expected<int64_t> IntTuple::product() const {
  Arith ar;
  int64_t p = 1;
  for (const Node &node : nodes_)
    if (node.rank == kLeaf)
      p = ar.mul(p, node.value);
  if (!ar.ok())
    return Arith::diagnostic("product of " + str());
  return p;
}

Expected<int64_t> IntTuple::sum() const {
  Arith ar;
  int64_t s = 0;
  for (const Node &node : nodes_)
    if (node.rank == kLeaf)
      s = ar.add(s, node.value);
  if (!ar.ok())
    return Arith::diagnostic("sum of " + str());
  return s;
}

bool IntTuple::hasBasis() const {
  for (const Node &node : nodes_)
    if (node.rank == kLeaf && node.basis != 0)
      return true;
  return false;
}

bool IntTuple::operator==(const IntTuple &o) const {
  if (nodes_.size() != o.nodes_.size())
    return false;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node &a = nodes_[i], &b = o.nodes_[i];
    if (a.rank != b.rank || a.basis != b.basis ||
        (a.rank == kLeaf && a.value != b.value))
      return false;
  }
  return true;
}

size_t IntTuple::hash() const {
  uint64_t h = 0x9e3779b97f4a7c15ull; // 64-bit on wasm too
  for (const Node &n : nodes_) {
    uint64_t v = uint64_t(n.rank == kLeaf ? n.value : -n.rank - 2);
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= n.basis * 0x100000001b3ull;
  }
  return size_t(h);
}

static void printNode(const IntTuple::Node *nodes, size_t &pos,
                      std::string &out) {
  const IntTuple::Node &n = nodes[pos++];
  if (n.rank == IntTuple::kLeaf) {
    out += std::to_string(n.value);
    out += BasisPath::fromRaw(n.basis).str();
    return;
  }
  out += '(';
  for (int i = 0; i < n.rank; ++i) {
    if (i)
      out += ',';
    printNode(nodes, pos, out);
  }
  out += ')';
}

std::string IntTuple::str() const {
  std::string out;
  size_t pos = 0;
  printNode(nodes_.data(), pos, out);
  return out;
}

bool congruent(const IntTuple &a, const IntTuple &b) {
  if (a.nodeCount() != b.nodeCount())
    return false;
  for (size_t i = 0; i < a.nodeCount(); ++i)
    if (a.nodes()[i].rank != b.nodes()[i].rank)
      return false;
  return true;
}

bool weaklyCongruent(const IntTuple &a, const IntTuple &b) {
  if (a.isLeaf())
    return true;
  if (b.isLeaf() || a.rank() != b.rank())
    return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!weaklyCongruent(a[i], b[i]))
      return false;
  return true;
}

Expected<IntTuple> prefixProduct(const IntTuple &shape, int64_t init) {
  Arith ar;
  SmallVector<int64_t, 16> out;
  int64_t running = init;
  for (const IntTuple::Node &n : shape.leaves()) {
    out.push_back(running);
    running = ar.mul(running, n.value);
  }
  if (!ar.ok())
    return Arith::diagnostic("prefix product of " + shape.str());
  return shape.withLeaves(out.data());
}

} // namespace lk
