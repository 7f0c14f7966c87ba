//===- LinearTile.h - Bridge between linear and tile layouts -----*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A tile layout (shard / replica / offset over named axes, TIRx) whose
/// iters are power-of-two walks that tile the hardware bits exactly is a
/// Triton linear layout read backwards; this header converts both ways
/// (docs/design.md §2.4). Conversions are exact or refused with a diagnostic
/// naming the iter, offset or basis at fault.
///
/// ## Conventions
///
/// Direction. A tile layout maps logical -> physical (one element to a set
/// of coordinates); a linear layout, as in Triton, maps hardware -> logical.
/// tileToLinear therefore *inverts*: its in-dims are the hardware axes and
/// its out-dim is the logical index.
///
///   tile    L(x) = { D(x) + r | r in R }      (offset must be 0)
///   linear  {register: [...], lane: [...], warp: [...]} -> {index: size}
///
/// and for every flat x and every coordinate h in L(x): linear(h) == x.
/// Shard bits become single-bit columns (the logical bit they carry);
/// replica bits become zero columns (broadcast: the element is held there
/// too).
///
/// Axes and in-dims. One in-dim per axis the layout names, in the order
/// m, laneid, warpid, cta, then the other axes by id (Axis.h's table order:
/// tid, tid_in_wg, wgid, pid, TLane, TCol, P, F, registered ones). Names:
/// laneid -> `lane`, warpid -> `warp`, cta -> `block`, m -> `register`
/// (TileToLinearDims::memoryDim, e.g. `offset` for a shared-memory layout),
/// every other axis by its own name (`tid`, `TLane`, ...). An axis has
/// log2(span) bits, span = 1 + sum (e-1)*s over its iters.
///
/// Logical bits. Tile splits the flat index with the LAST iter fastest, so
/// the last shard iter owns the lowest logical bits. The out-dim is `index`
/// (the row-major flat index) by default. Given a logical `shape` with
/// power-of-two extents, the out-dims are dim0, dim1, ..., dim{r-1}, listed
/// in that order as Triton does, dim_d holding coordinate d of the row-major
/// unflattening of the index (dim0 the most major). linearToTile reads the
/// out-dims the same way: their listed order is the logical shape, most
/// major first.
///
/// Representable tile layouts (else a diagnostic naming the iter):
///   * every offset is 0 ("offset 5@warpid is not representable");
///   * every shard and replica iter has a power-of-two extent and, when the
///     extent is > 1, a power-of-two stride (stride 0 on a shard iter puts
///     several elements at one coordinate: not a function hardware ->
///     logical);
///   * on each axis the iters' bits (log2(s) .. log2(s) + log2(e) - 1) are
///     distinct and fill [0, k) (a gap would be a coordinate that holds
///     nothing, a repeated bit a carry).
///
/// Back to tile. linearToTile needs every non-zero column to be a single
/// logical bit, each logical bit reached by exactly one input bit (zero
/// columns are replicas). In-dims map to axes by the names above (lane,
/// warp, block, register or offset -> m, any other name -> the axis of that
/// name). Shard iters come out merged: consecutive logical bits on
/// consecutive bits of one axis form one iter, the most major first; replica
/// iters are the runs of zero columns, per in-dim in order, lowest first;
/// an in-dim of size 1 stays named as a zero offset (`+ 0@cta`). So
///
///   tileToLinear(linearToTile(ll)) == ll      for every representable ll
///                                             (in-dims in the order above)
///   linearToTile(tileToLinear(t)) == t        for t in that merged form,
///
/// and in general linearToTile(tileToLinear(t)) evaluates like t.
///
/// Examples:
///   tileToLinear(S[(8,4,2):(4@laneid,1@laneid,1)])   (the m8n8 fragment)
///     -> {register: [(1)], lane: [(2), (4), (8), (16), (32)]} -> {index: 64}
///   tileToLinear(S[(4):(1@laneid)] + R[2:4@laneid])
///     -> {lane: [(1), (2), (0)]} -> {index: 4}
///   tileToLinear(S[(8,3):(1,8)]) -> error "iter 1 of S[(8,3):(1,8)] has
///     extent 3, not a power of two" (bridge/PaddedBridge.h pads it)
///   linearToTile({register: [(1)], lane: [(2), (0)]} -> {index: 4})
///     -> S[(2,2):(1@laneid,1)] + R[2:2@laneid]
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_BRIDGE_LINEARTILE_H
#define LAYOUTKIT_BRIDGE_LINEARTILE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/linear/LinearLayout.h"
#include "layoutkit/tile/TileLayout.h"

#include <vector>

namespace lk::bridge {

/// Dims of tileToLinear's result (see the file comment).
struct TileToLinearDims {
  /// The in-dim of the memory axis m (`register`; `offset` for memory).
  linear::DimId memoryDim = linear::dims::kRegister;
  /// Empty: one out-dim `index`. Otherwise an admitted logical shape with
  /// power-of-two extents: out-dims dim0..dim{r-1}.
  std::vector<int64_t> shape;
};

/// The linear in-dim name of a tile axis.
linear::DimId axisDim(tile::Axis a,
                      linear::DimId memoryDim = linear::dims::kRegister);
/// The tile axis of a linear in-dim name (register / offset / memoryDim ->
/// m, lane -> laneid, warp -> warpid, block -> cta, else by name).
Expected<tile::Axis> dimAxis(linear::DimId d,
                             linear::DimId memoryDim = linear::dims::kRegister);

/// Hardware -> logical linear layout of a tile layout (see the rules above).
Expected<linear::LinearLayout> tileToLinear(const tile::TileLayout &layout,
                                            const TileToLinearDims &dims = {});

/// The tile layout of a hardware -> logical linear layout. The out-dims are
/// the logical dims, most major first (one out-dim: the flat index).
Expected<tile::TileLayout>
linearToTile(const linear::LinearLayout &ll,
             linear::DimId memoryDim = linear::dims::kRegister);

} // namespace lk::bridge

#endif // LAYOUTKIT_BRIDGE_LINEARTILE_H
