//===- TileCute.cpp - Bridge between tile and cute layouts ----------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/bridge/TileCute.h"

#include "layoutkit/tile/TileText.h"

#include <string>

namespace lk::bridge {

using tile::Axis;
using tile::Iter;
using tile::TileLayout;

namespace {

std::string iterText(const char *part, const Iter &it) {
  return std::string(part) + "[" + std::to_string(it.extent) + ":" +
         tile::strideText(it.stride, it.axis) + "]";
}

/// The iters reversed (tile order -> cute order) as a cute layout with
/// basis strides over `axes`.
Expected<cute::Layout> itersToCute(const tile::IterList &iters,
                                   const std::vector<Axis> &axes) {
  std::vector<IntTuple> shape, stride;
  for (size_t k = iters.size(); k-- > 0;) {
    const Iter &it = iters[k];
    size_t index = 0;
    while (axes[index] != it.axis)
      ++index; // present: checked by the caller
    shape.push_back(IntTuple(it.extent));
    stride.push_back(IntTuple::leaf(it.stride, BasisPath::unit(int(index))));
  }
  return cute::Layout::make(IntTuple::tuple(shape), IntTuple::tuple(stride));
}

/// The iters of a cute layout, reversed into tile order.
Expected<tile::IterList> cuteToIters(const cute::Layout &l,
                                     std::span<const Axis> axes,
                                     const char *what) {
  auto shape = l.shape().leaves();
  auto stride = l.stride().leaves();
  tile::IterList out;
  if (shape.size() > TileLayout::kMaxIters)
    return Diagnostic::error(std::string(what) + " " + l.str() +
                             " has more than " +
                             std::to_string(TileLayout::kMaxIters) + " leaves");
  for (size_t k = shape.size(); k-- > 0;) {
    const IntTuple::Node &s = shape[k];
    const IntTuple::Node &d = stride[k];
    BasisPath path = BasisPath::fromRaw(d.basis);
    IntTuple leafText = IntTuple::leaf(d.value, path);
    std::string where = std::string(what) + " " + l.str() + ", leaf " +
                        std::to_string(k) + " (stride " + leafText.str() + ")";
    if (path.depth() > 1)
      return Diagnostic::error(where + ": a nested basis is not representable "
                                       "as a tile stride (tile axes are flat)");
    int index = path.depth() == 1 ? path.at(0) : 0;
    if (size_t(index) >= axes.size())
      return Diagnostic::error(where + ": basis index " +
                               std::to_string(index) +
                               " is outside the codomain of " +
                               std::to_string(axes.size()) + " axes");
    if (d.value < 0)
      return Diagnostic::error(where +
                               ": a negative stride is not representable "
                               "(tile strides are non-negative)");
    out.push_back(Iter{s.value, d.value, axes[size_t(index)]});
  }
  return out;
}

} // namespace

Expected<TileAsCute> tileToCute(const TileLayout &layout, ReplicaOffset mode,
                                std::span<const Axis> codomain) {
  TileAsCute out;
  if (codomain.empty()) {
    out.axes.assign(layout.axes().begin(), layout.axes().end());
  } else {
    out.axes.assign(codomain.begin(), codomain.end());
    if (out.axes.size() > Axis::kMaxAxes)
      return Diagnostic::error("a codomain has at most " +
                               std::to_string(Axis::kMaxAxes) + " axes");
    for (size_t i = 0; i < out.axes.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (out.axes[i] == out.axes[j])
          return Diagnostic::error("axis " + std::string(out.axes[i].name()) +
                                   " appears twice in the codomain");
    for (Axis a : layout.axes()) {
      bool found = false;
      for (Axis b : out.axes)
        found |= a == b;
      if (!found)
        return Diagnostic::error("the layout names axis " +
                                 std::string(a.name()) +
                                 ", which is not in the codomain");
    }
  }
  if (mode == ReplicaOffset::Refuse) {
    if (!layout.replica().empty())
      return Diagnostic::error(
                 "replica iter 0 (" + iterText("R", layout.replica()[0]) +
                 ") is not representable in a cute layout: cute maps a "
                 "coordinate to one point")
          .note("convert with ReplicaOffset::Carry to keep the replica beside "
                "the shard");
    for (const tile::AxisValue &o : layout.offset())
      if (o.value != 0)
        return Diagnostic::error(
                   "offset " + tile::strideText(o.value, o.axis) +
                   " is not representable in a cute layout: cute layouts start "
                   "at the origin")
            .note("convert with ReplicaOffset::Carry to keep the offset beside "
                  "the shard");
  }
  LK_TRY(out.shard, itersToCute(layout.shard(), out.axes));
  if (!layout.replica().empty()) {
    LK_TRY(cute::Layout r, itersToCute(layout.replica(), out.axes));
    out.replica = r;
  }
  out.offset = layout.offset();
  return out;
}

Expected<TileLayout> cuteToTile(const cute::Layout &shard,
                                std::span<const Axis> axes) {
  if (axes.empty())
    return Diagnostic::error(
        "cuteToTile needs at least one axis in the codomain");
  LK_TRY(tile::IterList iters, cuteToIters(shard, axes, "cute layout"));
  return TileLayout::make(std::move(iters));
}

Expected<TileLayout> cuteToTile(const TileAsCute &c) {
  if (c.axes.empty())
    return Diagnostic::error(
        "cuteToTile needs at least one axis in the codomain");
  LK_TRY(tile::IterList shard, cuteToIters(c.shard, c.axes, "shard"));
  tile::IterList replica;
  if (c.replica) {
    LK_TRY(replica, cuteToIters(*c.replica, c.axes, "replica"));
  }
  return TileLayout::make(std::move(shard), std::move(replica), c.offset);
}

Expected<tile::SwizzleLayout> swizzleFromCute(const cute::Swizzle &s) {
  return tile::SwizzleLayout::make(s.M, s.B, s.S);
}

cute::Swizzle swizzleToCute(const tile::SwizzleLayout &s) {
  return cute::Swizzle{s.swizzleLen(), s.perElement(), s.atomLen()};
}

} // namespace lk::bridge
