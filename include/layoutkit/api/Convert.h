//===- Convert.h - A layout in the other models ------------------*- C++ -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An AnyLayout (api/Layout.h) in each of the three models, where the
/// bridges (docs/design.md §2.4) make the conversion exact; otherwise the
/// bridge's diagnostic, which names the leaf, iter or basis that has no
/// counterpart. Each model keeps its own direction:
///
///   cute    coordinate -> offset (or a basis-stride codomain)
///   tile    logical index -> hardware coordinate (m, laneid, warpid, ...)
///   linear  hardware (register, lane, warp, block) / index -> logical
///
///   toCute(cute)   = itself
///   toCute(tile)   = bridge::tileToCute's shard, strides s@i over the
///                    tile's axes; refused with a replica, an offset or a
///                    swizzle
///   toCute(linear) = swizzledForm below: bridge::linearToCute, or the
///                    first swizzled strided form Sw<B,M,S> o L
///   toTile(cute)   = bridge::cuteToTile over the axis m; the cute swizzle
///                    becomes the tile swizzle; refused with an offset
///   toTile(tile)   = itself
///   toTile(linear) = bridge::linearToTile (register -> m, lane -> laneid,
///                    warp -> warpid, block -> cta); a shared-memory
///                    layout (offset -> logical) it cannot express takes
///                    its address form (api/Plan.h memoryForms: a swizzle
///                    over a strided tile on m)
///   toLinear(cute) = bridge::cuteToLinear (index -> offset)
///   toLinear(tile) = bridge::tileToLinear over `shape` (empty: index);
///                    a swizzle moves the register (the address m): basis
///                    j becomes the old layout at Sw(2^j)
///   toLinear(linear) = itself
///
/// Examples:
///   toLinear(cute (4,2):(2,1))      -> {index: [(2), (4), (1)]} -> {offset: 8}
///   toTile(cute Sw<3,3,3> o (8,64):(64,1))   (CuTe's 1-D index)
///       -> Swizzle(M=3,B=3,S=3) o S[(64,8):(1,64)]
///   tileForm(the same, shape (8,64))          (over its modes)
///       -> Swizzle(M=3,B=3,S=3) o S[(8,64):(64,1)]
///   toCute(linear {register: [(1), (2)], lane: [(8), (4)]} -> {offset: 16})
///       -> (4,(2,2)):(1,(8,4))
///   toLinear(cute (4,3):(1,4))  -> error "... extent 3, not a power of two"
///
//===----------------------------------------------------------------------===//
#ifndef LAYOUTKIT_API_CONVERT_H
#define LAYOUTKIT_API_CONVERT_H

#include "layoutkit/api/Layout.h"
#include "layoutkit/bridge/PaddedBridge.h"

#include <optional>
#include <span>
#include <string_view>

namespace lk::api {

/// A layout logical -> offset (its in-dims flattened, the first in-dim
/// lowest) as a swizzled strided cute layout Sw<B,M,S> o L: the plain
/// strided form when there is one (B = 0), else the first swizzle in the
/// order of B, then M, then S (B >= 1, S >= B, B + M + S <= the offset
/// bits) whose un-swizzled columns are strided; none otherwise.
/// Example: columns 1, 2, 4, 10 -> Sw<1,1,2> o 16:1 (Sw<1,0,1..3> and
/// Sw<1,1,1> leave two columns sharing a bit).
std::optional<cute::ComposedLayout>
swizzledForm(const linear::LinearLayout &toOffset);

Expected<cute::ComposedLayout> toCute(const AnyLayout &l);
Expected<tile::SwizzledTileLayout> toTile(const AnyLayout &l);
/// toTile(l) where no shape says how to read `l`: a cute layout of rank 2
/// or more is refused, as it reads over its modes or over its size (CuTe's
/// 1-D index) and neither is a default. The message names `shapeName`
/// when the caller takes a shape, and shows the tile form over the modes.
/// Example: (8,64):(64,1) -> error naming S[(8,64):(64,1)]; 64:2 ->
/// S[(64):(2)].
Expected<tile::SwizzledTileLayout> unshapedTile(const AnyLayout &l,
                                                std::string_view shapeName);
/// toTile(l) for a logical tile of `shape` (row-major, as tile layouts
/// index it): a linear layout's output sizes must be `shape`, dim by dim
/// (a (16,8) layout read over (8,16) would be a different function); a
/// cute layout of rank r > 1 over a shape of r > 1 dims takes dim i as its
/// mode i (element (x0, x1, ...) is CuTe's coordinate (x0, x1, ...), as
/// `show` draws it; mode sizes must be the dims): (8,64):(64,1) over
/// (8,64) -> S[(8,64):(64,1)]; `shapeName` names the shape in the
/// diagnostic. A cute layout of rank 1 over several dims reads element x
/// at CuTe's 1-D index, colex(x) (the first dim fastest): l o compact(shape)
/// taken by modes, 64:1 over (8,8) -> S[(8,8):(1,8)], element (r, c) at
/// r + 8c. Otherwise toTile(l): over one dim, CuTe's 1-D index.
Expected<tile::SwizzledTileLayout> toTile(const AnyLayout &l,
                                          std::span<const int64_t> shape,
                                          std::string_view shapeName);
/// The tile form where a front end takes an optional shape: when given,
/// toTile(l, logicalShape(shape), shapeName) (api/Query.h: a flat tuple
/// of positive extents; a typed or linear layout must have it as its
/// logical shape), which must admit it (TileLayout::admits); shape faults
/// are about "shape". Else unshapedTile(l,
/// shapeName): a cute layout of rank above 1 is refused, as it reads over
/// its modes or over its size and neither is a default. A layout attribute
/// with a swizzle but no `elem=` is refused either way: its swizzle acts
/// on byte addresses, whose element form depends on the element's width
/// (`text`, the attribute's text when there is one, is shown with elem=).
/// Example: tileForm((4,8):(8,1), (4,8)) -> S[(4,8):(8,1)]; without the
/// shape, an error that names S[(4,8):(8,1)].
Expected<tile::SwizzledTileLayout>
tileForm(const AnyLayout &l, const std::optional<IntTuple> &shape,
         std::string_view shapeName, std::string_view text = {});
/// The tile form of layout text in any grammar parseLayout reads:
/// tileForm of the parsed layout, where a TTGIR attribute takes `shape` as
/// its tensor shape.
/// Example: parseTile("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp
/// = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>", (8,4), "SHAPE") holds
/// element (r, c) on lane 4r + c.
Expected<tile::SwizzledTileLayout>
parseTile(std::string_view text, const std::optional<IntTuple> &shape,
          std::string_view shapeName = "the shape");
/// `shape`: the logical dims of a tile layout's linear form (power-of-two
/// extents; empty: one out-dim `index`); ignored by the other models.
Expected<linear::LinearLayout> toLinear(const AnyLayout &l,
                                        std::span<const int64_t> shape = {});
/// A layout of any shape as a padded linear layout (bridge/PaddedBridge.h,
/// linear/Padded.h): a cute layout over its top-level modes (offset ->
/// dims; `shape` ignored), a tile layout over `shape` (required), a linear
/// layout with `shape` as its logical shape (the layout already has the
/// padded shape: the account lists the padded dims only; empty: the
/// layout's own output sizes, nothing padded). Swizzled and
/// offset layouts are refused. Example: toPaddedLinear(cute (4,3):(1,4)) ->
/// {offset: [(1,0), (2,0), (0,1), (0,2)]} -> {dim0: 4, dim1: 4} over (4,3).
Expected<bridge::PaddedConversion>
toPaddedLinear(const AnyLayout &l, std::span<const int64_t> shape = {});

/// The conversion to model `m`, as an AnyLayout (its syntax: the model's
/// own text: CuteText, TileText or LinearText): toCute, tileForm over
/// `shape` (none when empty), toLinear.
Expected<AnyLayout> convert(const AnyLayout &l, Model m,
                            std::span<const int64_t> shape = {});

} // namespace lk::api

#endif // LAYOUTKIT_API_CONVERT_H
