//===- PaddedBridge.cpp - Cute and tile layouts of any shape to padded linear -===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/bridge/PaddedBridge.h"

#include "layoutkit/bridge/LinearCute.h"
#include "layoutkit/bridge/LinearTile.h"
#include "layoutkit/tile/TileOps.h"
#include "layoutkit/tile/TileText.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace lk::bridge {

using linear::LinearLayout;
using linear::nextPow2;
using linear::PaddedLayout;

std::string PadStep::str() const {
  static constexpr const char *kWhat[] = {"extent", "extent", "stride"};
  return where + ": " + kWhat[int(kind)] + " " + std::to_string(from) + " -> " +
         std::to_string(to);
}

std::string PaddedConversion::describe() const {
  std::string s;
  for (const PadStep &p : steps)
    s += p.str() + "\n";
  if (steps.empty())
    s += "nothing padded\n";
  s += exact ? "exact: every valid element keeps its place"
             : "restrided: valid elements move (see the stride steps)";
  return s;
}

namespace {

/// One leaf or iter in the restride walk: its extent before and after
/// padding, its stride, the axis it strides over, and its name.
struct WalkItem {
  int64_t e = 1, E = 1, d = 0;
  int axis = 0;
  std::string who;
};

/// The restride walk of the file comment over every axis: new strides (one
/// per item), or a diagnostic when strides do not nest.
Expected<std::vector<int64_t>> restride(const std::vector<WalkItem> &items) {
  std::vector<int64_t> out(items.size());
  std::vector<size_t> order;
  for (size_t i = 0; i < items.size(); ++i) {
    out[i] = items[i].d;
    if (items[i].e > 1 && items[i].d > 0)
      order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return items[a].axis != items[b].axis ? items[a].axis < items[b].axis
                                          : items[a].d < items[b].d;
  });
  for (size_t k = 1; k < order.size(); ++k) {
    const WalkItem &p = items[order[k - 1]], &c = items[order[k]];
    if (p.axis != c.axis)
      continue;
    int64_t span = 0, newSpan = 0;
    if (__builtin_mul_overflow(p.d, p.e, &span) ||
        __builtin_mul_overflow(out[order[k - 1]], p.E, &newSpan))
      return Diagnostic::error("the span of " + p.who + " overflows");
    if (c.d % span != 0)
      return Diagnostic::error(
          "the strides do not nest: " + c.who + " has stride " +
          std::to_string(c.d) + ", not a multiple of " + std::to_string(span) +
          " (the span of " + p.who +
          "), so the two interleave or overlap and no padding keeps them "
          "apart");
    if (__builtin_mul_overflow(c.d / span, newSpan, &out[order[k]]))
      return Diagnostic::error("the padded stride of " + c.who + " overflows");
  }
  return out;
}

/// Stride steps of a walk (items whose stride changed).
bool addStrideSteps(const std::vector<WalkItem> &items,
                    const std::vector<int64_t> &strides,
                    std::vector<PadStep> &steps) {
  bool changed = false;
  for (size_t i = 0; i < items.size(); ++i)
    if (strides[i] != items[i].d) {
      steps.push_back(
          {PadStep::Kind::Stride, items[i].who, items[i].d, strides[i]});
      changed = true;
    }
  return changed;
}

Diagnostic withNote(Diagnostic d, std::string note) {
  d.notes.push_back(std::move(note));
  return d;
}

/// The end of both conversions: the layout `build` makes from the items'
/// own strides when `toLinear` accepts it (exact padding), else from
/// restride's strides, recorded as stride steps (valid elements move).
/// `build(strides)` gives the model's layout (one stride per item),
/// `toLinear(layout)` its linear layout.
template <class Build, class ToLinear>
Expected<PaddedConversion> finishPadding(PaddedConversion pc,
                                         const std::vector<WalkItem> &items,
                                         std::span<const int64_t> logical,
                                         Build build, ToLinear toLinear) {
  std::vector<int64_t> strides;
  for (const WalkItem &it : items)
    strides.push_back(it.d);
  LK_TRY(auto padded, build(strides));
  auto ll = toLinear(padded);
  if (!ll) {
    auto walked = restride(items);
    if (!walked)
      return withNote(std::move(walked).error(),
                      "padding only the extents gives " + padded.str() + ": " +
                          ll.error().message);
    if (!addStrideSteps(items, *walked, pc.steps))
      return std::move(ll).error();
    pc.exact = false;
    LK_TRY(padded, build(*walked));
    LK_TRY(LinearLayout restrided, toLinear(padded));
    ll = std::move(restrided);
  }
  LK_TRY(pc.layout, PaddedLayout::make(std::move(*ll), logical));
  pc.paddedText = padded.str();
  return pc;
}

//===----------------------------------------------------------------------===//
// cute
//===----------------------------------------------------------------------===//

/// The offset -> logical layout of a padded cute layout with one in-dim per
/// mode (inverted cuteToLinear).
Expected<LinearLayout> cuteOffsetToLogical(const cute::Layout &padded,
                                           size_t rank) {
  CuteToLinearDims dims;
  for (size_t i = 0; i < rank; ++i)
    dims.inDims.push_back(linear::dims::dim(int(i)));
  LK_TRY(LinearLayout fwd, cuteToLinear(padded, dims));
  auto inv = fwd.invert();
  if (!inv)
    return Diagnostic::error(
        "the padded layout " + padded.str() +
        " is not a bijection onto offsets [0, " +
        std::to_string(fwd.totalOutSize()) +
        "): a hardware -> logical layout needs every offset to hold exactly "
        "one element");
  return inv;
}

} // namespace

Expected<PaddedConversion> cuteToPadded(const cute::Layout &layout) {
  if (layout.hasBasisStrides())
    return Diagnostic::error("the layout " + layout.str() +
                             " has basis strides; padding needs plain "
                             "integer strides");
  const bool single = layout.shape().isLeaf();
  const size_t rank = single ? 1 : layout.rank();
  if (rank > size_t(linear::dims::kNumStandardOutDims))
    return Diagnostic::error("the layout has " + std::to_string(rank) +
                             " modes; at most 16 logical dims");
  auto shapeLeaves = layout.shape().leaves();
  auto strideLeaves = layout.stride().leaves();
  std::vector<int64_t> ext, pext, logical;
  std::vector<WalkItem> items;
  PaddedConversion pc;
  std::vector<PadStep> extentSteps;
  size_t leaf = 0;
  for (size_t m = 0; m < rank; ++m) {
    size_t count = single ? 1 : layout.shape()[m].leafCount();
    int64_t n = single ? layout.size() : layout.mode(m).size();
    logical.push_back(n);
    for (size_t j = 0; j < count; ++j, ++leaf) {
      int64_t e = shapeLeaves[leaf].value, d = strideLeaves[leaf].value;
      std::string who = "leaf " + std::to_string(leaf) + " (" +
                        std::to_string(e) + ":" + std::to_string(d) + ")";
      int64_t E = e;
      if (!std::has_single_bit(uint64_t(e))) {
        if (j + 1 != count)
          return Diagnostic::error(
              who + " of " + layout.str() + " has extent " + std::to_string(e) +
              ", not a power of two, and is not the most major leaf of mode " +
              std::to_string(m) +
              ": padding it would change the logical coordinate of the "
              "leaves above it");
        LK_TRY(E, nextPow2(e));
        extentSteps.push_back({PadStep::Kind::Extent, who, e, E});
      }
      ext.push_back(e);
      pext.push_back(E);
      items.push_back({e, E, d, 0, who});
    }
    LK_TRY(int64_t padded, nextPow2(n));
    if (padded != n)
      pc.steps.push_back(
          {PadStep::Kind::Dim, "dim " + std::to_string(m), n, padded});
  }
  pc.steps.insert(pc.steps.end(), extentSteps.begin(), extentSteps.end());

  auto build =
      [&](const std::vector<int64_t> &strides) -> Expected<cute::Layout> {
    if (single)
      return cute::Layout::make(IntTuple(pext[0]), IntTuple(strides[0]));
    return cute::Layout::make(layout.shape().withLeaves(pext.data()),
                              layout.stride().withLeaves(strides.data()));
  };
  return finishPadding(
      std::move(pc), items, logical, build,
      [&](const cute::Layout &l) { return cuteOffsetToLogical(l, rank); });
}

//===----------------------------------------------------------------------===//
// tile
//===----------------------------------------------------------------------===//

namespace {

std::string iterWho(size_t k, const tile::Iter &it, const char *kind) {
  return std::string(kind) + " " + std::to_string(k) + " (" +
         std::to_string(it.extent) + ":" +
         tile::strideText(it.stride, it.axis) + ")";
}

} // namespace

Expected<PaddedConversion> tileToPadded(const tile::TileLayout &layout,
                                        std::span<const int64_t> shape,
                                        linear::DimId memoryDim) {
  if (shape.size() > size_t(linear::dims::kNumStandardOutDims))
    return Diagnostic::error("the shape has " + std::to_string(shape.size()) +
                             " dims; at most 16");
  LK_TRY(std::vector<tile::IterList> groups, tile::groupByShape(layout, shape));
  LK_TRY(std::vector<int64_t> pshape, linear::paddedShape(shape));
  PaddedConversion pc;
  std::vector<PadStep> extentSteps;
  tile::IterList shard;
  std::vector<WalkItem> items;
  for (size_t d = 0; d < groups.size(); ++d) {
    if (pshape[d] != shape[d])
      pc.steps.push_back({PadStep::Kind::Dim, "dim " + std::to_string(d),
                          shape[d], pshape[d]});
    for (size_t j = 0; j < groups[d].size(); ++j) {
      tile::Iter it = groups[d][j];
      std::string who = iterWho(shard.size(), it, "iter");
      int64_t E = it.extent;
      if (!std::has_single_bit(uint64_t(it.extent))) {
        if (j != 0)
          return Diagnostic::error(
              who + " has extent " + std::to_string(it.extent) +
              ", not a power of two, and is not the most major iter of dim " +
              std::to_string(d) + " (" + std::to_string(shape[d]) +
              "): padding it would change the logical coordinate of the "
              "iters above it");
        LK_TRY(E, nextPow2(it.extent));
        extentSteps.push_back({PadStep::Kind::Extent, who, it.extent, E});
      }
      items.push_back({it.extent, E, it.stride, int(it.axis.id()), who});
      shard.push_back({E, it.stride, it.axis});
    }
  }
  pc.steps.insert(pc.steps.end(), extentSteps.begin(), extentSteps.end());
  for (size_t k = 0; k < layout.replica().size(); ++k) {
    const tile::Iter &it = layout.replica()[k];
    items.push_back({it.extent, it.extent, it.stride, int(it.axis.id()),
                     iterWho(k, it, "replica iter")});
  }
  TileToLinearDims dims{memoryDim, pshape};
  auto build =
      [&](const std::vector<int64_t> &strides) -> Expected<tile::TileLayout> {
    tile::IterList s = shard, r = layout.replica();
    for (size_t i = 0; i < s.size(); ++i)
      s[i].stride = strides[i];
    for (size_t i = 0; i < r.size(); ++i)
      r[i].stride = strides[s.size() + i];
    return tile::TileLayout::make(std::move(s), std::move(r), layout.offset());
  };
  return finishPadding(
      std::move(pc), items, shape, build,
      [&](const tile::TileLayout &l) { return tileToLinear(l, dims); });
}

} // namespace lk::bridge
