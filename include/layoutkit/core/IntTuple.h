//===- IntTuple.h - Hierarchical integer tuples ------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An `IntTuple` is either a leaf (an int64) or a tuple of IntTuples:
///
///   8            leaf
///   (8)          rank-1 tuple holding the leaf 8 -- not the same as 8
///   ((2,4),8)    rank-2 tuple whose first mode is the tuple (2,4)
///   ()           the empty tuple
///
/// Shapes, strides and coordinates of hierarchical layouts are IntTuples.
/// A stride leaf may also carry a *basis path*: `3@1` is 3 times the unit
/// basis e1 of a multi-dimensional codomain, `1@0@1` is the unit basis at the
/// nested codomain position (0,1) (CuTe's ScaledBasis). Leaves of shapes and
/// coordinates never carry a basis.
///
/// Storage is a flat pre-order array of nodes kept inline for small tuples
/// (up to 16 nodes), so building and copying small tuples never allocates.
///
/// Terms used below (CuTe's):
///  * rank: number of top-level modes; a leaf has rank 1.
///  * depth: 0 for a leaf, 1 + max depth of the children for a tuple.
///  * congruent(a, b): same tree structure (leaves against leaves).
///  * weaklyCongruent(a, b): a is a coarsening of b: wherever a has a leaf,
///    b may have a leaf or a whole subtree. `8` is weakly congruent to
///    `(2,4)`; `(2,4)` is not weakly congruent to `8`.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CORE_INTTUPLE_H
#define LAYOUTKIT_CORE_INTTUPLE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/SmallVector.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace lk {

/// A path into a nested codomain: `@d0@d1...`, outermost index first, at
/// most 4 levels, each index in [0, 254]. The empty path is a plain integer.
class BasisPath {
public:
  static constexpr int kMaxDepth = 4;
  static constexpr int kMaxIndex = 254;

  constexpr BasisPath() = default;
  /// The single-level path `@d`. @pre 0 <= d <= kMaxIndex
  static BasisPath unit(int d) {
    BasisPath p;
    p.bits_ = uint32_t(d + 1);
    return p;
  }
  /// Appends a level (innermost). Fails beyond kMaxDepth or kMaxIndex.
  Expected<BasisPath> pushed(int64_t d) const;

  bool empty() const { return bits_ == 0; }
  int depth() const;
  /// Index at level k (0 = outermost). @pre k < depth()
  int at(int k) const { return int((bits_ >> (8 * k)) & 0xff) - 1; }
  /// The path without its outermost level.
  BasisPath tail() const {
    BasisPath p;
    p.bits_ = bits_ >> 8;
    return p;
  }
  uint32_t raw() const { return bits_; }
  static BasisPath fromRaw(uint32_t raw) {
    BasisPath p;
    p.bits_ = raw;
    return p;
  }
  /// "@0@1", or "" for the empty path.
  std::string str() const;
  bool operator==(const BasisPath &) const = default;

private:
  uint32_t bits_ = 0;
};

class IntTuple {
public:
  /// One pre-order node. A leaf has rank == kLeaf and span == 1; a tuple has
  /// rank = number of children and span = number of nodes in its subtree.
  struct Node {
    int64_t value;
    int16_t rank;
    uint16_t span;
    uint32_t basis;
  };
  static constexpr int16_t kLeaf = -1;
  /// Largest number of nodes one tuple may have.
  static constexpr size_t kMaxNodes = 65535;
  /// Nodes a tuple holds without the heap.
  static constexpr size_t kInlineNodes = 16;
  /// Largest number of modes one tuple node may have.
  static constexpr int16_t kMaxRank = 32767;

  /// The empty tuple `()`.
  IntTuple() { nodes_.push_back(Node{0, 0, 1, 0}); }
  /// The leaf `v`.
  IntTuple(int64_t v) { nodes_.push_back(Node{v, kLeaf, 1, 0}); }
  IntTuple(int v) : IntTuple(int64_t(v)) {}
  /// The leaf `v@path`.
  static IntTuple leaf(int64_t v, BasisPath path = {});
  /// The tuple of `children` (in order).
  static IntTuple tuple(std::initializer_list<IntTuple> children);
  static IntTuple tuple(const std::vector<IntTuple> &children);
  template <class It> static IntTuple tupleOf(It first, It last) {
    IntTuple t;
    for (; first != last; ++first)
      t.push_back(*first);
    return t;
  }

  bool isLeaf() const { return nodes_[0].rank == kLeaf; }
  bool isTuple() const { return !isLeaf(); }
  /// @pre isLeaf()
  int64_t value() const { return nodes_[0].value; }
  /// @pre isLeaf()
  BasisPath basis() const { return BasisPath::fromRaw(nodes_[0].basis); }
  /// Number of top-level modes; 1 for a leaf.
  size_t rank() const { return isLeaf() ? 1 : size_t(nodes_[0].rank); }
  /// Mode i. For a leaf, mode 0 is the leaf itself (CuTe's get<0> on an int).
  /// @pre i < rank()
  IntTuple operator[](size_t i) const;
  int depth() const;
  /// The subtree rooted at pre-order node `k` (mode i of a tuple starts at
  /// node 1 + the spans of modes 0..i-1). subtree(0) is the whole tuple.
  /// @pre k < nodeCount()
  IntTuple subtree(size_t k) const {
    return IntTuple(nodes_.data() + k, nodes_[k].span);
  }

  /// Appends `child` as a new last mode. @pre isTuple(), rank() < kMaxRank
  /// and the result has at most kMaxNodes nodes (use Builder::take() to get
  /// a checked result).
  void push_back(const IntTuple &child);

  /// Number of leaves.
  size_t leafCount() const;
  /// Leaves in order (pre-order = left to right).
  SmallVector<Node, 16> leaves() const;
  /// The tuple of all leaves in order; a leaf stays a leaf. Fails when there
  /// are more than kMaxRank leaves.
  Expected<IntTuple> flatten() const;
  /// This tuple's structure with its leaves replaced, in order, by `values`
  /// (basis dropped). @pre values.size() == leafCount()
  IntTuple withLeaves(const int64_t *values) const;

  /// Product of all leaves (the size of a shape), overflow checked.
  /// The empty tuple has product 1.
  Expected<int64_t> product() const;
  /// Sum of all leaves, overflow checked.
  Expected<int64_t> sum() const;
  /// True when any leaf carries a basis path.
  bool hasBasis() const;

  /// Structural equality: same tree, same leaf values, same bases.
  bool operator==(const IntTuple &o) const;
  bool operator!=(const IntTuple &o) const { return !(*this == o); }
  size_t hash() const;

  /// Text form: `8`, `(8)`, `((2,4),8)`, `()`, leaves with a basis as `3@1`.
  std::string str() const;

  const Node *nodes() const { return nodes_.data(); }
  size_t nodeCount() const { return nodes_.size(); }
  /// Replaces the nodes by `count` copies of `nodes` (three of the algebra's
  /// rank-1 closed forms write a result's few nodes on the stack, then here).
  /// @pre `nodes` is a valid pre-order tree of count <= kMaxNodes nodes
  void assignNodes(const Node *nodes, size_t count) {
    Node *out = nodes_.resizeForOverwrite(count);
    // Field by field: the nodes were usually just written field by field,
    // and a whole-node (16-byte) load of them would stall on store
    // forwarding.
    for (size_t k = 0; k < count; ++k) {
      out[k].value = nodes[k].value;
      out[k].rank = nodes[k].rank;
      out[k].span = nodes[k].span;
      out[k].basis = nodes[k].basis;
    }
  }

  /// Sets the node count to `count` without initialising new nodes and
  /// returns the nodes, for a result written in place; nodes below the old
  /// count keep their values (also when the storage grows). The tuple is
  /// invalid until the caller has written a pre-order tree of `count` nodes.
  /// Counts up to kInlineNodes use the inline storage (no heap).
  [[gnu::always_inline]] Node *nodesForOverwrite(size_t count) {
    return nodes_.resizeForOverwrite(count);
  }
  /// Sets the node count to `count` <= nodeCount(), keeping the first
  /// `count` nodes: a result written into nodesForOverwrite's larger block.
  [[gnu::always_inline]] void truncateNodes(size_t count) {
    nodes_.truncate(count);
  }

  /// nodesForOverwrite for a count the inline nodes hold (no capacity
  /// test). @pre count <= kInlineNodes
  [[gnu::always_inline]] Node *inlineNodesForOverwrite(size_t count) {
    return nodes_.resizeWithinInline(count);
  }

  /// The node storage, at least kInlineNodes nodes, for nodes written in
  /// place before inlineNodesForOverwrite sets their count (the tuple
  /// reads as before until then, but for nodes written over).
  [[gnu::always_inline]] Node *nodeStorage() { return nodes_.data(); }

  class Builder;

private:
  explicit IntTuple(const Node *nodes, size_t count);
  SmallVector<Node, kInlineNodes> nodes_;
};

/// Builds a tuple node by node, in pre-order, without temporaries:
///   Builder b; b.open(); b.leaf(2); b.open(); b.leaf(3); b.leaf(4);
///   b.close(); b.close(); b.take() == (2,(3,4))
/// A builder whose first item is a leaf (and nothing else) gives that leaf.
class IntTuple::Builder {
public:
  void open() {
    bump();
    stack_.push_back(uint32_t(nodes_.size()));
    nodes_.push_back(Node{0, 0, 1, 0});
  }
  void close() {
    uint32_t at = stack_.back();
    stack_.pop_back();
    size_t span = nodes_.size() - at;
    if (span > kMaxNodes)
      tooLarge_ = true;
    nodes_[at].span = uint16_t(span);
  }
  void leaf(int64_t v, uint32_t basis = 0) {
    bump();
    nodes_.push_back(Node{v, kLeaf, 1, basis});
  }
  /// Appends a whole tuple as the next child.
  void subtree(const IntTuple &t) {
    bump();
    nodes_.append(t.nodes(), t.nodeCount());
  }
  /// Appends the subtree rooted at `root` (its `span` nodes, pre-order) as
  /// the next child.
  void subtree(const Node *root) {
    bump();
    nodes_.append(root, root->span);
  }
  /// The built tuple, or an error when it exceeds the representable size
  /// (kMaxNodes nodes, kMaxRank modes per tuple). @pre every open() closed
  Expected<IntTuple> take() const;
  /// Fails when the built tuple exceeds the representable size (see take()).
  Status check() const;
  /// Stores the built tuple in `out` without a temporary.
  /// @pre check() succeeded and every open() closed
  void buildInto(IntTuple &out) const {
    out.nodes_.clear();
    out.nodes_.append(nodes_.data(), nodes_.size());
  }

private:
  /// Counts a new child of the innermost open tuple.
  void bump() {
    if (!stack_.empty() && ++nodes_[stack_.back()].rank == kMaxRank)
      tooLarge_ = true;
  }
  SmallVector<Node, 32> nodes_;
  SmallVector<uint32_t, 8> stack_;
  bool tooLarge_ = false;
};

/// Same tree structure (leaf values ignored).
bool congruent(const IntTuple &a, const IntTuple &b);
/// `a` is a coarsening of `b` (see file comment).
bool weaklyCongruent(const IntTuple &a, const IntTuple &b);
/// Exclusive prefix products, congruent to `shape`, colexicographic (leftmost
/// fastest): prefixProduct((2,(3,4))) == (1,(2,6)). Overflow checked.
Expected<IntTuple> prefixProduct(const IntTuple &shape, int64_t init = 1);

} // namespace lk

#endif // LAYOUTKIT_CORE_INTTUPLE_H
