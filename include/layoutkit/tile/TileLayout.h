//===- TileLayout.h - Shard / replica / offset over named axes ---*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A `TileLayout` (TIRx semantics, docs/design.md §2.2) maps each element of a
/// logical tile to a *set* of physical coordinates on named axes (Axis.h):
///
///   L(x) = { D(x) + r + O | r in R }
///
///  * an Iter is (extent, stride, axis): a linear, strided walk on one axis;
///  * D, the shard, is a list of one or more iters; it partitions the
///    logical index and gives a base coordinate;
///  * R, the replica, is a list of zero or more iters, independent of the
///    logical index: every combination of them is added (broadcast);
///  * O, the offset, is one integer per axis, added to every result.
///
/// Forward map of a logical coordinate x = (x_0..x_{r-1}) in shape
/// (S_0..S_{r-1}), with shard extents (e_0..e_{n-1}):
///
///   1. flat = sum_d x_d * prod_{e > d} S_e            (row-major)
///   2. c_k  = floor(flat / prod_{l > k} e_l) mod e_k  (LAST iter fastest)
///   3. D(x)[a] = sum_{k : a_k = a} c_k * s_k, then + O[a]
///   4. r ranges over prod_t [0, e_t); adds r_t * s_t to axis a_t.
///
/// A shape is admitted when its size equals prod_k e_k; the same layout
/// then works for every admitted shape. Extents need not be powers of two.
///
/// Worked example (the tensor-core tile, docs/design.md §6.1), shape (8,16):
///
///   S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid
///
///   (i,j) = (7,15): flat = 127; c = (7,1,3,1);
///   laneid = 4*7 + 3 = 31, warpid = 1 + 5 = 6, m = 1; replica adds 4 to
///   warpid: L(7,15) = {(laneid 31, warpid 6, m 1), (31, 10, 1)}.
///
/// Coordinates of a layout are expressed over its axes(): the distinct axes
/// it names (shard, then replica, then offset, in order of first
/// appearance). An axis the layout does not name is at 0.
///
/// Evaluation (evalInto / addressAt) is allocation-free: the layout caches
/// the axis slot of every iter, and small layouts are stored inline
/// (SmallVector).
///
/// Text form and printing: TileText.h. Presets and building operations:
/// TilePresets.h, TileOps.h.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TILE_TILELAYOUT_H
#define LAYOUTKIT_TILE_TILELAYOUT_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/core/SmallVector.h"
#include "layoutkit/tile/Axis.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lk::tile {

/// One strided walk: component c in [0, extent) adds c * stride to `axis`.
struct Iter {
  int64_t extent = 1;
  int64_t stride = 0;
  Axis axis;

  bool operator==(const Iter &) const = default;
};

/// One component of a physical coordinate or of the offset.
struct AxisValue {
  Axis axis;
  int64_t value = 0;

  bool operator==(const AxisValue &) const = default;
};

using IterList = SmallVector<Iter, 8>;
using OffsetList = SmallVector<AxisValue, 4>;
/// A physical coordinate as explicit (axis, value) pairs; used for queries
/// where some axes may be left out ("any value").
using PhysicalCoord = SmallVector<AxisValue, 8>;

/// A set of physical coordinates, each with one value per axis of the
/// layout that produced it (TileLayout::axes() order). Coordinates are in
/// replica order: the last replica iter varies fastest.
class CoordSet {
public:
  CoordSet() = default;
  CoordSet(size_t rank) : rank_(rank) {}

  /// Number of coordinates.
  size_t size() const { return count_; }
  /// Values per coordinate (number of axes).
  size_t rank() const { return rank_; }
  /// Coordinate i, one value per axis. @pre i < size()
  std::span<const int64_t> operator[](size_t i) const {
    return {values_.data() + i * rank_, rank_};
  }
  /// The flat storage: size() * rank() values.
  std::span<const int64_t> values() const {
    return {values_.data(), values_.size()};
  }

  /// Builders (used by TileLayout).
  void reset(size_t rank) {
    rank_ = rank;
    count_ = 0;
    values_.clear();
  }
  int64_t *appendUninitialized() {
    ++count_;
    values_.resize(values_.size() + rank_);
    return values_.data() + values_.size() - rank_;
  }

private:
  size_t rank_ = 0;
  size_t count_ = 0;
  SmallVector<int64_t, 32> values_;
};

/// The smallest and largest value a layout reaches on one axis, over all
/// logical elements and replicas. span() = max - min + 1.
struct Footprint {
  int64_t min = 0;
  int64_t max = 0;
  int64_t span() const { return max - min + 1; }
  bool operator==(const Footprint &) const = default;
};

class TileLayout {
public:
  /// Largest number of shard + replica iters a layout may have.
  static constexpr size_t kMaxIters = 4096;

  /// The trivial layout S[(1):(0)] (one element at the origin of m).
  TileLayout();

  /// Validates and builds D + R + O:
  ///  * at least one shard iter; at most kMaxIters iters in all;
  ///  * every extent >= 1, every stride >= 0, every offset >= 0;
  ///  * at most one offset per axis (a zero offset still names its axis);
  ///  * size(), replicaCount() and the largest coordinate on every axis
  ///    (O + sum (e-1)*s over shard and replica) fit in int64.
  /// @post L(x) is defined for every flat index in [0, size()).
  static Expected<TileLayout> make(IterList shard, IterList replica = {},
                                   OffsetList offset = {});
  /// Shorthand for make() from initializer lists.
  static Expected<TileLayout>
  make(std::initializer_list<Iter> shard,
       std::initializer_list<Iter> replica = {},
       std::initializer_list<AxisValue> offset = {});

  const IterList &shard() const { return shard_; }
  const IterList &replica() const { return replica_; }
  /// The offsets as written (order kept for printing); axes not listed are 0.
  const OffsetList &offset() const { return offset_; }
  /// O[a] (0 when the layout has no offset on `a`).
  int64_t offsetOn(Axis a) const;

  /// The distinct axes the layout names: shard, replica, offset, in order
  /// of first appearance. Every coordinate the layout produces has one
  /// value per entry.
  std::span<const Axis> axes() const { return {axes_.data(), axes_.size()}; }
  /// Position of `a` in axes(), or -1 when the layout does not name it.
  int axisSlot(Axis a) const;
  bool names(Axis a) const { return axisSlot(a) >= 0; }

  /// Number of logical elements: prod of the shard extents.
  int64_t size() const { return size_; }
  /// |R|: prod of the replica extents (1 when R is empty).
  int64_t replicaCount() const { return replicaCount_; }

  //===--------------------------------------------------------------------===//
  // Logical coordinates
  //===--------------------------------------------------------------------===//

  /// OK when every extent is >= 1 and their product fits in int64 (a
  /// logical shape of some layout); else a diagnostic about "shape".
  static Status checkExtents(std::span<const int64_t> shape);
  /// checkExtents(shape) and prod(shape) == size(); otherwise a diagnostic
  /// naming the two sizes, about the parameter "shape".
  Status admits(std::span<const int64_t> shape) const;
  /// Row-major flat index of `coord` in `shape` (step 1), after checking
  /// that the shape is admitted and 0 <= coord_d < shape_d.
  Expected<int64_t> flatten(std::span<const int64_t> shape,
                            std::span<const int64_t> coord) const;
  /// Inverse of flatten: the row-major coordinate of `flat` in `shape`.
  /// @pre 0 <= flat < prod(shape)
  static std::vector<int64_t> unflatten(std::span<const int64_t> shape,
                                        int64_t flat);

  /// The shard components c_k of a flat index (step 2), one per shard iter.
  /// @pre 0 <= flat < size()
  SmallVector<int64_t, 8> components(int64_t flat) const;

  //===--------------------------------------------------------------------===//
  // Forward map
  //===--------------------------------------------------------------------===//

  /// D(flat) + O, one value per axis of axes(), written to `out`
  /// (axes().size() values). No allocation. @pre 0 <= flat < size()
  void baseInto(int64_t flat, int64_t *out) const;
  /// The value of D(flat) + O on axis `a` (0 + O[a] when no shard iter is
  /// on `a`); the memory address when a == Axis::m(). Replicas are not
  /// added (r = 0). No allocation. @pre 0 <= flat < size()
  int64_t addressAt(int64_t flat, Axis a = Axis::m()) const;
  /// The memory address (axis `a`, default m) of a logical coordinate.
  Expected<int64_t> address(std::span<const int64_t> shape,
                            std::span<const int64_t> coord,
                            Axis a = Axis::m()) const;

  /// L(flat) into `out` (reset to rank axes().size()): replicaCount()
  /// coordinates, the last replica iter fastest. Allocation-free while the
  /// result fits CoordSet's inline storage (32 values).
  /// @pre 0 <= flat < size()
  void evalInto(int64_t flat, CoordSet &out) const;
  /// The first min(limit, replicaCount()) coordinates of L(flat) into
  /// `out`, in the same order; the work is bounded by `limit`, not by the
  /// replica count. @pre 0 <= flat < size(), limit >= 1
  void evalInto(int64_t flat, CoordSet &out, int64_t limit) const;
  /// L(flat). @pre 0 <= flat < size()
  CoordSet eval(int64_t flat) const;
  /// L(x) for a logical coordinate of an admitted shape.
  Expected<CoordSet> eval(std::span<const int64_t> shape,
                          std::span<const int64_t> coord) const;
  /// The physical coordinates that own logical element `flat` (== L(flat)),
  /// as (axis, value) pairs.
  std::vector<PhysicalCoord> owners(int64_t flat) const;

  //===--------------------------------------------------------------------===//
  // Inverse queries
  //===--------------------------------------------------------------------===//

  /// The flat logical indices held at a physical coordinate, ascending and
  /// without duplicates. `where` constrains some axes; axes it leaves out
  /// take any value (so {laneid 3, warpid 5} asks what one thread holds
  /// over all registers). An axis the layout does not name is at 0.
  /// Solved per replica combination by a bounded search over the shard
  /// iters of each constrained axis; fails when more than `limit`
  /// candidates would have to be visited, or (checked before the replicas
  /// are listed) there are more than `limit` replica combinations.
  Expected<std::vector<int64_t>> holders(std::span<const AxisValue> where,
                                         int64_t limit = int64_t(1)
                                                         << 26) const;

  /// Whether the shard is injective on axis `a`: no two different
  /// combinations of the components of the shard iters on `a` give the same
  /// value on `a` (true when no shard iter is on `a`). A stride-0 iter of
  /// extent > 1 makes it false. Decided exactly; fails only when neither the
  /// mixed-radix criterion nor a count of at most 2^24 sums settles it.
  Expected<bool> isInjectiveOn(Axis a) const;
  /// Whether distinct logical elements have disjoint L(x) sets. Decided by
  /// the mixed-radix criterion per axis, or by enumeration of at most 2^22
  /// coordinates.
  Expected<bool> isInjective() const;
  /// The values the layout reaches on `a`: [O[a], O[a] + sum (e-1)*s] over
  /// the shard and replica iters on `a` ({0,0} when it does not name `a`).
  Footprint footprint(Axis a) const;

  /// Structural equality: same shard and replica iters in order, same
  /// offset per axis (the order offsets were written in is ignored).
  bool operator==(const TileLayout &o) const;
  bool operator!=(const TileLayout &o) const { return !(*this == o); }

  /// The canonical text (TileText.h), e.g.
  /// "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid".
  std::string str() const;

private:
  IterList shard_;
  IterList replica_;
  OffsetList offset_;
  SmallVector<Axis, 8> axes_;
  /// Slot in axes_ of each shard / replica iter.
  SmallVector<uint16_t, 8> shardSlot_;
  SmallVector<uint16_t, 8> replicaSlot_;
  /// O per slot of axes_.
  SmallVector<int64_t, 8> offsetBySlot_;
  int64_t size_ = 1;
  int64_t replicaCount_ = 1;
};

/// A shape (or a coordinate) as the tile grammar writes it, e.g. "(8,64)".
std::string shapeText(std::span<const int64_t> shape);

} // namespace lk::tile

#endif // LAYOUTKIT_TILE_TILELAYOUT_H
