//===- TileCute.h - Bridge between tile and cute layouts ---------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A tile shard is a cute layout with basis strides over the named axes:
/// the codomain of the cute layout is the list of axes, and the tile stride
/// `s@a` becomes the cute basis stride `s@i` where axes[i] == a.
///
/// Orders: tile splits the flat index with the LAST iter fastest, cute with
/// the LEFTMOST mode fastest, so the modes are reversed:
///
///   tile  S[(8,4,2):(4@laneid,1@laneid,1)]        axes (laneid, m)
///   cute  (2,4,8):(1@1,1@0,4@0)
///
/// and for every flat index x, cute's crd2offset(x) lists, per codomain
/// dimension i, the value D(x) has on axes[i] (tested element by element).
///
/// Replica and offset have no cute counterpart (a cute layout maps one
/// coordinate to one point, from the origin). tileToCute refuses them with a
/// diagnostic naming the iter or offset, unless asked to carry them beside
/// the shard (ReplicaOffset::Carry): the replica as a second cute layout over
/// the same codomain, the offset as it was written. Offsets of 0 are always
/// carried (they add nothing). Round trips are exact:
///
///   cuteToTile(*tileToCute(t, Carry)) == t
///
/// cuteToTile reads a cute layout whose strides are plain integers (basis
/// index 0, as cute's crd2offset counts them) or single-level bases `s@i`
/// with i < axes.size(); it refuses nested bases `1@0@1`, negative strides
/// and basis indices outside the codomain, naming the leaf.
///
/// Examples:
///   tileToCute(parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"))
///     -> shard (112,128,2):(1@0,1@1,112@0), axes (TCol, TLane)
///   tileToCute(parse("S[(8):(1)] + R[2:4@warpid]"))
///     -> error "replica iter 0 (R[2:4@warpid]) is not representable in a
///        cute layout ..."
///   cuteToTile(parse("(4,8):(1,4)"), {Axis::m()}) -> S[(8,4):(4,1)]
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_BRIDGE_TILECUTE_H
#define LAYOUTKIT_BRIDGE_TILECUTE_H

#include "layoutkit/core/Expected.h"
#include "layoutkit/cute/Layout.h"
#include "layoutkit/cute/Swizzle.h"
#include "layoutkit/tile/SwizzleLayout.h"
#include "layoutkit/tile/TileLayout.h"

#include <optional>
#include <span>
#include <vector>

namespace lk::bridge {

/// What tileToCute does with a replica or a non-zero offset.
enum class ReplicaOffset {
  Refuse, ///< fail with a diagnostic naming the iter / offset
  Carry,  ///< keep them beside the shard (TileAsCute::replica / offset)
};

/// A tile layout as cute: the shard, its codomain, and what cute cannot hold.
struct TileAsCute {
  /// The shard: modes reversed (cute's leftmost mode is the tile's last
  /// iter), strides `s@i` over `axes`.
  cute::Layout shard;
  /// The codomain: basis index i is axes[i].
  std::vector<tile::Axis> axes;
  /// The replica iters as a cute layout over the same codomain (reversed
  /// like the shard); empty when the tile layout has no replica.
  std::optional<cute::Layout> replica;
  /// The offsets as written.
  tile::OffsetList offset;
};

/// Converts a tile layout. `codomain`, when given, fixes the axes and their
/// order (it must hold every axis the layout names, each once); by default
/// it is layout.axes().
Expected<TileAsCute> tileToCute(const tile::TileLayout &layout,
                                ReplicaOffset mode = ReplicaOffset::Refuse,
                                std::span<const tile::Axis> codomain = {});

/// The tile layout of a cute layout whose codomain is `axes` (see the rules
/// above); with no replica and no offset.
Expected<tile::TileLayout> cuteToTile(const cute::Layout &shard,
                                      std::span<const tile::Axis> axes);

/// The inverse of tileToCute (shard, replica and offset).
Expected<tile::TileLayout> cuteToTile(const TileAsCute &c);

/// The tile swizzle with the same function as cute's Swizzle<B,M,S>:
/// Swizzle(M=M,B=B,S=S) (docs/tile.md, "Relation to cute"). Fails when
/// S < B: cute evaluates such swizzles, but they are not self-inverse and
/// the tile model refuses them. Example: Sw<3,4,3> -> Swizzle(M=4,B=3,S=3).
Expected<tile::SwizzleLayout> swizzleFromCute(const cute::Swizzle &s);

/// cute's Swizzle<B,M,S> with the same function as `s`.
cute::Swizzle swizzleToCute(const tile::SwizzleLayout &s);

} // namespace lk::bridge

#endif // LAYOUTKIT_BRIDGE_TILECUTE_H
