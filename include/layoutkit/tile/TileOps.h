//===- TileOps.h - Building tile layouts from atoms --------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The operations that build hardware layouts from small atoms:
///
///  * directSum(outer, inner): the shard of `outer` becomes the slow part and
///    the shard of `inner` the fast part of one shard; replicas are combined
///    and offsets added per axis. Logical element f of the sum is
///    (f / size(inner), f mod size(inner)) of (outer, inner):
///
///      L_{A+B}(f) = L_A(f / |B|) + L_B(f mod |B|)        (sets, pointwise +)
///
///    Over disjoint axes it pairs two placements (warps + lanes); on a shared
///    axis it stacks them (the outer's strides skip the inner's footprint).
///      directSum(S[(2):(1@warpid)], S[(32):(1@laneid)])
///        == S[(2,32):(1@warpid,1@laneid)]
///      directSum(S[(4):(224@TCol)], S[(2,128,112):(112@TCol,1@TLane,1@TCol)])
///        four accumulators side by side in tensor memory
///
///  * groupByShape(layout, shape): the shard iters of each logical dimension
///    of an admitted shape, splitting an iter where a dimension boundary falls
///    inside it ((e, s@a) -> (e/q, q*s@a), (q, s@a)):
///      groupByShape(S[(8,4,2):(4@laneid,1@laneid,1)], (8,8))
///        == { [8:4@laneid], [4:1@laneid, 2:1] }
///      groupByShape(S[(64):(1)], (8,8)) == { [8:8], [8:1] }
///
///  * tileProduct(outer, outerShape, inner, innerShape): the blocked product
///  per
///    dimension. The result admits shape (O_0*I_0, ..., O_{r-1}*I_{r-1}) and
///    element (o_d*I_d + n_d)_d maps to L_outer(o) + L_inner(n):
///      tileProduct(S[(2,2):(8@TCol,4@TCol)], (2,2),
///      S[(32,4):(1@TLane,1@TCol)], (32,4))
///        == S[(2,32,2,4):(8@TCol,1@TLane,4@TCol,1@TCol)] for shape (64,8):
///    element (i,k) at TLane i mod 32, TCol 8(i/32) + 4(k/4) + k mod 4.
///
///  * splitIter(layout, k, q): shard iter k = (e, s@a) with q | e becomes
///    (e/q, q*s@a), (q, s@a); the map is unchanged.
///  * packIter(layout, k, epc, slot): shard iter k = (e, s@a) with epc | e
///    becomes (e/epc, s@a), (epc, 1@slot): epc consecutive elements share one
///    cell of axis a and are told apart by `slot` (e.g. four 8-bit scale
///    factors per 32-bit TCol cell: epc = 32 / SF_bits).
///
/// All of them check sizes with overflow-checked arithmetic and return a
/// diagnostic when the inputs do not fit.
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_TILE_TILEOPS_H
#define LAYOUTKIT_TILE_TILEOPS_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/tile/TileLayout.h"

#include <span>
#include <vector>

namespace lk::tile {

/// outer + inner (see above). @post size() == outer.size() * inner.size()
Expected<TileLayout> directSum(const TileLayout &outer,
                               const TileLayout &inner);

/// The shard iters of each dimension of `shape` (which `layout` must admit),
/// in order; a dimension of extent 1 gets no iter. Fails when a dimension
/// boundary falls inside an iter whose extent it does not divide.
Expected<std::vector<IterList>> groupByShape(const TileLayout &layout,
                                             std::span<const int64_t> shape);

/// A tiled layout and the logical shape it is meant for.
struct TiledLayout {
  TileLayout layout;
  std::vector<int64_t> shape;
};

/// The blocked product per dimension (see above). outerShape and innerShape
/// have the same rank and are admitted by outer and inner.
Expected<TiledLayout> tileProduct(const TileLayout &outer,
                                  std::span<const int64_t> outerShape,
                                  const TileLayout &inner,
                                  std::span<const int64_t> innerShape);

/// Splits shard iter k in two (see above). @pre k < shard().size()
Expected<TileLayout> splitIter(const TileLayout &layout, size_t k, int64_t q);

/// Packs `epc` elements per cell of shard iter k's axis (see above).
Expected<TileLayout> packIter(const TileLayout &layout, size_t k, int64_t epc,
                              Axis slot = Axis::m());

} // namespace lk::tile

#endif // LAYOUTKIT_TILE_TILEOPS_H
