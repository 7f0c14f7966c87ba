//===- Convert.cpp - A layout in the other models -------------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/api/Convert.h"
#include "layoutkit/api/Plan.h"
#include "layoutkit/api/Query.h"

#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/bridge/LinearTile.h"
#include "layoutkit/bridge/TileCute.h"
#include "layoutkit/core/Join.h"
#include "layoutkit/cute/Algebra.h"

#include <algorithm>

namespace lk::api {

std::optional<cute::ComposedLayout>
swizzledForm(const linear::LinearLayout &toOffset) {
  if (Expected<cute::Layout> plain = bridge::linearToCute(toOffset)) {
    cute::ComposedLayout c;
    c.layout = std::move(*plain);
    return c;
  }
  int bits = toOffset.totalOutBits();
  for (int b = 1; b <= bits; ++b)
    for (int m = 0; b + m <= bits; ++m)
      for (int s = b; b + m + s <= bits; ++s) {
        Expected<cute::Swizzle> sw = cute::Swizzle::make(b, m, s);
        if (!sw)
          continue;
        if (Expected<cute::ComposedLayout> c =
                bridge::linearToCute(toOffset, *sw))
          return std::move(*c);
      }
  return std::nullopt;
}

Expected<cute::ComposedLayout> toCute(const AnyLayout &l) {
  if (const cute::ComposedLayout *c = l.cute())
    return *c;
  if (const tile::SwizzledTileLayout *t = l.tile()) {
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

namespace {

/// The tile form of a cute layout on the axis m: its leaves reversed (tile
/// iters run last fastest, cute's leaves first fastest), so the tile's flat
/// index is CuTe's 1-D index.
Expected<tile::SwizzledTileLayout> cuteTile(const cute::ComposedLayout &c) {
  if (c.offset != 0)
    return Diagnostic::error("a tile swizzle layout has no offset; " + c.str() +
                             " has offset " + std::to_string(c.offset));
  LK_TRY(tile::SwizzleLayout sw, bridge::swizzleFromCute(c.swizzle));
  tile::Axis m = tile::Axis::m();
  LK_TRY(tile::TileLayout t,
         bridge::cuteToTile(c.layout, std::span<const tile::Axis>(&m, 1)));
  return tile::SwizzledTileLayout(sw, std::move(t));
}

/// The tile form of cute layout `c` over `shape`, one dim per top-level
/// mode: element (x0, x1, ...) is CuTe's coordinate (x0, x1, ...), as
/// `show` draws it. That is cuteTile of `c` with its modes in reverse
/// order (each mode's own index stays colexicographic).
/// Example: (8,64):(64,1) over (8,64) -> S[(8,64):(64,1)].
Expected<tile::SwizzledTileLayout>
cuteTileByModes(const cute::ComposedLayout &c, std::span<const int64_t> shape,
                std::string_view shapeName) {
  // What the bridge refuses (an offset, a negative stride) it refuses in
  // the 1-D form too, whose diagnostic names `c` as written.
  LK_CHECK(cuteTile(c));
  const cute::Layout &l = c.layout;
  std::string name(shapeName);
  if (shape.size() != l.rank())
    return Diagnostic::error(
        "a cute layout of rank " + std::to_string(l.rank()) + " reads over " +
        name + " with one dim per top-level mode, " + l.shape().str() +
        ", or over one dim (CuTe's 1-D index); " + name + " has " +
        std::to_string(shape.size()) + " dims");
  std::vector<cute::Layout> modes;
  for (size_t i = 0; i < l.rank(); ++i) {
    modes.push_back(l.mode(i));
    if (modes.back().size() != shape[i])
      return Diagnostic::error(
          "mode " + std::to_string(i) + " of " + l.str() + " has size " +
          std::to_string(modes.back().size()) + " but dim " +
          std::to_string(i) + " of " + name + " is " +
          std::to_string(shape[i]) + " (the dims of " + name +
          " are the layout's top-level modes, " + l.shape().str() + ")");
  }
  std::reverse(modes.begin(), modes.end());
  LK_TRY(cute::Layout reversed, cute::makeLayout(modes));
  return cuteTile(cute::ComposedLayout{c.swizzle, c.offset, reversed});
}

/// The tile form of a rank-1 cute layout `c` over `shape` of several dims:
/// element x reads CuTe's 1-D index colex(x), the function of
/// c o compact(shape), taken by modes. Its size must be the shape's (else
/// refused as the 1-D form's `admits` refuses it, naming both sizes).
/// Example: 64:1 over (8,8) -> S[(8,8):(1,8)] (element (r, c) at r + 8c).
Expected<tile::SwizzledTileLayout>
cuteTileOverShape(const cute::ComposedLayout &c, std::span<const int64_t> shape,
                  std::string_view shapeName) {
  // Its faults named on `c`, not on the composition.
  LK_TRY(tile::SwizzledTileLayout flat, cuteTile(c));
  if (shape.size() > tile::TileLayout::kMaxIters) // a tile iter per dim
    return Diagnostic::error(std::string(shapeName) + " has " +
                             std::to_string(shape.size()) +
                             " dims; a tile layout has at most " +
                             std::to_string(tile::TileLayout::kMaxIters))
        .about("shape");
  LK_TRY(cute::Layout dims,
         cute::Layout::compact(IntTuple::tuple(
             std::vector<IntTuple>(shape.begin(), shape.end()))));
  if (dims.size() != c.layout.size()) // admits names both sizes
    LK_CHECK(flat.tile().admits(shape));
  Expected<cute::Layout> read = cute::composition(c.layout, dims);
  if (!read)
    return Diagnostic::error(
        "reading " + c.layout.str() + " over " + std::string(shapeName) + " " +
        dims.shape().str() +
        " (element x at CuTe's 1-D index, colexicographic): " +
        read.error().message);
  return cuteTileByModes(cute::ComposedLayout{c.swizzle, c.offset, *read},
                         shape, shapeName);
}

} // namespace

Expected<tile::SwizzledTileLayout> toTile(const AnyLayout &l) {
  if (const tile::SwizzledTileLayout *t = l.tile())
    return *t;
  if (const cute::ComposedLayout *c = l.cute())
    return cuteTile(*c);
  const linear::LinearLayout &ll = *l.linear();
  // A shared-memory layout (offset -> logical, one block: Triton's
  // swizzled_shared and nvmma_shared): its address form, a swizzle over a
  // strided tile on m, as memoryForms gives it.
  int offset = ll.inDimIndex(linear::dims::kOffset);
  bool oneBlock = true;
  for (int i = 0; i < ll.numInDims(); ++i)
    oneBlock = oneBlock && (i == offset || ll.inDim(i).log2 == 0);
  if (offset >= 0 && oneBlock) {
    std::vector<linear::DimId> outs;
    for (int k = 0; k < ll.numOutDims(); ++k)
      outs.push_back(ll.outDim(k).id);
    const linear::DimId in[] = {linear::dims::kOffset};
    Expected<linear::LinearLayout> memory = ll.sublayout(in, outs);
    if (memory)
      if (std::optional<tile::SwizzledTileLayout> m = memoryForms(*memory).tile)
        return *m;
  }
  LK_TRY(tile::TileLayout t, bridge::linearToTile(ll));
  return tile::SwizzledTileLayout(tile::SwizzleLayout(), std::move(t));
}

Expected<tile::SwizzledTileLayout> toTile(const AnyLayout &l,
                                          std::span<const int64_t> shape,
                                          std::string_view shapeName) {
  if (const linear::LinearLayout *ll = l.linear()) {
    std::vector<int64_t> own;
    for (int k = 0; k < ll->numOutDims(); ++k)
      own.push_back(int64_t(1) << ll->outDim(k).log2);
    if (!std::equal(own.begin(), own.end(), shape.begin(), shape.end()))
      return Diagnostic::error("the layout's logical shape (" +
                               joinIntegers(own, ",") + ") and " +
                               std::string(shapeName) + " (" +
                               joinIntegers(shape, ",") + ") disagree");
  }
  if (const cute::ComposedLayout *c = l.cute(); c && shape.size() > 1)
    return c->layout.rank() > 1 ? cuteTileByModes(*c, shape, shapeName)
                                : cuteTileOverShape(*c, shape, shapeName);
  return toTile(l);
}

Expected<tile::SwizzledTileLayout> unshapedTile(const AnyLayout &l,
                                                std::string_view shapeName) {
  const cute::ComposedLayout *c = l.cute();
  if (!c || c->layout.rank() < 2)
    return toTile(l);
  std::vector<int64_t> modes;
  for (size_t i = 0; i < c->layout.rank(); ++i)
    modes.push_back(c->layout.mode(i).size());
  // Over its own modes' sizes it fails only where the bridge refuses `c`
  // (an offset, a negative stride), which no shape mends.
  LK_TRY(tile::SwizzledTileLayout byModes, cuteTileByModes(*c, modes, ""));
  return Diagnostic::error(
      "a cute layout of rank " + std::to_string(c->layout.rank()) +
      " reads over its modes, " + c->layout.shape().str() +
      ", or over its size, " + std::to_string(c->layout.size()) +
      " (CuTe's 1-D index), and " +
      (shapeName.empty() ? std::string("nothing here says which")
                         : "no " + std::string(shapeName) + " was given") +
      "; over its modes it is " + tileText(byModes));
}

Expected<tile::SwizzledTileLayout>
tileForm(const AnyLayout &l, const std::optional<IntTuple> &shape,
         std::string_view shapeName, std::string_view text) {
  if (const cute::ComposedLayout *c = l.cute();
      l.syntax == Syntax::Attribute && !l.elem && c &&
      !c->swizzle.isIdentity()) // bytes or elements: the width decides
    return Diagnostic::error(
        "a layout attribute's swizzle acts on byte addresses; its tile form, "
        "over elements, needs their type: add elem=" +
        (text.empty() || text.size() > 80
             ? std::string(" before the closing '>'")
             : ", e.g. " + std::string(text.substr(0, text.rfind('>'))) +
                   ",elem=f16>"));
  if (!shape)
    return unshapedTile(l, shapeName);
  LK_TRY(std::vector<int64_t> dims, logicalShape(*shape));
  LK_TRY(tile::SwizzledTileLayout t, toTile(l, dims, shapeName));
  LK_CHECK(t.tile().admits(dims));
  return t;
}

Expected<tile::SwizzledTileLayout>
parseTile(std::string_view text, const std::optional<IntTuple> &shape,
          std::string_view shapeName) {
  ParseOptions any;
  any.shapeName = std::string(shapeName);
  any.shape = shape;
  LK_TRY(AnyLayout l, parseLayout(text, any));
  return tileForm(l, shape, shapeName, text);
}

namespace {

/// `l` (register -> logical, the register the tile's address m) with the
/// address swizzled: a' = sw(a) holds what a = sw(a') held (sw is an
/// involution), so register basis j becomes l(sw(2^j)), the XOR of the old
/// bases of the bits of sw(2^j). sw xors higher bits into lower ones, so
/// sw(2^j) < 2^(j+1) stays in the register range; the check guards that.
Expected<linear::LinearLayout> swizzleRegisters(const linear::LinearLayout &l,
                                                const tile::SwizzleLayout &sw) {
  std::vector<linear::InDimBases> ins = l.allBases();
  for (linear::InDimBases &in : ins) {
    if (in.dim != linear::dims::kRegister)
      continue;
    const std::vector<std::vector<int64_t>> old = in.bases;
    for (size_t j = 0; j < old.size(); ++j) {
      int64_t s = sw(int64_t(1) << j);
      if (s >> old.size())
        return Diagnostic::error(
            sw.str() + " moves address " + std::to_string(int64_t(1) << j) +
            " to " + std::to_string(s) + ", outside the layout's " +
            std::to_string(int64_t(1) << old.size()) + " addresses");
      std::vector<int64_t> b(old[j].size(), 0);
      for (size_t k = 0; k < old.size(); ++k)
        if ((s >> k) & 1)
          for (size_t o = 0; o < b.size(); ++o)
            b[o] ^= old[k][o];
      in.bases[j] = std::move(b);
    }
  }
  std::vector<linear::OutDim> outs = l.outDims();
  return linear::LinearLayout::make(std::span<const linear::InDimBases>(ins),
                                    std::span<const linear::OutDim>(outs));
}

} // namespace

Expected<linear::LinearLayout> toLinear(const AnyLayout &l,
                                        std::span<const int64_t> shape) {
  if (const linear::LinearLayout *ll = l.linear())
    return *ll;
  if (const cute::ComposedLayout *c = l.cute())
    return bridge::cuteToLinear(*c);
  const tile::SwizzledTileLayout &t = *l.tile();
  bridge::TileToLinearDims d;
  d.shape.assign(shape.begin(), shape.end());
  LK_TRY(linear::LinearLayout plain, bridge::tileToLinear(t.tile(), d));
  if (t.swizzle().isIdentity())
    return plain;
  return swizzleRegisters(plain, t.swizzle());
}

Expected<bridge::PaddedConversion>
toPaddedLinear(const AnyLayout &l, std::span<const int64_t> shape) {
  if (const cute::ComposedLayout *c = l.cute()) {
    if (!c->swizzle.isIdentity() || c->offset != 0)
      return Diagnostic::error("padding takes a cute layout without a swizzle "
                               "or an offset, not " +
                               c->str());
    return bridge::cuteToPadded(c->layout);
  }
  // A linear layout without a logical shape: its own output sizes (a
  // Triton tensor type's shape), nothing padded.
  std::vector<int64_t> own;
  if (const linear::LinearLayout *ll = l.linear(); ll && shape.empty()) {
    for (int d = 0; d < ll->numOutDims(); ++d)
      own.push_back(ll->outDim(d).size());
    shape = own;
  }
  if (shape.empty())
    return Diagnostic::error("padding a tile layout needs its logical shape");
  if (const tile::SwizzledTileLayout *t = l.tile()) {
    if (!t->swizzle().isIdentity())
      return Diagnostic::error("padding takes a tile layout without a swizzle");
    return bridge::tileToPadded(t->tile(), shape);
  }
  bridge::PaddedConversion pc;
  LK_TRY(pc.layout, linear::PaddedLayout::make(*l.linear(), shape));
  pc.paddedText = l.linear()->str();
  LK_TRY(std::vector<int64_t> pshape, linear::paddedShape(shape));
  for (size_t d = 0; d < shape.size(); ++d)
    if (pshape[d] != shape[d])
      pc.steps.push_back({bridge::PadStep::Kind::Dim,
                          "dim " + std::to_string(d), shape[d], pshape[d]});
  return pc;
}

Expected<AnyLayout> convert(const AnyLayout &l, Model m,
                            std::span<const int64_t> shape) {
  switch (m) {
  case Model::Cute: {
    LK_TRY(cute::ComposedLayout c, toCute(l));
    return AnyLayout{Syntax::CuteText, std::move(c), l.elem};
  }
  case Model::Tile: {
    std::optional<IntTuple> dims;
    if (!shape.empty())
      dims = IntTuple::tuple(std::vector<IntTuple>(shape.begin(), shape.end()));
    LK_TRY(tile::SwizzledTileLayout t, tileForm(l, dims, "the shape"));
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
