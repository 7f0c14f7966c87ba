//===- Layout.h - Hierarchical shape:stride layouts --------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A cute `Layout` is a pair of congruent IntTuples (Shape, Stride). It maps a
/// coordinate to an offset: L(c) = sum over leaves of c_leaf * d_leaf.
/// Coordinates are colexicographic: the leftmost mode varies fastest.
///
/// Worked example, L = ((2,4),8):((1,16),2):
///   size(L)   = 2*4*8 = 64
///   rank(L)   = 2, depth(L) = 2
///   L((1,2),3) = 1*1 + 2*16 + 3*2 = 39
///   L(5) splits 5 colexicographically: ((1,2),0) -> 33
///   cosize(L) = L(size-1) + 1 = 1*1 + 3*16 + 7*2 + 1 = 64
///
/// Strides may be basis strides `N@d` (see IntTuple.h): the layout then maps
/// into a multi-dimensional codomain, e.g. (4,8):(1@0,1@1) is the identity of
/// a 4x8 coordinate space: L(3,5) = (3,5).
///
/// The algebra over layouts lives in Algebra.h; text forms in Text.h.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_CUTE_LAYOUT_H
#define LAYOUTKIT_CUTE_LAYOUT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/IntTuple.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace lk::cute {

class Layout {
public:
  /// Most leaves a layout given to make() may have. Every layout, also one an
  /// operation returns, has at most IntTuple::kMaxRank leaves; the margin
  /// lets operations that add a mode or two stay representable.
  static constexpr size_t kMaxLeaves = 16384;

  /// The trivial layout 1:0.
  Layout() : shape_(1), stride_(0) {}

  /// Checks that shape and stride are congruent, that shape leaves are
  /// positive plain integers, that the size and every offset L(c) fit in
  /// int64 (no stride is INT64_MIN), and that there are at most kMaxLeaves
  /// leaves.
  static Expected<Layout> make(IntTuple shape, IntTuple stride);
  /// Builds without checks. @pre the conditions of make() hold.
  static Layout unchecked(IntTuple shape, IntTuple stride) {
    Layout l;
    l.shape_ = std::move(shape);
    l.stride_ = std::move(stride);
    return l;
  }
  /// The layout whose shape and stride two builders hold, without
  /// intermediate tuples. Every algebra result is built here, so this is
  /// where a result out of range becomes a diagnostic: it fails when either
  /// tuple exceeds the representable size, when size = prod(s) does not fit
  /// in int64, or when the reach 1 + sum (s-1)*|d| (the cosize) does not.
  /// Example: the shape (2,2^62) fails ("size ... does not fit in 64 bits").
  /// @pre the builders are congruent, shape leaves are positive
  static Expected<Layout> fromBuilders(const IntTuple::Builder &shape,
                                       const IntTuple::Builder &stride);
  /// Overwrites this layout with `count` pre-order shape and stride nodes.
  /// @pre the nodes are congruent trees meeting the conditions of make()
  void assignNodes(const IntTuple::Node *shape, const IntTuple::Node *stride,
                   size_t count) {
    shape_.assignNodes(shape, count);
    stride_.assignNodes(stride, count);
  }
  /// Sets both node counts to `count` (see IntTuple::nodesForOverwrite) and
  /// returns the shape and stride nodes, for a result written in place.
  /// @pre before the layout is read again, the caller has written congruent
  /// trees of `count` nodes meeting the conditions of make()
  [[gnu::always_inline]] void nodesForOverwrite(size_t count,
                                                IntTuple::Node *&shape,
                                                IntTuple::Node *&stride) {
    shape = shape_.nodesForOverwrite(count);
    stride = stride_.nodesForOverwrite(count);
  }
  /// Sets both node counts to `count` <= the count nodesForOverwrite set,
  /// keeping the nodes written: a result of fewer nodes than reserved.
  [[gnu::always_inline]] void truncateNodes(size_t count) {
    shape_.truncateNodes(count);
    stride_.truncateNodes(count);
  }
  /// nodesForOverwrite for at most IntTuple::kInlineNodes nodes: no
  /// capacity test. @pre count <= IntTuple::kInlineNodes
  [[gnu::always_inline]] void inlineNodesForOverwrite(size_t count,
                                                      IntTuple::Node *&shape,
                                                      IntTuple::Node *&stride) {
    shape = shape_.inlineNodesForOverwrite(count);
    stride = stride_.inlineNodesForOverwrite(count);
  }
  /// The shape's and the stride's node storage (IntTuple::nodeStorage).
  [[gnu::always_inline]] void nodeStorage(IntTuple::Node *&shape,
                                          IntTuple::Node *&stride) {
    shape = shape_.nodeStorage();
    stride = stride_.nodeStorage();
  }
  /// The compact column-major layout of `shape` (CuTe's make_layout(shape)):
  /// strides are exclusive prefix products, size-1 leaves get stride 0.
  /// compact(8) == 8:1, compact((2,4)) == (2,4):(1,2), compact(1) == 1:0.
  static Expected<Layout> compact(const IntTuple &shape, int64_t start = 1);

  const IntTuple &shape() const { return shape_; }
  const IntTuple &stride() const { return stride_; }

  /// Number of top-level modes (1 when the shape is an integer).
  size_t rank() const { return shape_.rank(); }
  int depth() const { return shape_.depth(); }
  /// Mode i as a layout. @pre i < rank()
  Layout mode(size_t i) const { return unchecked(shape_[i], stride_[i]); }
  /// The sub-layout rooted at pre-order node k of the shape (and stride):
  /// iterating modes by node offset avoids mode(i)'s walk from the start.
  /// @pre k < shape().nodeCount()
  Layout subtree(size_t k) const {
    Layout l;
    l.shape_ = shape_.subtree(k);
    l.stride_ = stride_.subtree(k);
    return l;
  }
  /// Product of the shape. Never overflows for a layout built by make().
  int64_t size() const;
  /// 1 + sum over leaves of (s-1)*|d| (CuTe's cosize; L(size-1)+1 for
  /// non-negative strides). Fails on basis strides (a codomain of several
  /// dims has no one cosize) and where the sum overflows.
  Expected<int64_t> cosize() const;
  bool hasBasisStrides() const { return stride_.hasBasis(); }

  /// "shape:stride", e.g. "((2,4),8):((1,16),2)".
  std::string str() const { return shape_.str() + ":" + stride_.str(); }

  /// Structural equality (shape, nesting and every stride).
  bool operator==(const Layout &o) const {
    return shape_ == o.shape_ && stride_ == o.stride_;
  }
  bool operator!=(const Layout &o) const { return !(*this == o); }

private:
  /// size = prod(s) and 1 + sum (s-1)*|d| fit in int64; no stride is
  /// INT64_MIN.
  static Status checkRange(const IntTuple &shape, const IntTuple &stride);

  IntTuple shape_;
  IntTuple stride_;
};

/// Builds the layout whose modes are `modes` (CuTe's make_layout(L0, L1,...)).
/// Fails only when the result exceeds the representable size.
Expected<Layout> makeLayout(std::initializer_list<Layout> modes);
Expected<Layout> makeLayout(const std::vector<Layout> &modes);

/// Collects modes one at a time into a tuple layout, without an
/// intermediate container (small results never allocate).
class ModeBuilder {
public:
  ModeBuilder() {
    shape_.open();
    stride_.open();
  }
  void append(const Layout &mode) {
    shape_.subtree(mode.shape());
    stride_.subtree(mode.stride());
    ++count_;
  }
  size_t size() const { return count_; }
  /// The layout of the appended modes. Call once.
  Expected<Layout> build() {
    shape_.close();
    stride_.close();
    return Layout::fromBuilders(shape_, stride_);
  }

private:
  IntTuple::Builder shape_;
  IntTuple::Builder stride_;
  size_t count_ = 0;
};

} // namespace lk::cute

#endif // LAYOUTKIT_CUTE_LAYOUT_H
