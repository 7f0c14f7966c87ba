//===- TileOps.cpp - Building tile layouts from atoms ---------------------===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//

#include "layoutkit/tile/TileOps.h"

#include "layoutkit/core/Checked.h"

#include <string>

namespace lk::tile {
namespace {

/// The per-axis sum of two offset lists (a's order, then b's new axes).
Expected<OffsetList> addOffsets(const OffsetList &a, const OffsetList &b) {
  OffsetList out = a;
  for (const AxisValue &v : b) {
    bool merged = false;
    for (AxisValue &w : out)
      if (w.axis == v.axis) {
        LK_TRY(w.value, checkedAdd(w.value, v.value, "the summed offset"));
        merged = true;
      }
    if (!merged)
      out.push_back(v);
  }
  return out;
}

IterList concat(const IterList &a, const IterList &b) {
  IterList out = a;
  out.append(b.data(), b.size());
  return out;
}

} // namespace

Expected<TileLayout> directSum(const TileLayout &outer,
                               const TileLayout &inner) {
  LK_TRY(OffsetList offset, addOffsets(outer.offset(), inner.offset()));
  return TileLayout::make(concat(outer.shard(), inner.shard()),
                          concat(outer.replica(), inner.replica()), offset);
}

Expected<std::vector<IterList>> groupByShape(const TileLayout &layout,
                                             std::span<const int64_t> shape) {
  LK_CHECK(layout.admits(shape));
  if (shape.empty())
    return Diagnostic::error("groupByShape: a shape of rank 0 has no dimension "
                             "to hold the shard iters");
  std::vector<Iter> iters(layout.shard().begin(), layout.shard().end());
  std::vector<IterList> groups(shape.size());
  size_t idx = iters.size();
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t need = shape[d];
    std::vector<Iter> rev; // this dimension's iters, fastest first
    while (need > 1) {
      Iter &it = iters[idx - 1]; // present: the shape is admitted
      if (it.extent == 1) {
        rev.push_back(it);
        --idx;
      } else if (need % it.extent == 0) {
        rev.push_back(it);
        need /= it.extent;
        --idx;
      } else if (it.extent % need == 0) {
        // The boundary falls inside the iter: its fast part joins this
        // dimension, its slow part stays for the next one.
        rev.push_back(Iter{need, it.stride, it.axis});
        LK_TRY(int64_t slow, checkedMul(need, it.stride, "a split stride"));
        it = Iter{it.extent / need, slow, it.axis};
        need = 1;
      } else {
        return Diagnostic::error(
            "shape " + shapeText(shape) + " does not align with the shard of " +
            layout.str() + ": dimension " + std::to_string(d) + " needs " +
            std::to_string(need) + " more elements but shard iter " +
            std::to_string(idx - 1) + " has extent " +
            std::to_string(it.extent));
      }
    }
    // Extent-1 iters right before the boundary stay with this dimension.
    while (idx > 0 && iters[idx - 1].extent == 1) {
      rev.push_back(iters[idx - 1]);
      --idx;
    }
    for (size_t k = rev.size(); k-- > 0;)
      groups[d].push_back(rev[k]);
  }
  // Every iter is placed: the shape is admitted and extent-1 iters are
  // absorbed above.
  return groups;
}

Expected<TiledLayout> tileProduct(const TileLayout &outer,
                                  std::span<const int64_t> outerShape,
                                  const TileLayout &inner,
                                  std::span<const int64_t> innerShape) {
  if (outerShape.size() != innerShape.size())
    return Diagnostic::error("tileProduct: outer shape " +
                             shapeText(outerShape) + " and inner shape " +
                             shapeText(innerShape) + " have different ranks");
  LK_TRY(std::vector<IterList> o, groupByShape(outer, outerShape));
  LK_TRY(std::vector<IterList> n, groupByShape(inner, innerShape));
  TiledLayout out;
  IterList shard;
  for (size_t d = 0; d < o.size(); ++d) {
    shard.append(o[d].data(), o[d].size());
    shard.append(n[d].data(), n[d].size());
    LK_TRY(int64_t e,
           checkedMul(outerShape[d], innerShape[d], "the tiled shape"));
    out.shape.push_back(e);
  }
  LK_TRY(OffsetList offset, addOffsets(outer.offset(), inner.offset()));
  LK_TRY(out.layout,
         TileLayout::make(shard, concat(outer.replica(), inner.replica()),
                          offset));
  return out;
}

Expected<TileLayout> splitIter(const TileLayout &layout, size_t k, int64_t q) {
  const IterList &s = layout.shard();
  if (k >= s.size())
    return Diagnostic::error("splitIter: no shard iter " + std::to_string(k));
  const Iter &it = s[k];
  if (q < 1 || it.extent % q != 0)
    return Diagnostic::error(
        "splitIter: " + std::to_string(q) + " does not divide the extent " +
        std::to_string(it.extent) + " of shard iter " + std::to_string(k));
  LK_TRY(int64_t slow, checkedMul(q, it.stride, "the split stride"));
  IterList out;
  for (size_t j = 0; j < s.size(); ++j) {
    if (j == k) {
      out.push_back(Iter{it.extent / q, slow, it.axis});
      out.push_back(Iter{q, it.stride, it.axis});
    } else {
      out.push_back(s[j]);
    }
  }
  return TileLayout::make(out, layout.replica(), layout.offset());
}

Expected<TileLayout> packIter(const TileLayout &layout, size_t k, int64_t epc,
                              Axis slot) {
  const IterList &s = layout.shard();
  if (k >= s.size())
    return Diagnostic::error("packIter: no shard iter " + std::to_string(k));
  const Iter &it = s[k];
  if (epc < 1 || it.extent % epc != 0)
    return Diagnostic::error("packIter: " + std::to_string(epc) +
                             " elements per cell do not divide the extent " +
                             std::to_string(it.extent) + " of shard iter " +
                             std::to_string(k));
  IterList out;
  for (size_t j = 0; j < s.size(); ++j) {
    if (j == k) {
      out.push_back(Iter{it.extent / epc, it.stride, it.axis});
      out.push_back(Iter{epc, 1, slot});
    } else {
      out.push_back(s[j]);
    }
  }
  return TileLayout::make(out, layout.replica(), layout.offset());
}

} // namespace lk::tile
