//===- Convert.cpp - A layout in the other models -------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Convert.h"

#include "layoutkit/api/Plan.h"
#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/bridge/LinearTile.h"
#include "layoutkit/bridge/TileCute.h"

namespace lk::api {

Expected<cute::ComposedLayout> toCute(const AnyLayout &l) {
  if (const cute::ComposedLayout *c = l.cute())
    return *c;
  if (const tile::ComposeLayout *t = l.tile()) {
    if (!t->swizzle().isIdentity())
      return Diagnostic::error("a swizzled tile layout has no cute form here: "
                               "its swizzle acts on the address m, the cute "
                               "form's codomain is the tile's axes");
    LK_TRY(bridge::TileAsCute c, bridge::tileToCute(t->tile()));
    cute::ComposedLayout r;
    r.layout = std::move(c.shard);
    return r;
  }
  const linear::LinearLayout &ll = *l.linear();
  if (std::optional<cute::ComposedLayout> c = swizzledForm(ll))
    return std::move(*c);
  // Not even swizzled: the plain bridge's diagnostic says why.
  LK_TRY(cute::Layout plain, bridge::linearToCute(ll));
  cute::ComposedLayout r;
  r.layout = std::move(plain);
  return r;
}

Expected<tile::ComposeLayout> toTile(const AnyLayout &l) {
  if (const tile::ComposeLayout *t = l.tile())
    return *t;
  if (const cute::ComposedLayout *c = l.cute()) {
    if (c->offset != 0)
      return Diagnostic::error("a tile swizzle layout has no offset; " +
                               c->str() + " has offset " +
                               std::to_string(c->offset));
    LK_TRY(tile::SwizzleLayout sw, tile::SwizzleLayout::fromCute(c->swizzle));
    tile::Axis m = tile::Axis::m();
    LK_TRY(tile::TileLayout t,
           bridge::cuteToTile(c->layout, std::span<const tile::Axis>(&m, 1)));
    return tile::ComposeLayout(sw, std::move(t));
  }
  LK_TRY(tile::TileLayout t, bridge::linearToTile(*l.linear()));
  return tile::ComposeLayout(tile::SwizzleLayout(), std::move(t));
}

Expected<linear::LinearLayout> toLinear(const AnyLayout &l,
                                        std::span<const int64_t> shape) {
  if (const linear::LinearLayout *ll = l.linear())
    return *ll;
  if (const cute::ComposedLayout *c = l.cute())
    return bridge::cuteToLinear(*c);
  const tile::ComposeLayout &t = *l.tile();
  if (!t.swizzle().isIdentity())
    return Diagnostic::error("a swizzled tile layout has no linear form "
                             "here; convert its tile (" +
                             t.tile().str() + ") without the swizzle");
  bridge::TileToLinearDims d;
  d.shape.assign(shape.begin(), shape.end());
  return bridge::tileToLinear(t.tile(), d);
}

Expected<AnyLayout> convert(const AnyLayout &l, Model m,
                            std::span<const int64_t> shape) {
  switch (m) {
  case Model::Cute: {
    LK_TRY(cute::ComposedLayout c, toCute(l));
    return AnyLayout{Syntax::CuteText, std::move(c), l.elem};
  }
  case Model::Tile: {
    LK_TRY(tile::ComposeLayout t, toTile(l));
    return AnyLayout{Syntax::TileText, std::move(t), l.elem};
  }
  case Model::Linear: {
    LK_TRY(linear::LinearLayout ll, toLinear(l, shape));
    return AnyLayout{Syntax::LinearText, std::move(ll), l.elem};
  }
  }
  return Diagnostic::error("unknown model");
}

} // namespace lk::api
